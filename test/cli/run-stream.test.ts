// runStream, the loop another command (`toolnorm record`) normalizes an agent's stdout with: each
// line's records reach the output, and its events the store, before the next line is written; an
// abort ends the run after the line being handled, with everything so far written and committed.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runStream } from '../../src/cli/normalize-run.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { EventStoreSink } from '../../src/store/sink.js';
import { recordsAfterEachLine, twoSessions } from './live-cli.js';

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
});
