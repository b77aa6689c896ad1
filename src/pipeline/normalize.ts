// The streaming normalize pipeline: lines → adapter → validated ToolEvents → reducer → output.
// Memory stays bounded: a part is printed and dropped once it has been terminal for a while
// (`retireAfterEvents`), so only in-flight parts are held, whatever the input size.
import { issuesOfAcpSessionUpdateParams, issuesOfToolEvent, type Diagnostic, type NormalizedToolPart, type ToolEvent, type UiToolPart } from '../contract/index.js';
import { feedValue } from '../adapters/feed.js';
import type { AdapterDefinition, AdapterOptions, InputPosition } from '../adapters/types.js';
import { projectPart, type OutputView } from '../events/projector.js';
import { createReducer, type Reducer, type ReducerOptions } from '../events/reducer.js';
import { TERMINAL, emptySessionState, listToArray, withState, type PartRecord, type ToolSessionState } from '../events/state.js';
import { AcpEncoder, type AcpFrame } from '../acp/encoder.js';
import { toUiPart, type UiStateNames } from '../ui/to-ui.js';
import type { ToolOutputCompressor } from '../compress/types.js';
import { BoundedSet } from '../events/bounded.js';

const RETIRED_WINDOW = 100_000;
const QUEUE_COMPACT_AT = 256;

export type OutputFormat = 'parts' | 'events' | 'acp' | 'ui';

/** An ACP frame as printed by default: wrapped in a JSON-RPC `session/update` notification. */
export interface AcpNotification {
  jsonrpc: '2.0';
  method: 'session/update';
  params: AcpFrame;
}

/** What each output format hands to `PipelineSinks.output`. */
export interface OutputRecords {
  parts: NormalizedToolPart;
  events: ToolEvent;
  /** A notification, or the bare params with `jsonRpc: false`. */
  acp: AcpNotification | AcpFrame;
  ui: UiToolPart;
}

export type OutputRecord<F extends OutputFormat = OutputFormat> = OutputRecords[F];

export interface NormalizeOptions<F extends OutputFormat = OutputFormat> extends AdapterOptions, ReducerOptions {
  to: F;
  /** Which output a compressed part shows in parts/acp/ui output (default full). */
  output?: OutputView;
  uiStates?: UiStateNames;
  /** ACP output: the client renders display-only terminals (see AcpEncoderOptions.terminal). */
  acpTerminal?: boolean;
  /**
   * Events to wait after a part turns terminal before it is printed and dropped (default 64):
   * long enough for late enrichment (a subagent's task notification after its result: at most 5
   * events later across the whole corpus), short enough that finished parts die young instead of
   * being promoted and swept by major GCs. Anything later is reported as a late_event diagnostic.
   */
  retireAfterEvents?: number;
  /** Compresses completed outputs inline (derived `tool.output.compressed` events). */
  compressor?: ToolOutputCompressor;
  /** Wrap ACP params in a JSON-RPC `session/update` notification (default true). */
  jsonRpc?: boolean;
}

export interface Summary {
  inputLines: number;
  events: number;
  parts: number;
  byKind: Record<string, number>;
  byState: Record<string, number>;
  diagnostics: number;
  malformedLines: number;
  /** Events the adapter produced that broke the contract (dropped, each with a diagnostic). */
  invalidEvents: number;
}

interface Session {
  readonly id: string;
  state: ToolSessionState;
  encoder?: AcpEncoder;
  /**
   * Ids of parts already printed and dropped, so a late event for one is reported as late. Bounded
   * (the most recent 100k–200k per session) so memory stays flat on inputs of any size; an event
   * for a part retired longer ago than that makes a placeholder part with an `unknown_part`
   * diagnostic instead — reported either way.
   */
  retired: BoundedSet<string>;
  diagnosticsSeen: number;
}

export interface PipelineSinks<F extends OutputFormat = OutputFormat> {
  /** One output record of the chosen format (a part, event, ACP message or UI part), e.g. to print as a JSON line. */
  output(record: OutputRecord<F>): void;
  diagnostic(d: Diagnostic): void;
  /** Every valid event, in order, e.g. to append to a store. */
  event?(e: ToolEvent): void;
}

export class NormalizePipeline<F extends OutputFormat = OutputFormat> {
  private readonly sessions = new Map<string, Session>();
  /**
   * Terminal parts waiting out the grace window, in the order they turned terminal (all sessions).
   * A plain FIFO array: iterating a Map from the front after many deletes walks every tombstone.
   */
  private readonly queue: { session: Session; id: string; at: number }[] = [];
  private queueHead = 0;
  private readonly reducer: Reducer;
  private readonly adapter;
  private readonly retireAfter: number;
  private eventCount = 0;
  readonly summary: Summary = { inputLines: 0, events: 0, parts: 0, byKind: {}, byState: {}, diagnostics: 0, malformedLines: 0, invalidEvents: 0 };

