// Issue 30, stop signals: SIGINT, SIGTERM or SIGHUP while normalize reads a live pipe finishes the
// line being read, prints every part produced so far (those still open with their last state),
// commits the store's pending batch, prints the summary and exits 130, 143 or 129. Checked against
// what the pipeline itself produces for the lines read before the signal: the output is exactly
// those parts, and the store holds exactly those events (SQLite, and PostgreSQL when reachable).
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { watchInterrupts } from '../../src/cli/interrupts.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { recordingBody } from '../../src/store/conflict.js';
import { openStore } from '../../src/store/open.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable } from '../store/pg.js';
import { LiveCli, recordsAfterEachLine, twoSessions } from './live-cli.js';

const PG = await postgresAvailable();
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-signals-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropTestSchemas();
});

const LINES = twoSessions();
/**
 * Stopped in the middle of the second session: parts of both are done, some are still open. The
 * last line before the signal prints a part, so its arrival says the child has read every line.
 */
const ALL_PARTS = await recordsAfterEachLine(LINES, 'parts');
const BEFORE_SIGNAL = ALL_PARTS.afterLine.findIndex((n, i) => i >= 70 && n > ALL_PARTS.afterLine[i - 1]!) + 1;
const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
let n = 0;
const STORES = [
  { name: 'no store', available: true, url: () => undefined },
  { name: 'sqlite', available: true, url: () => `sqlite:${join(dir, `s${n++}.db`)}` },
  { name: 'postgres', available: PG, url: freshPostgresUrl },
];

const cases = STORES.flatMap((s) => (Object.keys(CODES) as (keyof typeof CODES)[]).map((signal) => ({ ...s, signal })));

describe('a stop signal mid-stream', () => {
  it.concurrent.for(cases)('$signal with $name: every part so far is printed and stored, the summary too, exit code', { timeout: 120_000 }, async ({ signal, available, url: makeUrl }, { expect, skip }) => {
    if (!available) skip('PostgreSQL not reachable');
    const url = makeUrl();
    const prefix = LINES.slice(0, BEFORE_SIGNAL);
    const parts = await recordsAfterEachLine(prefix, 'parts');
    const events = (await recordsAfterEachLine(prefix, 'events')).records as ToolEvent[];
    // Parts still open when the signal comes: they must be printed all the same.
    expect((parts.records as { state: string }[]).some((p) => p.state === 'started' || p.state === 'running')).toBe(true);
    expect(parts.afterLine[BEFORE_SIGNAL - 1]).toBeGreaterThan(parts.afterLine[BEFORE_SIGNAL - 2]!);
    const cli = new LiveCli(['normalize', '--to', 'parts', '--summary', ...(url ? ['--store', url] : [])]);
    for (let i = 0; i < prefix.length; i++) {
      cli.write(prefix[i]!);
      expect(await cli.until(() => cli.out.length >= parts.afterLine[i]!)).toBe(true);
    }
    cli.proc.kill(signal);
    const exit = await cli.exited;
    expect(exit.code, cli.err.join('\n')).toBe(CODES[signal]);
    expect(cli.out.map((l) => JSON.parse(l))).toEqual(parts.records);
    const summary = JSON.parse(cli.err.at(-1)!) as { inputLines: number; parts: number; events: number };
    expect(summary).toMatchObject({ inputLines: BEFORE_SIGNAL, parts: parts.total, events: events.length });
    if (url) {
      const store = await openStore(url, { readOnly: true });
      try {
        const stored: ToolEvent[] = [];
        for (const info of await store.sessions()) for await (const e of store.read(info.sessionId)) stored.push(e);
        const key = (e: ToolEvent) => recordingBody(e);
        expect(stored.map(key).sort()).toEqual(events.map(key).sort());
      } finally {
        await store.close();
      }
    }
  });
});

describe('view from a pipe that stays open', () => {
  it('SIGINT writes the page with what was read and exits 130, without waiting for the pipe to close', async () => {
    const page = join(dir, 'live.html');
    const view = new LiveCli(['view', '-o', page, '-']);
    const lines = LINES.slice(0, 47);
    for (const l of lines) view.write(l);
    // Started and reading (nothing is observable before the page is written, so a pause, not an assertion).
    await new Promise((r) => setTimeout(r, 2000));
    view.proc.kill('SIGINT');
    let ended = false;
    void view.exited.then(() => { ended = true; });
    expect(await view.until(() => ended)).toBe(true);
    expect((await view.exited).code).toBe(130);
    const wrote = /^toolnorm view: wrote .*live\.html \((\d+) parts/.exec(view.err.join('\n'));
    expect(wrote, view.err.join('\n')).not.toBeNull();
    expect(Number(wrote![1])).toBeLessThanOrEqual(18);
    expect(readFileSync(page, 'utf8')).toMatch(/^<!doctype html>/i);
    // The pipe was never closed by the test: the signal, not the end of input, ended the run.
    expect(view.proc.stdin.writableEnded).toBe(false);
  });
});

describe('watchInterrupts', () => {
  it('the first signal aborts and sets the exit code; a second one exits at once with its own', () => {
    const exits: number[] = [];
    const interrupts = watchInterrupts((code) => exits.push(code));
    try {
      expect(interrupts.exitCode(0)).toBe(0);
      process.emit('SIGHUP');
      expect(interrupts.signal.aborted).toBe(true);
      expect(interrupts.exitCode(0)).toBe(129);
      expect(exits).toEqual([]);
      process.emit('SIGTERM');
      expect(exits).toEqual([143]);
    } finally {
      interrupts.dispose();
    }
    // Disposed: the handlers are gone (a listener left behind would swallow the next Ctrl-C).
    expect(process.listenerCount('SIGINT')).toBe(0);
  });
});
