// One 50 MB line (ASCII, CJK, emoji with ZWJ, ANSI colours, a CR; no newline): every invariant
// under random specs, the default specs, and the same bytes streamed in 64 KiB chunks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CompressionStep, OutputCompressionSpec } from '../../src/contract/index.js';
import { CLAUDE_BASH_SPEC, CODEX_SPEC, CompressionStream, compressText } from '../../src/compress/index.js';
import { checkInvariants, factsOf } from './invariants.js';

const UNIT = 'plain words 0123 日本語のテキスト 🙂👨‍👩‍👧 \x1b[32mgreen\x1b[0m \x1b]8;;https://x.test/\x07link\x1b]8;;\x07 é\u0301 \r';
const TARGET = 50 * 1024 * 1024;
const LINE = UNIT.repeat(Math.ceil(TARGET / Buffer.byteLength(UNIT, 'utf8')));
const FACTS = factsOf(LINE);

describe('one 50 MB line', () => {
  it('is one line of at least 50 MB', () => {
    expect(FACTS.lines).toBe(1);
    expect(FACTS.bytes).toBeGreaterThanOrEqual(TARGET);
  });

  it('keeps every invariant under the default specs', () => {
    for (const spec of [CLAUDE_BASH_SPEC, CODEX_SPEC]) {
      const r = compressText(LINE, spec);
      checkInvariants(LINE, spec, r, FACTS);
      expect(r.exactSlices).toBe(true);
      // A single line is cut in the middle: both ends shown, halves within a marker's width.
      expect(r.head.length).toBeGreaterThan(0);
      expect(r.tail.length).toBeGreaterThan(0);
      expect(Math.abs(Buffer.byteLength(r.head) - Buffer.byteLength(r.tail))).toBeLessThan(2100);
      expect(r.stats.omittedLines).toBe(0);
    }
  });

  it('keeps every invariant under random budgets and cuts', () => {
    const cut = fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }).map((headRatio): CompressionStep => ({ type: 'head_tail', headRatio })),
      fc.constant<CompressionStep>({ type: 'head' }),
      fc.constant<CompressionStep>({ type: 'tail' }),
    );
    const spec = fc.record({
      maxBytes: fc.integer({ min: 1, max: 200_000 }),
      maxLines: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      cut,
    }).map(({ maxBytes, maxLines, cut }): OutputCompressionSpec => ({ id: 'big', budget: { maxBytes, ...(maxLines ? { maxLines } : {}) }, strategy: [cut] }));
    fc.assert(fc.property(spec, (s) => checkInvariants(LINE, s, compressText(LINE, s), FACTS)), { numRuns: 12 });
  });

  it('gives the same result streamed in 64 KiB chunks, with ansi_strip too', () => {
    const buf = Buffer.from(LINE, 'utf8');
    for (const spec of [CODEX_SPEC, { id: 'strip', budget: { maxBytes: 4096 }, strategy: [{ type: 'ansi_strip' }, { type: 'head_tail', headRatio: 0.25 }] } satisfies OutputCompressionSpec]) {
      const engine = new CompressionStream(spec);
      for (let i = 0; i < buf.length; i += 65_536) engine.write(buf.subarray(i, i + 65_536));
      const streamed = engine.end();
      const whole = compressText(LINE, spec);
      expect(streamed.text).toBe(whole.text);
      expect(streamed.stats).toEqual(whole.stats);
      expect(streamed.sha256).toBe(FACTS.sha256);
      expect(whole.stats.keptBytes).toBeLessThanOrEqual(spec.budget.maxBytes ?? 40_000);
    }
  });
});
