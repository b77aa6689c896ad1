// One call's event trail: builds executor events, coalesces streamed output into few
// `tool.progress` events, and appends everything through the session recorder in order.
import type { ToolEvent, ToolMetadata } from '../contract/index.js';
import type { StoredEvent } from '../store/types.js';
import type { SessionRecorder } from './recorder.js';
import type { ProgressUpdate } from './types.js';

type Body<T extends ToolEvent['type']> = Omit<Extract<ToolEvent, { type: T }>, 'type' | 'sessionId' | 'partId' | 'at' | 'seq' | 'source'>;

export interface CallOptions {
  /** Streamed output is flushed at least this often (ms)… */
  progressIntervalMs: number;
  /** …or as soon as this many characters are buffered. */
  progressChunkChars: number;
}

export class Call {
  private readonly stored: StoredEvent[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private recordError: unknown;
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Progress updates that arrived after the terminal event (a tool that ignored its abort). */
  lateUpdates = 0;

  constructor(
    readonly sessionId: string,
    readonly partId: string,
    private readonly clock: () => number,
    private readonly recorder: SessionRecorder,
    private readonly opts: CallOptions,
  ) {}

  event<T extends ToolEvent['type']>(type: T, body: Body<T>): ToolEvent {
    return { type, sessionId: this.sessionId, partId: this.partId, at: this.clock(), source: { provider: 'executor' }, ...body } as ToolEvent;
  }

  /** Appends and waits: used where the call must not go on unless the events are stored. */
  async record(events: ToolEvent[]): Promise<void> {
    const stored = await this.recorder.append(events);
    this.stored.push(...stored);
  }

  private background(events: ToolEvent[]): void {
    const p = this.record(events).catch((err: unknown) => { this.recordError ??= err; });
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  progress(update: ProgressUpdate): void {
    if (this.closed) { this.lateUpdates++; return; }
    if (update.outputDelta) {
      this.buffer += update.outputDelta;
      if (this.buffer.length >= this.opts.progressChunkChars) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.progressIntervalMs);
    }
    if (update.message !== undefined || update.metadata) {
      this.flush();
      const body: Body<'tool.progress'> = {};
      if (update.message !== undefined) body.message = update.message;
      if (update.metadata) body.metadata = update.metadata as ToolMetadata;
      this.background([this.event('tool.progress', body)]);
    }
  }

  /** Sends buffered output now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.buffer) return;
    const outputDelta = this.buffer;
    this.buffer = '';
    this.background([this.event('tool.progress', { outputDelta })]);
  }

  /** No more progress: flushes what is buffered and waits until every progress event is stored. */
  async close(): Promise<void> {
    this.flush();
    this.closed = true;
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
    if (this.recordError) throw this.recordError;
  }

  events(): StoredEvent[] {
    return [...this.stored].sort((a, b) => a.seq - b.seq);
  }
}
