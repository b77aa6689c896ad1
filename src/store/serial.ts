// How the durable stores turn events into rows and back. The stored text is the event exactly as
// appended minus `seq`: the seq lives in its own column, is the only authority on position, and is
// put back on read, so a replayed event deep-equals the appended one with its seq.
import type { ToolEvent } from '../contract/index.js';
import type { StoredEvent } from './types.js';

export interface EventRow {
  type: string;
  partId: string;
  /** Null when the event carries no time. */
  at: number | null;
  body: string;
}

export function eventRow(e: ToolEvent): EventRow {
  let body: string;
  if (e.seq === undefined) body = JSON.stringify(e);
  else {
    // A seq from elsewhere (another store, an export) is not this stream's position.
    const { seq: _seq, ...rest } = e;
    body = JSON.stringify(rest);
  }
  return { type: e.type, partId: e.partId, at: e.at ?? null, body };
}

export function storedEvent(body: string, seq: number): StoredEvent {
  const e = JSON.parse(body) as StoredEvent;
  e.seq = seq;
  return e;
}

/** The first and last time a batch's events carry, for the session list (null when none has one). */
export function batchTimes(rows: readonly EventRow[]): { firstAt: number | null; lastAt: number | null } {
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  for (const r of rows) {
    if (r.at === null) continue;
    firstAt ??= r.at;
    lastAt = r.at;
  }
  return { firstAt, lastAt };
}

/** A read found fewer rows than the stream head promises: never hand back a stream with a hole. */
export class StoreCorruptionError extends Error {
  constructor(readonly sessionId: string, readonly missingSeq: number, where: string) {
    super(`session ${sessionId} in ${where} is missing event seq ${missingSeq} although its head is past it; the store was modified outside toolnorm or is damaged`);
    this.name = 'StoreCorruptionError';
  }
}

/** An expected seq that no stream head can equal (negative, fractional, NaN). */
export function checkExpectedSeq(expectedSeq: number): boolean {
  return Number.isSafeInteger(expectedSeq) && expectedSeq >= 0;
}
