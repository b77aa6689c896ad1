// Streaming `collapse_repeats`: a run of identical consecutive lines becomes the line once with a
// ` ×N` count before its line ending. Lines are compared byte for byte (line ending included);
// a line longer than `maxLineBytes` is streamed through uncompared, so memory stays bounded.
import { CR, NL } from './bytes.js';
import type { Emit } from './ansi.js';

export const COLLAPSE_MAX_LINE_BYTES = 64 * 1024;

export class CollapseRepeatsFilter {
  readonly name = 'collapse_repeats';
  /** Original lines folded into a previous identical line. */
  collapsedLines = 0;
  private cur: Buffer[] = [];
  private curBytes = 0;
  /** The current line went over the limit (or holds compressor text) and is passed through. */
  private passing = false;
  private run: Buffer | undefined;
  private runOwned = false;
  private runCount = 0;

  constructor(private readonly minRun = 3, private readonly maxLineBytes = COLLAPSE_MAX_LINE_BYTES) {}

  get applied(): boolean {
    return this.collapsedLines > 0;
  }

  /** Adjacent views of one chunk are sent as one piece: most lines are not repeats. */
  private pending: Buffer | undefined;

  private out(emit: Emit): Emit {
    return (buf, added) => {
      const p = this.pending;
      if (!added && p && buf.buffer === p.buffer && buf.byteOffset === p.byteOffset + p.length) {
        this.pending = Buffer.from(p.buffer, p.byteOffset, p.length + buf.length);
        return;
      }
      this.flushPending(emit);
      if (added) emit(buf, true);
      else this.pending = buf;
    };
  }

  private flushPending(emit: Emit): void {
    if (this.pending?.length) emit(this.pending, false);
    this.pending = undefined;
  }

  write(chunk: Buffer, added: boolean, downstream: Emit): void {
    const emit = this.out(downstream);
    this.consume(chunk, added, emit);
    this.flushPending(downstream);
  }

  private consume(chunk: Buffer, added: boolean, emit: Emit): void {
    if (added) {
      // A line holding compressor-written text is never collapsed: pass it through in order.
      this.startPassing(emit);
      emit(chunk, true);
      return;
    }
    let start = 0;
    for (let nl = chunk.indexOf(NL); nl !== -1; nl = chunk.indexOf(NL, start)) {
      this.piece(chunk.subarray(start, nl + 1), emit);
      this.lineEnd(emit);
      start = nl + 1;
    }
    if (start < chunk.length) this.piece(chunk.subarray(start), emit);
    // Never keep a view of the caller's chunk past this call: it may reuse the buffer.
    if (this.cur.length) this.cur = [Buffer.concat(this.cur, this.curBytes)];
    if (this.run && !this.runOwned) {
      this.run = Buffer.from(this.run);
      this.runOwned = true;
    }
  }

  end(downstream: Emit): void {
    const emit = this.out(downstream);
    if (this.curBytes > 0 && !this.passing) this.line(this.take(), emit);
    this.cur = [];
    this.curBytes = 0;
    this.passing = false;
    this.flushRun(emit);
    this.flushPending(downstream);
  }

  private piece(p: Buffer, emit: Emit): void {
    if (p.length === 0) return;
    if (this.passing) {
      emit(p, false);
      return;
    }
    this.cur.push(p);
    this.curBytes += p.length;
    if (this.curBytes > this.maxLineBytes) this.startPassing(emit);
  }

  private startPassing(emit: Emit): void {
    if (this.passing) return;
    this.flushRun(emit);
    for (const p of this.cur) emit(p, false);
    this.cur = [];
    this.curBytes = 0;
    this.passing = true;
  }

  private take(): Buffer {
    const line = this.cur.length === 1 ? this.cur[0]! : Buffer.concat(this.cur, this.curBytes);
    this.cur = [];
    this.curBytes = 0;
    return line;
  }

  private lineEnd(emit: Emit): void {
    if (this.passing) {
      this.passing = false;
      return;
    }
    this.line(this.take(), emit);
  }

  private line(line: Buffer, emit: Emit): void {
    if (this.run && this.run.equals(line)) {
      this.runCount++;
      return;
    }
    this.flushRun(emit);
    this.run = line;
    this.runOwned = false;
    this.runCount = 1;
  }

  private flushRun(emit: Emit): void {
    const run = this.run;
    if (!run) return;
    if (this.runCount >= this.minRun) {
      const eol = run[run.length - 1] !== NL ? 0 : run[run.length - 2] === CR ? 2 : 1;
      emit(run.subarray(0, run.length - eol), false);
      emit(Buffer.from(` ×${this.runCount}`, 'utf8'), true);
      if (eol) emit(run.subarray(run.length - eol), false);
      this.collapsedLines += this.runCount - 1;
    } else {
      for (let i = 0; i < this.runCount; i++) emit(run, false);
    }
    this.run = undefined;
    this.runCount = 0;
  }
}
