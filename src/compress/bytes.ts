// Byte-level helpers shared by every stage. The engine works on UTF-8 bytes so that budgets are
// exact and a stream never has to be decoded whole; these keep every cut on a code point.
export const NL = 0x0a;
export const CR = 0x0d;

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/**
 * Moves a cut position back to the first byte of the code point it falls in, so `buf[0, i)` ends
 * on a whole character. At most 3 steps: past that the bytes are not UTF-8 and there is nothing
 * to split.
 */
export function boundaryBack(buf: Uint8Array, i: number): number {
  for (let steps = 0; steps < 3 && i > 0 && i < buf.length && isContinuation(buf[i]); steps++) i--;
  return i;
}

/** Moves a cut position forward to the next code point start, so `buf[i, end)` starts on a whole character. */
export function boundaryForward(buf: Uint8Array, i: number): number {
  for (let steps = 0; steps < 3 && i < buf.length && isContinuation(buf[i]); steps++) i++;
  return i;
}

export function countNewlines(buf: Buffer, from = 0, to = buf.length): number {
  let n = 0;
  let i = buf.indexOf(NL, from);
  while (i !== -1 && i < to) {
    n++;
    i = buf.indexOf(NL, i + 1);
  }
  return n;
}

/** Lines as a person counts them: `a\nb` and `a\nb\n` are 2 lines, the empty text 0. */
export function linesFrom(newlines: number, bytes: number, endsWithNewline: boolean): number {
  return newlines + (bytes > 0 && !endsWithNewline ? 1 : 0);
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    n++;
    i = text.indexOf('\n', i + 1);
  }
  return n + (text.endsWith('\n') ? 0 : 1);
}

/** A [start, end) byte range of text the compressor wrote itself (marker, ×N count, JSON note). */
export type Range = readonly [number, number];

export function bytesIn(ranges: readonly Range[], from: number, to: number): number {
  let n = 0;
  for (const [a, b] of ranges) {
    const lo = Math.max(a, from);
    const hi = Math.min(b, to);
    if (hi > lo) n += hi - lo;
  }
  return n;
}
