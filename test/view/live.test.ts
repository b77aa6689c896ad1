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

  it('follows the child sessions its subagent parts name: a child written before or after its subagent nests once both are known; an approval shows waiting, then answered', async () => {
    // OpenCode runs a subagent in a session of its own, stored as its own stream: the followed
    // session's subagent part names it in metadata.childSessionId, its calls name the subagent
    // in metadata.parentId.
    const MAIN = 'live-main';
    const db = join(mkdtempSync(join(tmpdir(), 'toolnorm-view-live-child-')), 'events.db');
    const w = tsx(['test/view/live-writer.ts', db, MAIN]);
    const wOut = new Lines(w.stdout);
    await wOut.next(/^ready 0$/);
    const put = async (session: string, events: ToolEvent[]) => {
      w.stdin.write(`${JSON.stringify({ session, events: events.map((e) => ({ ...e, sessionId: session })) })}\n`);
      await wOut.next(/^appended \d+$/);
    };
    const agent = (id: string, at: number, child: string) => ({ ...started(id, at, { childSessionId: child }), name: 'task', kind: 'subagent', title: `Agent ${id}` } as ToolEvent);
    let follower: ChildProcessWithoutNullStreams | undefined;
    try {
      // The early child is in the store before anything names it.
      await put('kid-early', [started('k1', 1_050, { parentId: 'agent1' })]);
      await put(MAIN, [started('x', 1_000), completed('x', 1_010)]);
      follower = tsx(['src/cli/main.ts', 'view', '--store', `sqlite:${db}`, '--session', MAIN, '--serve', '--follow']);
      const err = new Lines(follower.stderr);
      const [, url] = await err.next(/serving (http:\/\/127\.0\.0\.1:\d+\/)/);
      const page = await browser.page();
      await page.goto(url!);
      await page.waitForFunction(() => /following/.test(document.getElementById('tn-facts').textContent));
      // Nothing names kid-early yet: it is not part of this view.
      expect(await page.locator('[data-part-id]').count()).toBe(1);
      const enclosing = (id: string) => page.locator(`[data-part-id=${id}]`).evaluate((e) => e.parentElement.closest('[data-part-id]')?.getAttribute('data-part-id') ?? null);

      await put(MAIN, [agent('agent1', 1_020, 'kid-early')]);
      await page.waitForSelector('[data-part-id=k1]');
      expect([await enclosing('k1'), await page.locator('[data-part-id=k1]').getAttribute('data-session')]).toEqual(['agent1', 'kid-early']);

      await put(MAIN, [agent('agent2', 1_100, 'kid-late')]);
      await page.waitForSelector('[data-part-id=agent2]');
      await put('kid-late', [started('k2', 1_150, { parentId: 'agent2' })]);
      await page.waitForSelector('[data-part-id=k2]');
      expect(await enclosing('k2')).toBe('agent2');
      await put('kid-late', [completed('k2', 1_200)]);
      await page.waitForSelector('[data-part-id=k2][data-state=complete]');
      expect(await page.locator('#tn-count').textContent()).toBe('5 parts');

      // An approval asked for while the page is open shows as waiting, then as answered.
      await put(MAIN, [started('w', 1_300), { type: 'tool.approval.requested', sessionId: MAIN, partId: 'w', at: 1_310, source: src(1_310), approval: { state: 'pending', source: 'user' } } as ToolEvent]);
      await page.waitForSelector('[data-part-id=w][data-approval=pending]');
      expect(await page.locator('[data-part-id=w] > .tn-row .tn-badge').textContent()).toBe('waiting for approval');
      await put(MAIN, [{ type: 'tool.approval.resolved', sessionId: MAIN, partId: 'w', at: 1_320, source: src(1_320), approval: { state: 'approved', source: 'user' } } as ToolEvent]);
      await page.waitForSelector('[data-part-id=w][data-approval=approved]');
      // Answered: the row no longer says it waits (an approved call is a plain success there).
      expect(await page.locator('[data-part-id=w] > .tn-row .tn-badge').count()).toBe(0);

      // A reload gets the whole view at once, the child sessions included: the same tree.
      await page.reload();
      await page.waitForFunction(() => /following/.test(document.getElementById('tn-facts').textContent));
      const tree = await page.$$eval('[data-part-id]', (els) => els.map((e) => [e.getAttribute('data-part-id'), e.parentElement.closest('[data-part-id]')?.getAttribute('data-part-id') ?? null]));
      expect(tree).toEqual([['x', null], ['agent1', null], ['k1', 'agent1'], ['agent2', null], ['k2', 'agent2'], ['w', null]]);
      await page.close();
      follower.kill('SIGINT');
      expect(await exited(follower)).toBe(130);
    } finally {
      if (follower && follower.exitCode === null) follower.kill('SIGKILL');
      w.stdin.end();
      await exited(w);
    }
  });
});
