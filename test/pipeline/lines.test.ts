// The line reader splits bytes, not text: any chunking gives the same lines, CR before LF is
// dropped, UTF-8 split across chunks decodes whole, and offsets are byte offsets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines, type Line } from '../../src/pipeline/lines.js';

async function collectLines(chunks: (Buffer | string)[]): Promise<Line[]> {
  const out: Line[] = [];
  for await (const l of readLines((async function* () { yield* chunks; })())) out.push(l);
  return out;
}

/** The definition: split on LF, drop one CR before it, byte offset of each line start. */
function expected(text: string): Line[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Line[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length && start === bytes.length) break;
    if (i === bytes.length || bytes[i] === 0x0a) {
      const end = i > start && bytes[i - 1] === 0x0d && i < bytes.length ? i - 1 : i;
      const last = i === bytes.length;
      const stop = last && i > start && bytes[i - 1] === 0x0d ? i - 1 : end;
      out.push({ text: bytes.subarray(start, stop).toString('utf8'), line: out.length + 1, offset: start });
      start = i + 1;
    }
  }
  return out;
}

const text = fc.array(fc.oneof(fc.constantFrom('\n', '\r\n', '\r', 'é', '😀', '{"a":1}', ''), fc.string({ maxLength: 12 })), { maxLength: 30 }).map((xs) => xs.join(''));

describe('readLines', () => {
  it('gives the same lines and byte offsets for any chunking of the bytes (5k cases)', async () => {
    await fc.assert(fc.asyncProperty(text, fc.array(fc.nat(40), { maxLength: 10 }), async (t, cuts) => {
      const bytes = Buffer.from(t, 'utf8');
      const points = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let prev = 0;
      for (const p of [...points, bytes.length]) { if (p > prev) chunks.push(bytes.subarray(prev, p)); prev = p; }
      expect(await collectLines(chunks)).toEqual(expected(t));
    }), { numRuns: 5000 });
  });

  it('reads CRLF files and a last line without a newline', async () => {
    const lines = await collectLines(['{"a":1}\r\n{"b":', '2}\r\nlast']);
    expect(lines).toEqual([
      { text: '{"a":1}', line: 1, offset: 0 },
      { text: '{"b":2}', line: 2, offset: 9 },
      { text: 'last', line: 3, offset: 18 },
    ]);
  });

  it('skips lines over maxLineBytes with their byte size, and reads the rest the same, for any chunking (3k cases)', async () => {
    await fc.assert(fc.asyncProperty(text, fc.array(fc.nat(40), { maxLength: 10 }), fc.integer({ min: 1, max: 12 }), async (t, cuts, max) => {
      const bytes = Buffer.from(t, 'utf8');
      const points = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let prev = 0;
      for (const p of [...points, bytes.length]) { if (p > prev) chunks.push(bytes.subarray(prev, p)); prev = p; }
      const got: Line[] = [];
      for await (const l of readLines((async function* () { yield* chunks; })(), undefined, { maxLineBytes: max })) got.push(l);
      // The definition: the same lines, and one over the limit (its bytes without the LF) comes out empty with its size.
      const want = expected(t).map((l, i, all) => {
        const end = i + 1 < all.length ? all[i + 1]!.offset - 1 : bytes.at(-1) === 0x0a ? bytes.length - 1 : bytes.length;
        const size = end - l.offset;
        return size > max ? { text: '', line: l.line, offset: l.offset, tooLarge: size } : l;
      });
      expect(got).toEqual(want);
    }), { numRuns: 3000 });
  });
});
