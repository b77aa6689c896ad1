// Keeps what a cut can use and nothing more: the first `keepHead` bytes and the last `keepTail`
// bytes of a stream, plus its byte and newline counts. Both windows are copies, so memory is
// bounded by them whatever the stream's length, and callers may reuse their chunk buffers.
import { NL, countNewlines, type Range } from './bytes.js';

export interface Window {
  /** The first min(total, keepHead) bytes. */
  prefix: Buffer;
  /** Compressor-written ranges inside `prefix`. */
  prefixAdded: Range[];
  /** The last min(total, keepTail) bytes. */
  tail: Buffer;
  tailAdded: Range[];
  /** Stream offset of `tail[0]`. */
  tailBase: number;
  total: number;
  newlines: number;
  endsWithNewline: boolean;
}

/** A circular byte buffer holding the last `cap` bytes written; it grows up to `cap` as needed. */
class TailRing {
  private store = Buffer.alloc(0);
  private end = 0;
  private filled = 0;

  constructor(private readonly cap: number) {}

  push(c: Buffer): void {
    const cap = this.cap;
    if (c.length >= cap) {
      if (this.store.length !== cap) this.store = Buffer.allocUnsafe(cap);
      c.copy(this.store, 0, c.length - cap);
      this.end = 0;
      this.filled = cap;
      return;
    }
    if (this.filled + c.length > this.store.length && this.store.length < cap) {
      const size = Math.min(cap, Math.max(this.store.length * 2, this.filled + c.length, 64 * 1024));
      const grown = Buffer.allocUnsafe(size);
      this.contents().copy(grown, 0);
      this.store = grown;
      this.end = this.filled % size;
    }
    let off = 0;
    while (off < c.length) {
      const n = Math.min(c.length - off, this.store.length - this.end);
      c.copy(this.store, this.end, off, off + n);
      this.end = (this.end + n) % this.store.length;
      off += n;
    }
    this.filled = Math.min(this.store.length, this.filled + c.length);
  }

  /** The held bytes in order. */
  contents(): Buffer {
    if (this.filled < this.store.length) return this.store.subarray(this.end - this.filled, this.end);
    return Buffer.concat([this.store.subarray(this.end), this.store.subarray(0, this.end)]);
  }
}

export class Retainer {
  private total = 0;
  private newlines = 0;
  private lastByte = -1;
  private readonly prefix: Buffer[] = [];
  private prefixBytes = 0;
  private readonly prefixAdded: Range[] = [];
  private readonly ring: TailRing;
  /** Compressor-written ranges in stream offsets, pruned once they leave the tail window. */
  private added: Range[] = [];

  constructor(private readonly keepHead: number, private readonly keepTail: number) {
    this.ring = new TailRing(keepTail);
  }

  push(buf: Buffer, added: boolean): void {
    const len = buf.length;
    if (len === 0) return;
    if (added) this.added.push([this.total, this.total + len]);
    this.total += len;
    if (!added) this.newlines += countNewlines(buf);
    this.lastByte = buf[len - 1]!;
    if (this.prefixBytes < this.keepHead) {
      const take = Math.min(len, this.keepHead - this.prefixBytes);
      if (added) this.prefixAdded.push([this.prefixBytes, this.prefixBytes + take]);
      this.prefix.push(Buffer.from(buf.subarray(0, take)));
      this.prefixBytes += take;
    }
    this.ring.push(buf);
    if (added && this.added.length > 4096) {
      const from = this.total - this.keepTail;
      this.added = this.added.filter(([, e]) => e > from);
    }
  }

  finish(): Window {
    const tail = this.ring.contents();
    const tailBase = this.total - tail.length;
    const tailAdded: Range[] = this.added
      .filter(([, e]) => e > tailBase)
      .map(([s, e]) => [Math.max(0, s - tailBase), e - tailBase] as const);
    return {
      prefix: Buffer.concat(this.prefix, this.prefixBytes),
      prefixAdded: [...this.prefixAdded],
      tail,
      tailAdded,
      tailBase,
      total: this.total,
      newlines: this.newlines,
      endsWithNewline: this.lastByte === NL,
    };
  }
}
