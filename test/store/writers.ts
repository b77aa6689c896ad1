// What a writer process does, shared by the child-process entry point (child.ts) and the
// in-process variant the memory store runs (it cannot be shared between processes).
import { ConcurrencyError, type EventStore } from '../../src/store/types.js';
import { eventsRange } from './stream.js';

export interface WriterResult {
  tag: string;
  appended: number;
  batches: number;
  conflicts: number;
  /** Names of any errors other than ConcurrencyError (must stay empty). */
  otherErrors: string[];
}

/**
 * Appends `count` events of its own tagged stream in batches of `batch`, each time with the head
 * it just read as expected seq; on a conflict it re-reads and retries the same batch.
 */
export async function runWriter(store: EventStore, sessionId: string, tag: string, count: number, batch: number): Promise<WriterResult> {
  const result: WriterResult = { tag, appended: 0, batches: 0, conflicts: 0, otherErrors: [] };
  while (result.appended < count) {
    const events = eventsRange(sessionId, result.appended, Math.min(count, result.appended + batch), { tag });
    const head = await store.head(sessionId);
    try {
      await store.append(sessionId, events, head);
      result.appended += events.length;
      result.batches++;
    } catch (err) {
      if (err instanceof ConcurrencyError) result.conflicts++;
      else {
        result.otherErrors.push(`${(err as Error).name}: ${(err as Error).message}`);
        if (result.otherErrors.length > 5) break;
      }
    }
  }
  return result;
}
