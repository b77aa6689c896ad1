// Hard Invariant #6: compression only adds a derived event. Through the store and repository the
// full output stays retrievable and byte-identical, while the compressed view is what is shown.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isToolEvent, type OutputCompressionSpec, type ToolEvent } from '../../src/contract/index.js';
import { DeclarativeCompressor, compressSession } from '../../src/compress/index.js';
import { sideLimit } from '../../src/compress/compressor.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { ToolRepository } from '../../src/events/repository.js';
import { budget, text } from './arbitraries.js';
import { sha256 } from './reference.js';

const RUNS = 10_000;
const SID = 'session-1';
const PID = 'call-1';

const started = (at = 1): ToolEvent => ({ type: 'tool.started', sessionId: SID, partId: PID, at, source: { provider: 'claude' }, name: 'Bash', kind: 'bash', title: 'Run ls', input: { command: 'ls' } });
const completed = (output: unknown, at = 2): ToolEvent => ({ type: 'tool.completed', sessionId: SID, partId: PID, at, source: { provider: 'claude' }, output, metadata: { exitCode: 0 } });

/** A part output in one of the shapes adapters produce: plain text, or {text, …} with extras. */
const output = fc.oneof(
  text,
  fc.tuple(text, fc.boolean()).map(([t, withContent]) => ({
    text: t,
    structured: { stdout: t, stderr: '', interrupted: false },
    ...(withContent ? { content: [{ type: 'image', mediaType: 'image/png', bytes: 10, sha256: '0'.repeat(64) }] } : {}),
  })),
);

const textOf = (o: unknown) => (typeof o === 'string' ? o : (o as { text: string }).text);

describe('the original is kept', () => {
  it(`stays retrievable and byte-identical through the repository (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(output, budget, fc.double({ min: 0, max: 1, noNaN: true }), async (out, b, headRatio) => {
        const spec: OutputCompressionSpec = { id: 'bash', match: { providers: ['claude'], kinds: ['bash'] }, budget: b, strategy: [{ type: 'head_tail', headRatio }] };
        const compressor = new DeclarativeCompressor([spec]);
        const store = new MemoryEventStore();
        const original = [started(), completed(out)];
        await store.append(SID, original, 0);
        const derived = await compressSession(store, SID, compressor);
        const repo = new ToolRepository(store);

        // The full view: deep-equal and byte-identical to what was appended.
        const full = await repo.part(SID, PID);
        expect(full?.state).toBe('complete');
        const fullOut = (full as { output: unknown }).output;
        expect(fullOut).toEqual(out);
        expect(Buffer.from(textOf(fullOut), 'utf8').equals(Buffer.from(textOf(out), 'utf8'))).toBe(true);
        // The stored completed event itself is untouched.
        const stored = [];
        for await (const e of store.read(SID)) stored.push(e);
        expect(stored[1]).toEqual({ ...original[1], seq: 2 });

        if (derived.length === 0) {
          expect(stored).toHaveLength(2);
          expect(full?.metadata?.compression).toBeUndefined();
          return;
        }
        const [event] = derived;
        expect(isToolEvent(event)).toBe(true);
        expect(stored).toHaveLength(3);
        expect(event!.compression.original).toEqual({ partId: PID, seq: 2, sha256: sha256(textOf(out)) });
        // The compressed view shows the summary and says where the original is.
        const shown = await repo.part(SID, PID, { output: 'compressed' });
        expect((shown as { output: unknown }).output).toEqual(event!.output);
        expect(shown?.metadata?.compression).toEqual(event!.compression);
        expect(full?.metadata?.compression).toEqual(event!.compression);
        // A {text,…} output keeps every other field that fits sideLimit (1 KiB or the budget); a larger one keeps
        // its small members, and the rest are size markers (the full value is in the original).
        if (typeof out !== 'string') {
          const shownOut = event!.output as Record<string, unknown>;
          expect(Object.keys(shownOut)).toEqual(Object.keys(out));
          for (const [k, v] of Object.entries(out)) {
            if (k === 'text') continue;
            if (typeof v !== 'object' || Buffer.byteLength(JSON.stringify(v)) <= sideLimit(spec)) expect(shownOut[k]).toEqual(v);
            else if (k === 'structured') {
              for (const [m, x] of Object.entries(v as Record<string, unknown>)) {
                const kept = (shownOut[k] as Record<string, unknown>)[m];
                if (typeof x !== 'string' || Buffer.byteLength(JSON.stringify(x)) <= sideLimit(spec)) expect(kept).toEqual(x);
                else expect(kept).toMatch(/^\[omitted by toolnorm: \d+ bytes; the full value is in the original event\]$/);
              }
            }
          }
        }
        // Compressing again adds nothing: the part already has its summary.
        expect(await compressSession(store, SID, compressor)).toHaveLength(0);
      }),
      { numRuns: RUNS },
    );
  });
});
