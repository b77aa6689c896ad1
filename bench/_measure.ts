// Timing helpers: interleaved runs and medians, so a noisy shared machine hurts both sides alike.
import { closeSync, createWriteStream, mkdirSync, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import { dirname } from 'node:path';
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs each named function once to warm up, then `rounds` times interleaved; milliseconds of every round per name. */
export function interleavedRounds(fns: Record<string, () => void>, rounds = 5): Record<string, number[]> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const fn of Object.values(fns)) fn(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t0 = process.hrtime.bigint();
      fn();
      times[name]!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return times;
}

/** The same, reduced to the median milliseconds per name. */
export function interleaved(fns: Record<string, () => void>, rounds = 5): Record<string, number> {
  return Object.fromEntries(Object.entries(interleavedRounds(fns, rounds)).map(([k, v]) => [k, median(v)]));
}

export const mb = (bytes: number) => bytes / 1e6;
export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Offset of the last newline within the first `bytes` of `file`: a warm-up pass reads up to it. */
export function warmupEnd(file: string, bytes: number): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(bytes);
  const n = readSync(fd, buf, 0, bytes, 0);
  closeSync(fd);
  return buf.subarray(0, n).lastIndexOf(0x0a);
}

/**
 * Writes copy 0, 1, 2… of a benchmark input to `file` (each copy as chunks, streamed with
 * backpressure) until `enough(bytesSoFar, copiesSoFar)`; returns the bytes written.
 */
export async function writeCopies(file: string, copy: (k: number) => Iterable<string>, enough: (bytes: number, copies: number) => boolean): Promise<number> {
  mkdirSync(dirname(file), { recursive: true });
  const out = createWriteStream(file);
  let bytes = 0;
  for (let k = 0; !enough(bytes, k); k++) {
    for (const chunk of copy(k)) {
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
