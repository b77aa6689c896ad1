// Streams lines out of bytes with their 1-based number and byte offset, without holding more than
// the current line in memory. Splitting happens on bytes, so offsets are exact for any UTF-8.
// A line longer than `maxLineBytes` is never assembled: its bytes are counted as they stream past
// and it comes out as `{ text: '', tooLarge: <bytes> }`, so a 600 MB line costs no memory and the
// lines after it are still read.
import type { Readable } from 'node:stream';

export interface Line {
  text: string;
  line: number;
  offset: number;
  /** Set (to the line's size in bytes, without its LF) when the line was over the limit and skipped; `text` is then empty. */
  tooLarge?: number;
}

/**
 * Read size for input files: 1 MiB chunks instead of the 64 KiB stream default cut the number of
 * thread-pool round trips (time spent idle waiting for the next chunk) sixteenfold on big inputs.
 */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Longest line read by default: 128 MiB. Far above any recorded line (the largest in the corpus
 * carries a tool output of a few MB), and far below what V8 can hold as one string (~512 Mi
 * characters), which is where an unbounded reader used to stop the whole run.
 */
export const DEFAULT_MAX_LINE_BYTES = 128 * 1024 * 1024;

export interface ReadLinesOptions {
  /** Lines longer than this many bytes are skipped and reported with `tooLarge` (default 128 MiB). */
  maxLineBytes?: number;
}

const NL = 0x0a;
const CR = 0x0d;

export async function* readLines(stream: Readable | AsyncIterable<Buffer | string>, onBytes?: (n: number) => void, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of a too-large line seen so far, or -1 when not inside one. */
  let skipped = -1;
  let lineNo = 0;
  let offset = 0;
  const decode = (buf: Buffer, end: number) => {
    const stop = end > 0 && buf[end - 1] === CR ? end - 1 : end;
    return buf.toString('utf8', 0, stop);
  };
  const tooLarge = (size: number): Line => {
    const l: Line = { text: '', line: ++lineNo, offset, tooLarge: size };
    offset += size + 1;
    return l;
  };
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    onBytes?.(buf.length);
    let start = 0;
    let nl = buf.indexOf(NL, start);
    while (nl !== -1) {
      if (skipped >= 0) {
        yield tooLarge(skipped + nl - start);
        skipped = -1;
      } else if (pendingBytes) {
        const size = pendingBytes + nl - start;
        if (size > max) {
          pending = [];
          pendingBytes = 0;
          yield tooLarge(size);
        } else {
          pending.push(buf.subarray(start, nl));
          const lineBuf = Buffer.concat(pending, size);
          pending = [];
          pendingBytes = 0;
          yield { text: decode(lineBuf, lineBuf.length), line: ++lineNo, offset };
          offset += lineBuf.length + 1;
        }
      } else if (nl - start > max) {
        yield tooLarge(nl - start);
      } else {
        // Decoded straight from the chunk: a subarray view per line cost as much as the decoding.
        const stop = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
        yield { text: buf.toString('utf8', start, stop), line: ++lineNo, offset };
        offset += nl - start + 1;
      }
      start = nl + 1;
      nl = buf.indexOf(NL, start);
    }
    if (start < buf.length) {
      if (skipped >= 0) skipped += buf.length - start;
      else if (pendingBytes + buf.length - start > max) {
        // Over the limit before its end is even seen: from here on its bytes are only counted.
        skipped = pendingBytes + buf.length - start;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(buf.subarray(start));
        pendingBytes += buf.length - start;
      }
    }
  }
  if (skipped >= 0) yield tooLarge(skipped);
  else if (pendingBytes) {
    const lineBuf = Buffer.concat(pending, pendingBytes);
    yield { text: decode(lineBuf, lineBuf.length), line: ++lineNo, offset };
  }
}