  private readonly options: NormalizeOptions;
  private readonly sinks: PipelineSinks;

  constructor(readonly definition: AdapterDefinition, options: NormalizeOptions<F>, sinks: PipelineSinks<F>) {
    // Inside, the format is checked at run time on every record, so the sink is the untyped union.
    this.options = options;
    this.sinks = sinks as unknown as PipelineSinks;
    this.reducer = createReducer(options);
    this.retireAfter = options.retireAfterEvents ?? 64;
    this.adapter = definition.create({ event: (e) => { this.pending.push(e); }, diagnostic: (d) => { this.pending.push({ diagnostic: d }); } }, options);
  }

  /**
   * What the adapter emitted for the current line, applied once it returns. Queuing (rather than
   * applying inside the adapter's call) keeps validation, the reducer and output out of the
   * adapter's optimized code: inlined into every emitting function they made V8 compile the same
   * large graphs many times over, a fixed cost of most of a second per process.
   */
  private readonly pending: (ToolEvent | { diagnostic: Diagnostic })[] = [];

  private flush(): void {
    const items = this.pending;
    try {
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        if ('diagnostic' in item) this.onDiagnostic(item.diagnostic);
        else this.onEvent(item);
      }
    } finally {
      items.length = 0;
    }
  }

  /** Parts currently held in memory (in flight, or final and waiting out the grace window). */
  liveParts(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.state.parts.size;
    return n;
  }

  beginFile(file: string): void {
    this.adapter.beginFile?.(file);
    this.flush();
  }

  endFile(file: string): void {
    this.adapter.endFile?.(file);
    this.flush();
  }

  /** One already-parsed input value (a provider SDK object); a string is read as a line. */
  value(value: unknown, pos: InputPosition): void {
    this.summary.inputLines++;
    try {
      feedValue(this.adapter, value, pos);
      if (this.pending.length !== 0) this.flush();
    } catch (err) {
      this.flush();
      this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed on input ${pos.line}: ${(err as Error).message}`, source: { provider: this.definition.provider, line: pos.line, offset: pos.offset, ...(pos.file ? { file: pos.file } : {}) } });
    }
  }

  line(text: string, pos: InputPosition): void {
    this.summary.inputLines++;
    try {
      this.adapter.line(text, pos);
      if (this.pending.length !== 0) this.flush();
    } catch (err) {
      // Adapters must not throw; if one does, the line is reported, not the process. What it
      // emitted before failing still counts.
      this.flush();
      this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed on line ${pos.line}: ${(err as Error).message}`, source: { provider: this.definition.provider, line: pos.line, offset: pos.offset, ...(pos.file ? { file: pos.file } : {}) }, excerpt: text.slice(0, 120) });
    }
  }

  end(): Summary {
    try {
      this.adapter.end();
      this.flush();
    } catch (err) {
      this.flush();
      this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed at end of input: ${(err as Error).message}` });
    }
    for (const session of this.sessions.values()) {
      const remaining = [...session.state.parts.values()].sort((a, b) => a.index - b.index);
      for (const p of remaining) this.retire(session, p);
      this.drainDiagnostics(session);
    }
    return this.summary;
  }

  private onDiagnostic(d: Diagnostic): void {
    this.summary.diagnostics++;
    if (d.code === 'malformed_line') this.summary.malformedLines++;
    this.sinks.diagnostic(d);
  }

  private session(id: string): Session {
    let s = this.sessions.get(id);
    if (!s) {
      const encoder = this.options.to === 'acp' ? new AcpEncoder({ output: this.options.output, cwd: this.options.cwd, terminal: this.options.acpTerminal }) : undefined;
      s = { id, state: emptySessionState(true), encoder, retired: new BoundedSet(RETIRED_WINDOW), diagnosticsSeen: 0 };
      this.sessions.set(id, s);
    }
    return s;
  }

  private onEvent(e: ToolEvent): void {
    const issues = issuesOfToolEvent(e);
    if (issues.length) {
      this.summary.invalidEvents++;
      this.onDiagnostic({
        severity: 'error',
        code: 'invalid_event',
        message: `the ${this.definition.id} adapter produced an event that breaks the contract: ${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}`,
        source: (e as { source?: Diagnostic['source'] }).source,
        excerpt: JSON.stringify(e).slice(0, 200),
      });
      return;
    }
    const session = this.session(e.sessionId);
    const before = session.state.parts.get(e.partId);
    // A part still held was never retired (a late event is not applied, so it cannot bring one back).
    if (before === undefined && session.retired.has(e.partId)) {
      this.onDiagnostic({ severity: 'warning', code: 'late_event', message: `${e.type} for part ${e.partId} arrived after the part was final and printed; the event is reported here and not applied`, source: e.source, partId: e.partId });
      return;
    }
    this.apply(session, e);
    // With a compressor, a completed output is compressed before anything is encoded, so the
    // compressed view never sends the full output first. The derived event is recorded like any other.
    if (e.type === 'tool.completed' && this.options.compressor) {
      const record = session.state.parts.get(e.partId)!;
      const derived = this.options.compressor.compressPart(projectPart(record), { sessionId: e.sessionId, provider: e.source.provider, at: e.at, ...(e.seq !== undefined ? { seq: e.seq } : {}) });
      if (derived && !issuesOfToolEvent(derived).length) this.apply(session, derived);
    }
    const after = session.state.parts.get(e.partId)!;
    if (session.encoder && after !== before) {
      for (const frame of session.encoder.onPart(e.sessionId, after)) this.writeAcp(frame);
    }
    // Queued once, when it turns terminal (terminal states never change back).
    if (TERMINAL.has(after.state) && (before === undefined || !TERMINAL.has(before.state))) {
      this.queue.push({ session, id: after.id, at: this.eventCount });
    }
    this.drainDiagnostics(session);
    this.retireDue();
  }

  private apply(session: Session, e: ToolEvent): void {
    this.summary.events++;
    this.eventCount++;
    this.sinks.event?.(e);
    if (this.options.to === 'events') this.sinks.output(e);
    session.state = this.reducer(session.state, e);
  }

  private drainDiagnostics(session: Session): void {
    if (session.state.diagnosticCount === session.diagnosticsSeen) return;
    const fresh = listToArray(session.state.diagnostics).slice(session.diagnosticsSeen);
    session.diagnosticsSeen = session.state.diagnosticCount;
    for (const d of fresh) this.onDiagnostic(d);
    session.state = withState(session.state, { diagnostics: null, diagnosticCount: 0 });
    session.diagnosticsSeen = 0;
  }

  /** Final parts past the grace window are printed and dropped, whichever session they belong to. */
  private retireDue(): void {
    while (this.queueHead < this.queue.length) {
      const t = this.queue[this.queueHead]!;
      if (this.eventCount - t.at < this.retireAfter) break;
      this.queueHead++;
      const record = t.session.state.parts.get(t.id);
      if (record) this.retire(t.session, record);
    }
    // Compacted in place: replacing the array would make the field non-constant to V8, throwing
    // away every optimized function that read it. Compacting every few hundred parts (each entry
    // moves at most once per compaction, so the cost stays O(1) per part) runs this path before
    // V8 optimizes onEvent, which inlines it: when it first ran after 4096 parts, it had no type
    // feedback yet and threw the optimized onEvent away, a recompile of the pipeline's largest function.
    if (this.queueHead >= QUEUE_COMPACT_AT && this.queueHead * 2 > this.queue.length) {
      this.queue.copyWithin(0, this.queueHead);
      this.queue.length -= this.queueHead;
      this.queueHead = 0;
    }
  }

  private retire(session: Session, record: PartRecord): void {
    const part: NormalizedToolPart = projectPart(record, { output: this.options.output });
    this.summary.parts++;
    this.summary.byKind[part.kind] = (this.summary.byKind[part.kind] ?? 0) + 1;
    this.summary.byState[part.state] = (this.summary.byState[part.state] ?? 0) + 1;
    if (this.options.to === 'parts') this.sinks.output(part);
    else if (this.options.to === 'ui') this.sinks.output(toUiPart(part, { states: this.options.uiStates }));
    else if (this.options.to === 'acp' && session.encoder) for (const frame of session.encoder.finish(session.id, record)) this.writeAcp(frame);
    session.retired.add(record.id);
    session.state = withState(session.state, { parts: session.state.parts.delete(record.id) });
  }

  private writeAcp(frame: AcpFrame): void {
    // Clients silently blank or strip invalid ACP data, so nothing invalid leaves this process.
    const issues = issuesOfAcpSessionUpdateParams(frame);
    if (issues.length) {
      this.onDiagnostic({ severity: 'error', code: 'invalid_frame', message: `an ACP frame for ${frame.update.toolCallId} broke the contract and was not sent: ${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}`, partId: frame.update.toolCallId });
      return;
    }
    this.sinks.output(this.options.jsonRpc === false ? frame : { jsonrpc: '2.0', method: 'session/update', params: frame });
  }
}
