// runStream, the loop another command (`toolnorm record`) normalizes an agent's stdout with: each
// line's records reach the output, and its events the store, before the next line is written; an
// abort ends the run after the line being handled, with everything so far written and committed.
import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStream } from '../../src/cli/normalize-run.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { EventStoreSink } from '../../src/store/sink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { recordsAfterEachLine, twoSessions } from './live-cli.js';
import { cli } from '../helpers/cli.js';

const LINES = twoSessions().slice(0, 47);

function collect(stream: PassThrough): string[] {
  const lines: string[] = [];
  let rest = '';
  stream.on('data', (c) => {
    const parts = (rest + String(c)).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
  });
  return lines;
}

/** Resolves once `done()` holds; checked after each turn of the event loop (bounded, so a miss fails). */
async function until(done: () => boolean, turns = 2000): Promise<boolean> {
  for (let i = 0; i < turns && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  return done();
}

describe('runStream', () => {
  it('writes each line\'s records and commits its events before the next line comes; an abort stops after the current line', async () => {
    const expected = await recordsAfterEachLine(LINES, 'events');
    const input = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    collect(stderr);
    const memory = new MemoryEventStore();
    const store = new EventStoreSink(memory, 'memory:');
    const stop = new AbortController();
    const run = runStream({ name: 'agent', stream: input, to: 'events', stdout, stderr, command: 'record', store, signal: stop.signal });
    const session = (expected.records[0] as { sessionId: string }).sessionId;
    const upTo = 30;
    for (let i = 0; i < upTo; i++) {
      input.write(`${LINES[i]}\n`);
      expect(await until(() => out.length >= expected.afterLine[i]!), `line ${i + 1}`).toBe(true);
      // Committed before it was printed.
      expect(await memory.head(session)).toBeGreaterThanOrEqual(out.length);
    }
    stop.abort();
    const r = await run;
    expect(r.stopped).toBe(true);
    expect(r.summary.inputLines).toBe(upTo);
    expect(out).toHaveLength(expected.afterLine[upTo - 1]!);
    expect(await memory.head(session)).toBe(out.length);
    // The input was let go, not read to its end.
    expect(input.destroyed).toBe(true);
  });

  it('record\'s rule in the same loop (liveSniff): told at the first clear line, and a format_disagreement when the first lines together read otherwise; control: normalize\'s rule reads the same stream one way and reports nothing', async () => {
    const root = join(import.meta.dirname, '../..');
    const codex = readFileSync(join(root, 'fixtures/codex/exec-tools-plan/exec-tools-plan.jsonl'), 'utf8').split('\n').slice(0, 2);
    const claude = readFileSync(join(root, 'fixtures/demo/claude-streamjson-all-tools.jsonl'), 'utf8').split('\n')[0]!;
    const run = async (liveSniff: boolean) => {
      const input = new PassThrough();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      collect(stdout);
      const err = collect(stderr);
      const done = runStream({ name: 'agent.jsonl', stream: input, live: true, to: 'events', stdout, stderr, command: 'record', liveSniff, holdFinal: liveSniff });
      // Line by line, with a pause after each: a live agent.
      for (const l of [...codex, claude]) {
        input.write(`${l}\n`);
        await new Promise((r) => setTimeout(r, 20));
      }
      input.end();
      const r = await done;
      return { r, codes: err.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { code: string; message: string }) };
    };
    const live = await run(true);
    const disagreement = live.codes.find((d) => d.code === 'format_disagreement');
    expect(disagreement?.message).toContain('record read agent.jsonl as codex from its first clear line, but its first lines taken together read as claude');
    expect(live.r.summary.inputLines).toBe(3);
    const plain = await run(false);
    expect(plain.codes.map((d) => d.code)).not.toContain('format_disagreement');
    expect(plain.r.summary.inputLines).toBe(3);
  });

  it('record --from opencode reads the files beside the raw recording before the adapter is made (its own loop configured the made adapter, and stopped normalizing)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-record-opencode-'));
    try {
      const r = await cli(['record', '--raw', 'raw.jsonl', '--from', 'opencode', '--summary', '--', process.execPath, '-e', 'console.log(JSON.stringify({ type: "step_start" }))'], { cwd: dir });
      expect(r.stderr).not.toMatch(/normalizing stopped|already made/);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ inputLines: 1, invalidEvents: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
