// Buffered NDJSON writer that respects backpressure, so a slow consumer slows us instead of
// growing memory. A failed write (a closed pipe, a full disk) is remembered and thrown from the
// next flush as an OutputError, so the command stops reading instead of writing into a dead stream.
//
// Lines are encoded straight into one byte buffer as they come, so a flush hands the stream bytes
// it writes as they are: no array of pieces, no joined string, no second UTF-8 conversion inside
// the stream (the joined string and the stream's own conversion were 5% of a `--to acp` run).
import type { Writable } from 'node:stream';
import { OutputError } from './output-errors.js';

/** Bytes of a fresh buffer: above the flush threshold, so a flush usually finds one buffer. */
const BUFFER_BYTES = 256 * 1024;
const NL = 0x0a;

export class LineWriter {
  private buf = Buffer.allocUnsafe(BUFFER_BYTES);
  /** Bytes of `buf` in use. */
  private used = 0;
  /** Filled buffers (or large lines encoded alone) waiting for the next flush, in order. */
  private full: Buffer[] = [];
  private fullBytes = 0;
  private failed: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly out: Writable, private readonly chunkBytes = 64 * 1024, private readonly label = 'stdout') {
    out.on('error', (err: Error) => {
      this.failed ??= err;
      this.wake?.();
    });
  }

  json(value: unknown): void {
    this.text(JSON.stringify(value));
  }

  text(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, 2 units, takes 4).
    const most = line.length * 3 + 1;
    if (this.used + most > this.buf.length) {
      this.retire();
      if (most > this.buf.length) {
        // Encoded alone; its newline starts the fresh buffer, which is written after it.
        const big = Buffer.from(line, 'utf8');
        this.full.push(big);
        this.fullBytes += big.length;
        this.buf[this.used++] = NL;
        return;
      }
    }
    this.used += this.buf.write(line, this.used, 'utf8');
    this.buf[this.used++] = NL;
  }

  /** Bytes buffered and not yet handed to the stream. */
  get pending(): number {
    return this.fullBytes + this.used;
  }

  /** Moves the bytes of the current buffer to `full` and starts a fresh one (`full` holds views of it). */
  private retire(): void {
    if (!this.used) return;
    this.full.push(this.buf.subarray(0, this.used));
    this.fullBytes += this.used;
    this.buf = Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = 0;
  }

  private check(): void {
    if (this.failed) throw new OutputError(this.label, this.failed);
  }

  /** Writes what is buffered; resolves once the stream can take more. */
  async flush(force = false): Promise<void> {
    this.check();
    const size = this.pending;
    if (!size || (!force && size < this.chunkBytes)) return;
    // A copy: the stream may keep the chunk past this call, and the buffer is reused. Copying
    // bytes costs little beside encoding them, and stderr (flushed on every line) then does not
    // allocate a fresh buffer per diagnostic.
    if (this.used) this.full.push(this.buf.subarray(0, this.used));
    const chunk = Buffer.concat(this.full, size);
    this.used = 0;
    this.full = [];
    this.fullBytes = 0;
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
