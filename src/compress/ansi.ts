// ANSI/ECMA-48 escape sequences: where one ends, stripping them from a stream, and keeping cuts
// out of them. Sequences are bounded (MAX_ESCAPE) so a stray ESC can never make the compressor
// hold an unbounded amount of text.
import { NL } from './bytes.js';

export const ESC = 0x1b;
/** Longest sequence recognised; OSC 8 hyperlinks carry URLs, so this is generous. */
export const MAX_ESCAPE = 2048;
/** The buffer ended before the sequence did; more bytes may complete it. */
export const INCOMPLETE = -1;
/** SGR reset, put before a marker when the kept head leaves a colour or style switched on. */
export const SGR_RESET = '\u001b[0m';

const inRange = (b: number | undefined, lo: number, hi: number) => b !== undefined && b >= lo && b <= hi;
const STRING_INTRODUCERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]); // ] P X ^ _  (OSC, DCS, SOS, PM, APC)

/**
 * End (exclusive) of the escape sequence that starts with the ESC at `buf[i]`. A malformed or
 * over-long sequence is a lone ESC (`i + 1`). INCOMPLETE when `end` comes first; callers that hold
 * the whole text treat that as a lone ESC too.
 */
export function escapeEnd(buf: Uint8Array, i: number, end = buf.length): number {
  const lone = i + 1;
  const j = i + 1;
  if (j >= end) return INCOMPLETE;
  const b = buf[j]!;
  let k = j + 1;
  if (b === 0x5b) {
    // CSI: parameters, intermediates, one final byte.
    while (k < end && inRange(buf[k], 0x30, 0x3f)) k++;
    while (k < end && inRange(buf[k], 0x20, 0x2f)) k++;
    if (k - i >= MAX_ESCAPE) return lone;
    if (k >= end) return INCOMPLETE;
    return inRange(buf[k], 0x40, 0x7e) ? k + 1 : lone;
  }
  if (STRING_INTRODUCERS.has(b)) {
    // String sequences end with BEL or ST (ESC \); a newline means it was never a sequence.
    for (; ; k++) {
      if (k - i >= MAX_ESCAPE) return lone;
      if (k >= end) return INCOMPLETE;
      const c = buf[k]!;
      if (c === 0x07) return k + 1;
      if (c === NL) return lone;
      if (c === ESC) {
        if (k + 1 >= end) return INCOMPLETE;
        return buf[k + 1] === 0x5c ? k + 2 : lone;
      }
    }
  }
  if (inRange(b, 0x20, 0x2f)) {
    k = j;
    while (k < end && inRange(buf[k], 0x20, 0x2f)) k++;
    if (k - i >= MAX_ESCAPE) return lone;
    if (k >= end) return INCOMPLETE;
    return inRange(buf[k], 0x30, 0x7e) ? k + 1 : lone;
  }
  return inRange(b, 0x30, 0x7e) ? j + 1 : lone;
}

/** The end of a sequence for a caller that holds everything there is: incomplete means lone. */
const settledEnd = (buf: Uint8Array, i: number) => {
  const e = escapeEnd(buf, i);
  return e === INCOMPLETE ? i + 1 : e;
};

/**
 * Moves a head cut `[0, h)` back so it does not end inside an escape sequence. `buf` must hold at
 * least MAX_ESCAPE bytes past `h`, or the rest of the text.
 */
export function escapeSafeBack(buf: Uint8Array, h: number): number {
  for (let e = Math.max(0, h - MAX_ESCAPE); e < h; e++) {
    if (buf[e] === ESC && settledEnd(buf, e) > h) return e;
  }
  return h;
}

/** Moves a tail start `[t, end)` forward past any escape sequence it would start inside. */
export function escapeSafeForward(buf: Uint8Array, t: number): number {
  let safe = t;
  for (let e = Math.max(0, t - MAX_ESCAPE); e < t; e++) {
    if (buf[e] === ESC) safe = Math.max(safe, settledEnd(buf, e));
  }
  return Math.min(safe, buf.length);
}

/** Whether the text leaves an SGR style on at its end (its last SGR sequence is not a reset). */
export function leavesStyleOn(buf: Buffer): boolean {
  let open = false;
  for (let i = buf.indexOf(ESC); i !== -1; i = buf.indexOf(ESC, i + 1)) {
    if (buf[i + 1] !== 0x5b) continue;
    const e = settledEnd(buf, i);
    if (buf[e - 1] !== 0x6d) continue; // 'm'
    const params = buf.toString('latin1', i + 2, e - 1);
    open = !/^[0;]*$/.test(params);
  }
  return open;
}

export type Emit = (buf: Buffer, added: boolean) => void;

/** Streaming `ansi_strip`: removes escape sequences, even when one spans two chunks. */
export class AnsiStripFilter {
  readonly name = 'ansi_strip';
  private carry: Buffer | undefined;
  stripped = 0;

  get applied(): boolean {
    return this.stripped > 0;
  }

  write(chunk: Buffer, added: boolean, emit: Emit): void {
    if (added) {
      // Text the compressor wrote is never stripped; a pending partial sequence ends here.
      this.flush(emit);
      emit(chunk, true);
      return;
    }
    this.scan(this.carry ? Buffer.concat([this.carry, chunk]) : chunk, false, emit);
  }

  end(emit: Emit): void {
    this.flush(emit);
  }

  private flush(emit: Emit): void {
    if (this.carry) this.scan(this.carry, true, emit);
  }

  private scan(buf: Buffer, final: boolean, emit: Emit): void {
    this.carry = undefined;
    let e = buf.indexOf(ESC);
    if (e === -1) {
      emit(buf, false);
      return;
    }
    // The kept bytes are gathered into one buffer, so a chunk full of colour codes is one emit.
    const out = Buffer.allocUnsafe(buf.length);
    let n = 0;
    let pos = 0;
    for (; e !== -1; e = buf.indexOf(ESC, pos)) {
      n += buf.copy(out, n, pos, e);
      let end = escapeEnd(buf, e);
      if (end === INCOMPLETE) {
        if (!final) {
          this.carry = Buffer.from(buf.subarray(e));
          pos = buf.length;
          break;
        }
        end = e + 1;
      }
      this.stripped += end - e;
      pos = end;
    }
    n += buf.copy(out, n, pos);
    if (n > 0) emit(out.subarray(0, n), false);
  }
}
