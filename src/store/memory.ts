import type { ToolEvent } from '../contract/index.js';
import { ConcurrencyError, type AppendResult, type EventStore, type ReadOptions, type SessionInfo, type Snapshot, type StoredEvent } from './types.js';
import { assertAppendable } from './validate.js';

/** In-process store: the reference behaviour the durable stores are tested against. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly snapshots = new Map<string, Snapshot[]>();

  async append(sessionId: string, events: readonly ToolEvent[], expectedSeq: number): Promise<AppendResult> {
    assertAppendable(sessionId, events);
    const stream = this.streams.get(sessionId) ?? [];
    if (stream.length !== expectedSeq) throw new ConcurrencyError(sessionId, expectedSeq, stream.length);
    const firstSeq = stream.length + 1;
    // Stored copies: a caller mutating its objects later must not rewrite history.
    for (const e of events) stream.push({ ...structuredClone(e), seq: stream.length + 1 });
    this.streams.set(sessionId, stream);
    return { sessionId, firstSeq, lastSeq: stream.length };
  }

  async *read(sessionId: string, options: ReadOptions = {}): AsyncIterable<StoredEvent> {
    const stream = this.streams.get(sessionId) ?? [];
    const from = Math.max(1, options.fromSeq ?? 1);
    const to = Math.min(stream.length, options.toSeq ?? stream.length);
    for (let seq = from; seq <= to; seq++) yield stream[seq - 1]!;
  }

  async head(sessionId: string): Promise<number> {
    return this.streams.get(sessionId)?.length ?? 0;
  }

  async sessions(): Promise<SessionInfo[]> {
    // The first and last times the events carry; a session without any has none.
    return [...this.streams].map(([sessionId, s]) => {
      const info: SessionInfo = { sessionId, lastSeq: s.length };
      const first = s.find((e) => e.at !== undefined)?.at;
      const last = s.findLast((e) => e.at !== undefined)?.at;
      if (first !== undefined) info.firstAt = first;
      if (last !== undefined) info.lastAt = last;
      return info;
    });
  }

  async saveSnapshot(snapshot: Snapshot): Promise<void> {
    const list = this.snapshots.get(snapshot.sessionId) ?? [];
    list.push(structuredClone(snapshot));
    list.sort((a, b) => a.seq - b.seq);
    this.snapshots.set(snapshot.sessionId, list);
  }

  async loadSnapshot(sessionId: string, maxSeq = Number.POSITIVE_INFINITY): Promise<Snapshot | undefined> {
    const list = this.snapshots.get(sessionId) ?? [];
    const found = [...list].reverse().find((s) => s.seq <= maxSeq);
    return found && structuredClone(found);
  }

  async close(): Promise<void> {}
}
