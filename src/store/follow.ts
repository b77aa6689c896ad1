// Following a live session: read from a seq, and when the stream is drained wait for the next
// append. PostgreSQL wakes followers with LISTEN/NOTIFY, SQLite polls its head; any other store
// is polled through `head()`. A missed wake-up costs at most one poll interval, never an event:
// every round re-reads from the last seq seen.
import type { EventStore, StoredEvent } from './types.js';

/** A store that can wait for its next append (PostgreSQL: NOTIFY; SQLite: a cheap head poll). */
export interface AppendWaiter {
  waitForAppend(sessionId: string, afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;
}

export interface FollowOptions {
  /** First seq to return (default 1). */
  fromSeq?: number;
  /** Stops the follow (the iteration ends normally). */
  signal?: AbortSignal;
  /** Longest wait between two checks of the head (default 1000 ms). */
  pollMs?: number;
  /** Ends the follow once this seq has been returned. */
  untilSeq?: number;
}

const canWait = (s: EventStore): s is EventStore & AppendWaiter => typeof (s as Partial<AppendWaiter>).waitForAppend === 'function';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });

/** Every event of the session from `fromSeq` on, in order, including those appended while following. */
export async function* followSession(store: EventStore, sessionId: string, options: FollowOptions = {}): AsyncIterable<StoredEvent> {
  let next = Math.max(1, options.fromSeq ?? 1);
  const pollMs = options.pollMs ?? 1000;
  const until = options.untilSeq ?? Number.POSITIVE_INFINITY;
  while (!options.signal?.aborted && next <= until) {
    for await (const e of store.read(sessionId, { fromSeq: next, toSeq: Number.isFinite(until) ? until : undefined })) {
      yield e;
      next = e.seq + 1;
      if (options.signal?.aborted) return;
    }
    if (next > until) return;
    if (canWait(store)) await store.waitForAppend(sessionId, next - 1, pollMs, options.signal);
    else if ((await store.head(sessionId)) < next) await sleep(Math.min(pollMs, 100), options.signal);
  }
}
