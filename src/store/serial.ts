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

/**
 * The event a stored row holds. Rows are not validated against the schema again: every event was
 * validated by append before it was written, and a store opens only when its schema_version table
 * says toolnorm made it, so a full validation here would re-check what toolnorm itself wrote, at
 * the cost of half a replay. What can still be wrong is a row changed outside toolnorm or damaged:
 * text that is not JSON or not an event of this session is reported as corruption at its seq,
 * never handed to a reducer.
 */
export function storedEvent(body: string, seq: number, sessionId: string, where: string): StoredEvent {
  let e: StoredEvent;
  try {
    e = JSON.parse(body) as StoredEvent;
  } catch (err) {
    throw new StoreCorruptionError(sessionId, seq, where, `its stored text is not JSON (${(err as Error).message})`);
  }
  if (typeof e !== 'object' || e === null || typeof e.type !== 'string' || typeof e.partId !== 'string' || e.sessionId !== sessionId || typeof e.source !== 'object' || e.source === null) {
    throw new StoreCorruptionError(sessionId, seq, where, `its stored text is not a toolnorm event of this session (${body.slice(0, 80)})`);
  }
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

/**
 * A read found a row missing (fewer rows than the stream head promises) or unreadable: never hand
 * back a stream with a hole or a made-up event.
 */
export class StoreCorruptionError extends Error {
  constructor(readonly sessionId: string, readonly seq: number, where: string, problem?: string) {
    super(problem
      ? `session ${sessionId} in ${where} has a damaged event at seq ${seq}: ${problem}; the store was modified outside toolnorm or is damaged`
      : `session ${sessionId} in ${where} is missing event seq ${seq} although its head is past it; the store was modified outside toolnorm or is damaged`);
    this.name = 'StoreCorruptionError';
  }

  /** The seq that is missing or damaged (the name from when only missing rows were detected). */
  get missingSeq(): number {
    return this.seq;
  }
}

/** An expected seq that no stream head can equal (negative, fractional, NaN). */
export function checkExpectedSeq(expectedSeq: number): boolean {
  return Number.isSafeInteger(expectedSeq) && expectedSeq >= 0;
}
