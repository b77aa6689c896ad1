// A cheap AsyncIterable over events fetched in pages. An async generator costs several promise
// hops per yielded event, which is most of the time of a replay; here an event already fetched
// costs one resolved promise, and the backend is asked for the next page only when the current
// one runs dry. Rows are decoded as they are handed out, not a page at a time: an event then lives
// only as long as its consumer keeps it, instead of a whole page of parsed events surviving
// together into the old generation, and a reader that stops early never decodes the rest.
import type { StoredEvent } from './types.js';

/** Stored rows in seq order: row k holds the event at seq `firstSeq + k`. */
export interface Page<R> {
  rows: readonly R[];
  firstSeq: number;
}

/** Returns the next page, or undefined when there is no more. */
export type PageSource<R> = () => Page<R> | undefined | Promise<Page<R> | undefined>;

const EACH = Symbol('toolnorm.eachStored');

type Visit = (e: StoredEvent) => void | Promise<void>;

interface Paged {
  [EACH]?: (visit: Visit) => Promise<void>;
}

/**
 * Calls `visit` for every event in order, awaiting what it returns. Over a store's read this
 * awaits once per page instead of once per event (a resolved promise and a microtask each, a
 * tenth of a replay); any other iterable is iterated as usual.
 */
export async function eachStored(events: AsyncIterable<StoredEvent>, visit: Visit): Promise<void> {
  const each = (events as Paged)[EACH];
  if (each) return each(visit);
  for await (const e of events) {
    const r = visit(e);
    if (r) await r;
  }
}

/** `start` runs at the first `next()`, as an async generator's body would; `decode` turns a row into its event. */
export function batchedEvents<R>(start: () => PageSource<R> | Promise<PageSource<R>>, decode: (row: R, seq: number) => StoredEvent): AsyncIterable<StoredEvent> {
  const events: AsyncIterable<StoredEvent> & Paged = {
    async [EACH](visit: Visit): Promise<void> {
      const source = await start();
      for (let page = await source(); page; page = await source()) {
        const { rows, firstSeq } = page;
        for (let k = 0; k < rows.length; k++) {
          const r = visit(decode(rows[k]!, firstSeq + k));
          if (r) await r;
        }
      }
    },
    [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
      let source: PageSource<R> | undefined;
      let rows: readonly R[] = [];
      let firstSeq = 0;
      let i = 0;
      let done = false;
      const finish = (): IteratorResult<StoredEvent> => {
        done = true;
        rows = [];
        return { value: undefined, done: true };
      };
      const take = (): IteratorResult<StoredEvent> => {
        const k = i++;
        try {
          return { value: decode(rows[k]!, firstSeq + k), done: false };
        } catch (err) {
          finish();
          throw err;
        }
      };
      const refill = async (): Promise<IteratorResult<StoredEvent>> => {
        try {
          source ??= await start();
          for (;;) {
            const page = await source();
            if (!page) return finish();
            if (page.rows.length) {
              rows = page.rows;
              firstSeq = page.firstSeq;
              i = 0;
              break;
            }
          }
        } catch (err) {
          finish();
          throw err;
        }
        return take();
      };
      return {
        next(): Promise<IteratorResult<StoredEvent>> {
          if (i < rows.length) {
            try {
              return Promise.resolve(take());
            } catch (err) {
              return Promise.reject(err);
            }
          }
          if (done) return Promise.resolve({ value: undefined, done: true });
          return refill();
        },
        return(): Promise<IteratorResult<StoredEvent>> {
          return Promise.resolve(finish());
        },
      };
    },
  };
  return events;
}
