// Live normalization for agent UIs and orchestrators that hold provider SDK objects (Claude Agent
// SDK `query()`, Codex SDK `runStreamed()`, OpenCode SDK `event.subscribe()`): every message goes
// in as it arrives, and every part comes out each time its state changes, with no JSON round trip.
// The batch CLI path (src/pipeline/normalize.ts) prints a part once, when it is final; a UI wants
// every step (started, input streaming, running, terminal), so this path projects after each event.
import { issuesOfToolEvent, type Diagnostic, type NormalizedToolPart, type ToolEvent } from '../contract/index.js';
import { adapterById } from '../adapters/registry.js';
import { feedValue } from '../adapters/feed.js';
import type { Adapter, AdapterDefinition, AdapterId, AdapterOptions } from '../adapters/types.js';
import { projectPart } from '../events/projector.js';
import { createReducer, type Reducer, type ReducerOptions } from '../events/reducer.js';
import { TERMINAL, emptySessionState, listToArray, withState, type ToolSessionState } from '../events/state.js';

/** A provider SDK object, any other parsed JSON value, or one JSON line as a string. */
export type LiveInput = unknown;

export interface LiveOptions extends AdapterOptions, ReducerOptions {
  /** The input format: an adapter id (`claude`, `codex`, `opencode`, `acp`, `events`) or a definition. */
  from: AdapterId | AdapterDefinition;
  /**
   * Events to wait after a part turns terminal before it is dropped from memory (default 64), so a
   * long-lived stream holds only parts in flight. A later event for a dropped part is reported as a
   * `late_event` diagnostic, as in the CLI pipeline.
   */
  retireAfterEvents?: number;
}

export type LiveUpdate =
  /** A part's new state, after the event that changed it. `final` once it is complete or error. */
  | { type: 'part'; sessionId: string; part: NormalizedToolPart; event: ToolEvent; final: boolean }
  | { type: 'diagnostic'; diagnostic: Diagnostic };

interface Session {
  state: ToolSessionState;
  retired: Set<string>;
}

export class LiveNormalizer {
  readonly definition: AdapterDefinition;
  private readonly adapter: Adapter;
  private readonly reducer: Reducer;
  private readonly sessions = new Map<string, Session>();
  private readonly queue: { session: Session; id: string; at: number }[] = [];
  private readonly retireAfter: number;
  private readonly pending: (ToolEvent | { diagnostic: Diagnostic })[] = [];
  private eventCount = 0;
  private inputs = 0;

  constructor(options: LiveOptions) {
    const definition = typeof options.from === 'string' ? adapterById(options.from) : options.from;
    if (!definition) throw new TypeError(`unknown input format "${String(options.from)}"; expected claude, codex, opencode, acp or events`);
    this.definition = definition;
    this.reducer = createReducer(options);
    this.retireAfter = options.retireAfterEvents ?? 64;
    this.adapter = definition.create({ event: (e) => this.pending.push(e), diagnostic: (d) => this.pending.push({ diagnostic: d }) }, options);
  }

  /** Reads one input and returns what it changed, in order. Never throws on provider input. */
  push(input: LiveInput): LiveUpdate[] {
    const pos = { line: ++this.inputs, offset: 0 };
    const out: LiveUpdate[] = [];
    try {
      feedValue(this.adapter, input, pos);
    } catch (err) {
      this.drain(out);
      out.push({ type: 'diagnostic', diagnostic: { severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed on input ${pos.line}: ${(err as Error).message}`, source: { provider: this.definition.provider, line: pos.line } } });
      return out;
    }
    this.drain(out);
    return out;
  }

  /** End of input: flushes what the adapter buffered. Parts still in flight stay as they are. */
  end(): LiveUpdate[] {
    const out: LiveUpdate[] = [];
    try {
      this.adapter.end();
    } catch (err) {
      out.push({ type: 'diagnostic', diagnostic: { severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed at end of input: ${(err as Error).message}` } });
    }
    this.drain(out);
    return out;
  }

  /** Parts held in memory: in flight, or final and waiting out the grace window. */
  liveParts(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.state.parts.size;
    return n;
  }

  private drain(out: LiveUpdate[]): void {
    const items = this.pending;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if ('diagnostic' in item) out.push({ type: 'diagnostic', diagnostic: item.diagnostic });
      else this.onEvent(item, out);
    }
    items.length = 0;
  }

  private session(id: string): Session {
    let s = this.sessions.get(id);
    if (!s) {
      s = { state: emptySessionState(true), retired: new Set() };
      this.sessions.set(id, s);
    }
    return s;
  }

  private onEvent(e: ToolEvent, out: LiveUpdate[]): void {
    const issues = issuesOfToolEvent(e);
    if (issues.length) {
      out.push({ type: 'diagnostic', diagnostic: { severity: 'error', code: 'invalid_event', message: `the ${this.definition.id} adapter produced an event that breaks the contract: ${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}`, source: (e as { source?: Diagnostic['source'] }).source } });
      return;
    }
    const session = this.session(e.sessionId);
    const before = session.state.parts.get(e.partId);
    if (before === undefined && session.retired.has(e.partId)) {
      out.push({ type: 'diagnostic', diagnostic: { severity: 'warning', code: 'late_event', message: `${e.type} for part ${e.partId} arrived after the part was final and dropped; the event is reported here and not applied`, source: e.source, partId: e.partId } });
      return;
    }
    this.eventCount++;
    session.state = this.reducer(session.state, e);
    if (session.state.diagnosticCount) {
      for (const d of listToArray(session.state.diagnostics)) out.push({ type: 'diagnostic', diagnostic: d });
      session.state = withState(session.state, { diagnostics: null, diagnosticCount: 0 });
    }
    const after = session.state.parts.get(e.partId);
    if (after && after !== before) {
      const final = TERMINAL.has(after.state);
      out.push({ type: 'part', sessionId: e.sessionId, part: projectPart(after), event: e, final });
      if (final && (before === undefined || !TERMINAL.has(before.state))) this.queue.push({ session, id: after.id, at: this.eventCount });
    }
    this.retireDue();
  }

  private retireDue(): void {
    let n = 0;
    while (n < this.queue.length && this.eventCount - this.queue[n]!.at >= this.retireAfter) {
      const { session, id } = this.queue[n++]!;
      session.retired.add(id);
      session.state = withState(session.state, { parts: session.state.parts.delete(id) });
    }
    if (n) this.queue.splice(0, n);
  }
}

/**
 * Normalizes a live stream: `for await (const u of normalizeStream(query(…), { from: 'claude' }))`
 * yields each part every time its state changes, and every diagnostic, as the messages arrive.
 * Items are provider SDK objects (or any parsed JSON value) or JSON lines as strings.
 */
export async function* normalizeStream(source: AsyncIterable<LiveInput> | Iterable<LiveInput>, options: LiveOptions): AsyncGenerator<LiveUpdate, void, undefined> {
  const live = new LiveNormalizer(options);
  for await (const item of source) yield* live.push(item);
  yield* live.end();
}
