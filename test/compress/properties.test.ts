// Property tests (fast-check, 10k cases each) over random text with emoji, CJK, combining marks,
// ANSI sequences, CRLF, lone surrogates and empty input, checked against independent references.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { OutputCompressionSpec } from '../../src/contract/index.js';
import { CompressionStream, compressText, type TextCompression } from '../../src/compress/index.js';
import { sha256 } from './reference.js';
import { checkInvariants } from './invariants.js';
import { spec, text } from './arbitraries.js';

const RUNS = 10_000;

function streamed(original: string, s: OutputCompressionSpec, cuts: number[]): TextCompression {
  const buf = Buffer.from(original, 'utf8');
  const engine = new CompressionStream(s);
  const points = [...new Set(cuts.map((c) => Math.floor(c * buf.length)))].sort((a, b) => a - b);
  let at = 0;
  // Chunks that split code points, CRLF pairs and escape sequences, through one reused buffer.
  const scratch = Buffer.alloc(buf.length);
  for (const p of [...points, buf.length]) {
    if (p <= at) continue;
    const n = buf.copy(scratch, 0, at, p);
    engine.write(scratch.subarray(0, n));
    scratch.fill(0x2a, 0, n);
    at = p;
  }
  return engine.end();
}

describe('compressText properties', () => {
  it(`keeps every invariant on random text (${RUNS} cases)`, () => {
    fc.assert(fc.property(text, spec, (t, s) => checkInvariants(t, s, compressText(t, s))), { numRuns: RUNS });
  });

  it(`gives the same bytes and stats when the text is streamed in arbitrary chunks (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(text, spec, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (t, s, cuts) => {
        const whole = compressText(t, s);
        const r = streamed(t, s, cuts);
        expect(Buffer.from(r.text, 'utf8').equals(Buffer.from(whole.text, 'utf8'))).toBe(true);
        expect(r.stats).toEqual(whole.stats);
        expect(r.sha256).toBe(whole.sha256);
        expect(r.addedBytes).toBe(whole.addedBytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('handles the empty input under every strategy', () => {
    fc.assert(fc.property(spec, (s) => {
      const r = compressText('', s);
      expect(r.compressed).toBe(false);
      expect(r.text).toBe('');
      expect(r.stats).toMatchObject({ originalBytes: 0, originalLines: 0, keptBytes: 0, omittedBytes: 0, strategy: 'none' });
      expect(r.sha256).toBe(sha256(''));
    }), { numRuns: 200 });
  });
});
