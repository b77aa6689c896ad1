// A progress bar on stderr for big inputs, only when stderr is a terminal.
import type { Writable } from 'node:stream';

export const PROGRESS_MIN_BYTES = 8 * 1024 * 1024;

export function progressBar(stderr: Writable, totalBytes: number): { add(n: number): void; done(): void } | undefined {
  const tty = (stderr as { isTTY?: boolean }).isTTY;
  if (!tty || totalBytes <= PROGRESS_MIN_BYTES) return undefined;
  let seen = 0;
  let last = 0;
  const started = Date.now();
  const draw = () => {
    const frac = Math.min(1, seen / totalBytes);
    const width = 30;
    const filled = Math.round(frac * width);
    const secs = Math.max(0.001, (Date.now() - started) / 1000);
    stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}%  ${(seen / 1e6 / secs).toFixed(1)} MB/s`);
  };
  return {
    add(n) {
      seen += n;
      const now = Date.now();
      if (now - last > 200) { last = now; draw(); }
    },
    done() { draw(); stderr.write('\n'); },
  };
}
