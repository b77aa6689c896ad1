// `view --serve --follow` end to end, three processes: a writer appending to a SQLite store, the
// CLI serving and following it, and Chromium showing the page. New parts and state changes
// appear in the open page without a reload; the server binds loopback only and stops on SIGINT.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { chromiumAvailable, launch, type Browser } from './browser.js';

declare const document: any;
declare const window: any;

const SESSION = 'live-session';
const src = (line: number) => ({ provider: 'claude' as const, line });
const started = (id: string, at: number, extra: Record<string, unknown> = {}): ToolEvent => ({ type: 'tool.started', sessionId: SESSION, partId: id, at, source: src(at), name: 'Bash', kind: 'bash', title: `Run ${id}`, input: { command: id }, metadata: { provider: 'claude', ...extra } } as ToolEvent);
const completed = (id: string, at: number): ToolEvent => ({ type: 'tool.completed', sessionId: SESSION, partId: id, at, source: src(at), output: { text: `${id} done` } } as ToolEvent);

function tsx(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
}

/** The lines of a child's stream, kept from the start, so a wait never misses one. */
class Lines {
  private readonly seen: string[] = [];
  private read = 0;
  private ended = false;
  private wake: () => void = () => {};
  constructor(stream: NodeJS.ReadableStream) {
    const rl = createInterface({ input: stream });
    rl.on('line', (l) => { this.seen.push(l); this.wake(); });
    rl.on('close', () => { this.ended = true; this.wake(); });
  }
  /** The next unread line that matches (lines before it are passed over). */
  async next(re: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      while (this.read < this.seen.length) {
        const m = this.seen[this.read++]!.match(re);
        if (m) return m;
      }
      if (this.ended) throw new Error(`stream ended before a line matching ${re}; it said: ${this.seen.join(' | ')}`);
      await new Promise<void>((resolve) => { this.wake = resolve; });
    }
  }
  get text(): string { return this.seen.join('\n'); }
}

const exited = (p: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));

describe.runIf(chromiumAvailable())('toolnorm view --serve --follow', () => {
  let browser: Browser;
  let writer: ChildProcessWithoutNullStreams;
  let server: ChildProcessWithoutNullStreams | undefined;
  const dbPath = join(mkdtempSync(join(tmpdir(), 'toolnorm-view-live-')), 'events.db');
  let writerOut: Lines;
  const write = async (events: ToolEvent[]) => {
    writer.stdin.write(`${JSON.stringify(events)}\n`);
    return Number((await writerOut.next(/^appended (\d+)$/))[1]);
  };

  beforeAll(async () => {
    writer = tsx(['test/view/live-writer.ts', dbPath, SESSION]);
    writerOut = new Lines(writer.stdout);
    await writerOut.next(/^ready 0$/);
    browser = await launch();
  });
  afterAll(async () => {
    writer?.stdin.end();
    if (writer) await exited(writer);
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await browser?.close();
  });

  it('streams appended parts into the open page, binds 127.0.0.1 only and stops on SIGINT', async () => {
    await write([started('a', 1_000), completed('a', 1_400)]);
    server = tsx(['src/cli/main.ts', 'view', '--store', `sqlite:${dbPath}`, '--session', SESSION, '--serve', '--follow']);
    const serverErr = new Lines(server.stderr);
    const [, url, port] = await serverErr.next(/serving (http:\/\/127\.0\.0\.1:(\d+)\/)/);

    const page = await browser.page();
    await page.goto(url!);
    await page.waitForSelector('body[data-ready=true]');
    expect(await page.locator('[data-part-id]').count()).toBe(1);
    await page.evaluate(() => { window.__sameDocument = true; });
    await page.waitForFunction(() => /following/.test(document.getElementById('tn-facts').textContent));

    await write([started('b', 1_500), started('c', 1_600, { parentId: 'b' })]);
    await page.waitForSelector('[data-part-id=c]');
    expect(await page.locator('[data-part-id=b]').getAttribute('data-state')).toBe('started');
    expect(await page.locator('[data-part-id=c]').evaluate((e) => e.parentElement.closest('[data-part-id]').getAttribute('data-part-id'))).toBe('b');
    expect(await page.locator('#tn-count').textContent()).toBe('3 parts');

    await write([completed('c', 1_900), completed('b', 2_000)]);
    await page.waitForSelector('[data-part-id=b][data-state=complete]');
    expect(await page.locator('[data-part-id=c]').getAttribute('data-state')).toBe('complete');
    // A completion for a part never started: a placeholder part and the replay's diagnostic, live.
    await write([completed('orphan', 2_100)]);
    await page.waitForSelector('[data-part-id=orphan]');
    expect(await page.locator('#tn-diags summary').textContent()).toBe('Diagnostics: 1');
    expect(await page.locator('#tn-diags li').textContent()).toMatch(/^warning unknown_part .*tool\.completed for part orphan/);
    expect(await page.evaluate(() => window.__sameDocument)).toBe(true);
    // A reload starts from the store again and lists the diagnostic once.
    await page.reload();
    await page.waitForFunction(() => /following/.test(document.getElementById('tn-facts').textContent));
    expect(await page.locator('[data-part-id]').count()).toBe(4);
    expect(await page.locator('#tn-diags li').count()).toBe(1);
    const urls = browser.requests.map((r) => r.url());
    expect(urls.every((u) => u.startsWith(url!))).toBe(true);
    expect(urls).toContain(`${url}events`);

    // Loopback only: the port is closed on every other local address.
    const others = Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal && !i.address.startsWith('fe80')).map((i) => i!.address);
    for (const host of ['::1', ...others]) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect({ host, port: Number(port) });
        s.once('connect', () => { s.destroy(); resolve(false); });
        s.once('error', () => resolve(true));
      });
      expect(refused, host).toBe(true);
    }

    await page.close();
    server.kill('SIGINT');
    expect(await exited(server)).toBe(130);
    await serverErr.next(/^toolnorm view: stopped$/);
  });
});
