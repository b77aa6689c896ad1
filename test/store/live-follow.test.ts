// Issue 30, the store while live: `normalize --store` on a pipe commits as the agent goes, so a
// follower (`replay --follow`, through followSession) shows each event while the pipe is still
// open. Asserted by order: the follower has printed a line's events before the test writes the
// next line, and the last line's before the pipe closes; on SQLite and PostgreSQL. And what the
// writer has printed is already in the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { openStore } from '../../src/store/open.js';
import { LiveCli, recordsAfterEachLine, sleep, twoSessions } from '../cli/live-cli.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable } from './pg.js';

const PG = await postgresAvailable();
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-follow-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropTestSchemas();
});

/** The first recorded session: one session id, so one follower sees all of it. */
const LINES = twoSessions().slice(0, 47);

const targets = [
  { name: 'sqlite', available: true, url: () => `sqlite:${join(dir, 'live.db')}` },
  { name: 'postgres', available: PG, url: freshPostgresUrl },
];

describe('a follower of a session normalized from a live pipe', () => {
  it.concurrent.for(targets)('$name: replay --follow prints each line\'s events before the next line is written', { timeout: 120_000 }, async ({ available, url: makeUrl }, { expect, skip }) => {
    if (!available) skip('PostgreSQL not reachable');
    const url = makeUrl();
    const expected = await recordsAfterEachLine(LINES, 'events');
    const events = expected.records as ToolEvent[];
    const session = events[0]!.sessionId;
    // The store exists (and is migrated) before the follower opens it read-only.
    await (await openStore(url)).close();
    const follower = new LiveCli(['replay', '--store', url, '--session', session, '--to', 'events', '--follow']);
    const writer = new LiveCli(['normalize', '--to', 'events', '--store', url]);
    const reader = await openStore(url, { readOnly: true });
    const late: string[] = [];
    const ahead: string[] = [];
    for (let i = 0; i < LINES.length; i++) {
      writer.write(LINES[i]!);
      const want = expected.afterLine[i]!;
      // What the writer has printed is already committed: stdout never runs ahead of the store.
      expect(await writer.until(() => writer.out.length >= want)).toBe(true);
      const head = await reader.head(session);
      if (head < writer.out.length) ahead.push(`line ${i + 1}: ${writer.out.length} printed, ${head} stored`);
      if (!(await follower.until(() => follower.out.length >= want))) {
        late.push(`line ${i + 1}: ${follower.out.length} of ${want} events`);
        break;
      }
      await sleep(50);
    }
    await reader.close();
    expect(late).toEqual([]);
    expect(ahead).toEqual([]);
    // Everything was followed with the pipe still open; only now does it close.
    expect(follower.out.map((l) => (JSON.parse(l) as ToolEvent).partId)).toEqual(events.map((e) => e.partId));
    writer.end();
    expect((await writer.exited).code).toBe(0);
    follower.proc.kill('SIGINT');
    expect((await follower.exited).code).toBe(130);
  });

  it.concurrent.for(targets)('$name: view --serve --follow streams each line\'s parts into the page before the next line is written', { timeout: 120_000 }, async ({ available, url: makeUrl }, { expect, skip }) => {
    if (!available) skip('PostgreSQL not reachable');
    const url = makeUrl().replace('live.db', 'view.db');
    const expected = await recordsAfterEachLine(LINES, 'events');
    const events = expected.records as ToolEvent[];
    const session = events[0]!.sessionId;
    await (await openStore(url)).close();
    const viewer = new LiveCli(['view', '--store', url, '--session', session, '--serve', '--follow']);
    try {
      expect(await viewer.until(() => viewer.err.some((l) => l.includes('serving http://127.0.0.1:')))).toBe(true);
      const page = /serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(viewer.err.join('\n'))![1]!;
      // The page's own event stream (server-sent events), read as the page reads it.
      const shown = new Set<string>();
      const stream = new AbortController();
      const res = await fetch(`${page}events`, { signal: stream.signal });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      let wake = () => {};
      const reading = (async () => {
        for (;;) {
          const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (r.done) return;
          buffered += r.value;
          for (let cut = buffered.indexOf('\n\n'); cut >= 0; cut = buffered.indexOf('\n\n')) {
            const data = buffered.slice(0, cut).split('\n').find((l) => l.startsWith('data: '));
            buffered = buffered.slice(cut + 2);
            if (data) for (const p of (JSON.parse(data.slice(6)) as { parts: { ui: { toolCallId: string } }[] }).parts) shown.add(p.ui.toolCallId);
          }
          wake();
        }
      })();
      const until = (done: () => boolean) => new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(done()), 20_000);
        const check = () => { if (done()) { clearTimeout(t); resolve(true); } };
        wake = check;
        check();
      });
      const writer = new LiveCli(['normalize', '--to', 'parts', '--store', url]);
      const late: string[] = [];
      for (let i = 0; i < LINES.length; i++) {
        writer.write(LINES[i]!);
        const parts = new Set(events.slice(0, expected.afterLine[i]!).map((e) => e.partId));
        if (!(await until(() => [...parts].every((id) => shown.has(id))))) {
          late.push(`line ${i + 1}: ${[...parts].filter((id) => !shown.has(id)).join(', ')} not shown`);
          break;
        }
        await sleep(50);
      }
      expect(late).toEqual([]);
      expect(shown.size).toBe(new Set(events.map((e) => e.partId)).size);
      writer.end();
      expect((await writer.exited).code).toBe(0);
      stream.abort();
      await reading;
    } finally {
      viewer.proc.kill('SIGINT');
    }
    expect((await viewer.exited).code).toBe(130);
  });
});
