// Buffered NDJSON writer that respects backpressure, so a slow consumer slows us instead of
// growing memory. A failed write (a closed pipe, a full disk) is remembered and thrown from the
// next flush as an OutputError, so the command stops reading instead of writing into a dead stream.
import type { Writable } from 'node:stream';
import { OutputError } from './output-errors.js';

export class LineWriter {
  private buf: string[] = [];
  private size = 0;
  private failed: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly out: Writable, private readonly chunkChars = 64 * 1024, private readonly label = 'stdout') {
    out.on('error', (err: Error) => {
      this.failed ??= err;
      this.wake?.();
    });
  }

  json(value: unknown): void {
    this.text(JSON.stringify(value));
  }

  text(line: string): void {
    this.buf.push(line, '\n');
    this.size += line.length + 1;
  }

  get pending(): number {
    return this.size;
  }

  private check(): void {
    if (this.failed) throw new OutputError(this.label, this.failed);
  }

  /** Writes what is buffered; resolves once the stream can take more. */
  async flush(force = false): Promise<void> {
    this.check();
    if (!this.size || (!force && this.size < this.chunkChars)) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await this.drained();
    this.check();
  }

  /** Flushes everything and waits until the stream has taken it (or failed), so a last failed write is not missed. */
  async close(): Promise<void> {
    await this.flush(true);
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      this.out.write('', () => resolve());
    });
    this.wake = undefined;
    this.check();
  }

  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
      this.out.once('drain', done);
    });
  }
}
