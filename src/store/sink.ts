// `normalize --store URL`: appends events to a store as they are normalized, in batches, with the
// session heads it has seen as expected seqs (another writer appending meanwhile is a conflict,
// never an interleaving). Normalizing the same recording into the same store again is idempotent,
// whatever path it is read by: events already stored at the same positions are checked equal (by
// content, conflict.ts) and skipped, and only what the input adds beyond them is appended.
// Different content at a stored position is an error that says what differs.
//
// While events arrive, a batch is committed at its size limit or once its oldest event has waited
// SINK_MAX_AGE_MS, whichever comes first, so a follower of a live session sees it as it happens.
import type { ToolEvent } from '../contract/index.js';
import { openStore, parseStoreUrl, describeStoreUrl } from './open.js';
import { firstDifference, recordingBody, shown } from './conflict.js';
import type { EventStore } from './types.js';
import { StoreError, storeError } from './errors.js';
import { alreadyChecked } from './validate.js';

export interface StoreSink {
  add(e: ToolEvent): void;
  /** True when enough events are buffered to be worth a batch append, or the oldest has waited long enough. */
  due(): boolean;
  /** Events added and not yet committed. */
  readonly pendingEvents: number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreSinkStats {
  /** Events appended by this sink. */
  appended: number;
  /** Events skipped because the store already held the same event at the same position. */
  alreadyStored: number;
  sessions: number;
}

/** Events buffered before `due()` says a batch is worth it. */
export const SINK_BATCH = 1000;
/** Longest an added event waits for its commit while events keep arriving (ms). */
export const SINK_MAX_AGE_MS = 250;

interface Stream {
  /** Events of this run handed to the store so far (matched or appended). */
  position: number;
  /** The session head as this sink knows it. */
  head: number;
  /** Head when this run first saw the session: positions below it must match. */
  stored: number;
}

export class EventStoreSink implements StoreSink {
  private pending = new Map<string, ToolEvent[]>();
  private pendingCount = 0;
  /** Date.now() when the oldest pending event was added. */
  private oldestAt = 0;
  private readonly streams = new Map<string, Stream>();
  readonly stats: StoreSinkStats = { appended: 0, alreadyStored: 0, sessions: 0 };

  /**
   * `eventsChecked`: every event added was checked against the contract on its way in (the
   * pipeline ran with `validate: 'all'`), so append need not check it again. By default the
   * pipeline trusts toolnorm's own adapters and checks nothing on the way in, and the store is
   * the boundary: append checks every event, so nothing unchecked is ever written (reads rely on it).
   */
  constructor(readonly store: EventStore, private readonly label: string, private readonly eventsChecked = false) {}

  /** A batch for append: marked as checked only when it was (see the constructor). */
  private handOver(events: ToolEvent[]): ToolEvent[] {
    return this.eventsChecked ? alreadyChecked(events) : events;
  }

  /** An event of the normalize pipeline (from its adapter, or checked by it: see eventsChecked). */
  add(e: ToolEvent): void {
    if (this.pendingCount === 0) this.oldestAt = Date.now();
    const list = this.pending.get(e.sessionId);
    if (list) list.push(e);
    else this.pending.set(e.sessionId, [e]);
    this.pendingCount++;
  }

  due(): boolean {
    return this.pendingCount >= SINK_BATCH || (this.pendingCount > 0 && Date.now() - this.oldestAt >= SINK_MAX_AGE_MS);
  }

  get pendingEvents(): number {
    return this.pendingCount;
  }

  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    try {
      const batches: { sessionId: string; events: ToolEvent[]; stream: Stream }[] = [];
      for (const [sessionId, events] of pending) {
        const b = await this.unstored(sessionId, events);
        if (b) batches.push(b);
      }
      if (!batches.length) return;
      // Every session pending is committed in one transaction where the store can (a group commit:
      // one lock and one commit instead of one per session); else one append each, in order.
      const many = this.store.appendMany?.bind(this.store);
      const results = many && batches.length > 1
        ? await many(batches.map((b) => ({ sessionId: b.sessionId, events: this.handOver(b.events), expectedSeq: b.stream.head })))
        : [];
      for (let i = 0; i < batches.length; i++) {
        const { sessionId, events, stream } = batches[i]!;
        const r = results[i] ?? (await this.store.append(sessionId, this.handOver(events), stream.head));
        stream.head = r.lastSeq;
        stream.position += events.length;
        this.stats.appended += events.length;
      }
    } catch (err) {
      throw storeError(this.label, err);
    }
  }

  /** What of `events` the store does not hold yet: the events at stored positions are checked equal and skipped. */
  private async unstored(sessionId: string, events: ToolEvent[]): Promise<{ sessionId: string; events: ToolEvent[]; stream: Stream } | undefined> {
    let stream = this.streams.get(sessionId);
    if (!stream) {
      const head = await this.store.head(sessionId);
      stream = { position: 0, head, stored: head };
      this.streams.set(sessionId, stream);
      this.stats.sessions++;
    }
    let k = 0;
    if (stream.position < stream.stored) {
      const upto = Math.min(stream.stored, stream.position + events.length);
      for await (const stored of this.store.read(sessionId, { fromSeq: stream.position + 1, toSeq: upto })) {
        const incoming = events[k]!;
        if (recordingBody(stored) !== recordingBody(incoming)) {
          const d = firstDifference(stored, incoming)!;
          throw new StoreError(
            this.label,
            'conflict',
            `conflict: session ${sessionId} already holds a different event at seq ${stored.seq} (stored: ${stored.type} of part ${stored.partId}; here: ${incoming.type} of part ${incoming.partId}): ` +
              `${d.path} is ${shown(d.stored)} in the store and ${shown(d.incoming)} in this input. ` +
              'It was stored from another recording of this session, or with --clock wall. Nothing more was appended to it',
          );
        }
        k++;
      }
      this.stats.alreadyStored += k;
      stream.position += k;
    }
    const rest = k ? events.slice(k) : events;
    return rest.length ? { sessionId, events: rest, stream } : undefined;
  }

  async close(): Promise<void> {
    try {
      await this.store.close();
    } catch (err) {
      throw storeError(this.label, err);
    }
  }
}

export async function openStoreSink(url: string, cwd?: string, options: { eventsChecked?: boolean } = {}): Promise<StoreSink> {
  const label = describeStoreUrl(url);
  if (parseStoreUrl(url).kind === 'memory') throw new StoreError(label, 'other', 'a memory: store is gone when normalize exits; use sqlite:PATH or postgres://…');
  try {
    return new EventStoreSink(await openStore(url, { cwd }), label, options.eventsChecked === true);
  } catch (err) {
    throw storeError(label, err);
  }
}
