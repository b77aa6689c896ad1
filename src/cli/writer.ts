// Buffered NDJSON writer that respects backpressure, so a slow consumer slows us instead of
// growing memory.
import type { Writable } from 'node:stream';

export class LineWriter {
  private buf: string[] = [];
  private size = 0;

  constructor(private readonly out: Writable, private readonly chunkChars = 64 * 1024) {}

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

  /** Writes what is buffered; resolves once the stream can take more. */
  async flush(force = false): Promise<void> {
    if (!this.size || (!force && this.size < this.chunkChars)) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once('drain', resolve));
  }
}
