// A cheap AsyncIterable over events fetched in batches. An async generator costs several promise
// hops per yielded event, which is most of the time of a replay; here an event already in the
// buffer costs one resolved promise, and the backend is asked for the next batch only when the
// buffer runs dry.
import type { StoredEvent } from './types.js';

/** Returns the next batch, or undefined when there is no more. */
export type BatchSource = () => StoredEvent[] | undefined | Promise<StoredEvent[] | undefined>;

/** `start` runs at the first `next()`, as an async generator's body would. */
export function batchedEvents(start: () => BatchSource | Promise<BatchSource>): AsyncIterable<StoredEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
      let source: BatchSource | undefined;
      let buffer: StoredEvent[] = [];
      let i = 0;
      let done = false;
      const finish = (): IteratorResult<StoredEvent> => {
        done = true;
        buffer = [];
        return { value: undefined, done: true };
      };
      const refill = async (): Promise<IteratorResult<StoredEvent>> => {
        try {
          source ??= await start();
          for (;;) {
            const batch = await source();
            if (!batch) return finish();
            if (batch.length) {
              buffer = batch;
              i = 1;
              return { value: batch[0]!, done: false };
            }
          }
        } catch (err) {
          finish();
          throw err;
        }
      };
      return {
        next(): Promise<IteratorResult<StoredEvent>> {
          if (i < buffer.length) return Promise.resolve({ value: buffer[i++]!, done: false });
          if (done) return Promise.resolve({ value: undefined, done: true });
          return refill();
        },
        return(): Promise<IteratorResult<StoredEvent>> {
          return Promise.resolve(finish());
        },
      };
    },
  };
}
