// Appends a session's executor events to an EventStore in order, with the expected seq the
// store demands. Calls running side by side share one queue, so their events interleave but
// never race: whatever queued while an append was in flight goes in the next batch.
import type { ToolEvent } from '../contract/index.js';
import { ConcurrencyError, InvalidEventError, type EventStore, type StoredEvent } from '../store/types.js';

/** One append() call: its events go to the store together, in one batch with whatever else queued. */
interface Pending {
  readonly events: readonly ToolEvent[];
  resolve(stored: StoredEvent[]): void;
  reject(err: unknown): void;
}

/** How often a batch is retried after another writer moved the head. */
const MAX_CONFLICTS = 8;

export class SessionRecorder {
  private head: number | undefined;
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly store: EventStore, readonly sessionId: string) {}

  /** Resolves with the stored events (seq set) once all of them are appended. */
  append(events: readonly ToolEvent[]): Promise<StoredEvent[]> {
    const done = new Promise<StoredEvent[]>((resolve, reject) => this.queue.push({ events, resolve, reject }));
    if (!this.flushing) void this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        await this.write(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const stored = await this.appendWithRetry(batch.length === 1 ? batch[0]!.events : batch.flatMap((p) => p.events));
      let at = 0;
      for (const p of batch) {
        p.resolve(stored.slice(at, at + p.events.length));
        at += p.events.length;
      }
    } catch (err) {
      if (err instanceof InvalidEventError && batch.length > 1) {
        // One bad event must not sink the events of other calls that shared its batch.
        for (const p of batch) await this.write([p]);
        return;
      }
      for (const p of batch) p.reject(err);
    }
  }

  private async appendWithRetry(events: readonly ToolEvent[]): Promise<StoredEvent[]> {
    for (let attempt = 0; ; attempt++) {
      this.head ??= await this.store.head(this.sessionId);
      try {
        const r = await this.store.append(this.sessionId, events, this.head);
        this.head = r.lastSeq;
        return events.map((e, i) => ({ ...e, seq: r.firstSeq + i }));
      } catch (err) {
        // Another writer appended to the same session: our events are independent of theirs
        // (other part ids), so re-read the head and append after them.
        if (err instanceof ConcurrencyError && attempt < MAX_CONFLICTS) {
          this.head = err.actualSeq;
          continue;
        }
        throw err;
      }
    }
  }
}
