// The streaming normalize pipeline: lines → adapter → validated ToolEvents → reducer → output.
// Memory stays bounded: a part is printed and dropped once it has been terminal for a while
// (`retireAfterEvents`), so only in-flight parts are held, whatever the input size.
// What is printed is one stream encoder's business (./encoder.ts): the pipeline itself knows only
// its own two records, parts and events; every other format is an encoder handed in
// (src/outputs/pipeline.ts maps `to` to one), so nothing here imports an output format.
import { issuesOfToolEvent, type Diagnostic, type NormalizedToolPart, type ToolEvent } from '../contract/index.js';
import { feedValue } from '../adapters/feed.js';
import type { Adapter, AdapterDefinition, AdapterOptions, InputPosition } from '../adapters/types.js';
import { projectPart, type OutputView } from '../events/projector.js';
import { createReducer, type Reducer, type ReducerOptions } from '../events/reducer.js';
import { TERMINAL, emptySessionState, listToArray, withState, type PartRecord, type ToolSessionState } from '../events/state.js';
import type { ToolOutputCompressor } from '../compress/types.js';
import { BoundedSet } from '../collections/bounded.js';
import { eventsEncoder, partsEncoder, type StreamEncoder, type StreamEncoderFactory } from './encoder.js';
import { DEPTH_DIAGNOSTIC, depthMessage, takeDepthCuts } from '../events/depth.js';

/**
 * Ids of printed parts remembered for late events: final ones for the last 5k–10k, ones evicted
 * while open for the last 20k–40k. Final parts need only a short memory (an adapter drops what
 * comes for a call it still knows is finished; the window covers late enrichment); an evicted
 * part's result can come any time later, so those are kept longer. Both fill up within the
 * first ~100 MB of input, so what they hold stops growing there (docs/robustness.md).
 */
const RETIRED_WINDOW = 5_000;
const EVICTED_WINDOW = 20_000;
const QUEUE_COMPACT_AT = 256;
const NON_BLANK = /\S/;
const NO_ISSUES: readonly never[] = [];
/**
 * Caps that keep memory flat whatever the input (docs/robustness.md): parts held at once (open, or
 * final and waiting out the grace window) and sessions held at once. Past a cap, the least recently
 * active sessions give up their parts, oldest first: each open one is printed with its last known
 * state and an `evicted_part` diagnostic, and an event for it afterwards is reported as late.
 */
export const MAX_HELD_PARTS = 10_000;
export const MAX_HELD_SESSIONS = 5_000;

/** Per input file: how its lines were taken, for the file's `unrecognized_*` diagnostic. */
interface FileAccount {
  name: string;
  /** Lines read as the format: they produced events, or carry no tool data (blank lines excepted). */
  recognized: number;
  /** Lines the adapter said are not its format. */
  unrecognized: number;
  firstUnrecognized: number;
  /** Lines that produced only diagnostics. */
  reported: number;
  tooLarge: number;
  /** Lines that produced events. */
  eventLines: number;
  /** The format the input looks like to the sniffers, when the caller forced another (`--from`). */
  looksLike?: AdapterDefinition;
}

const newAccount = (name: string): FileAccount => ({ name, recognized: 0, unrecognized: 0, firstUnrecognized: 0, reported: 0, tooLarge: 0, eventLines: 0 });

/** What the caller knows about a file at its end. */
export interface FileEnd {
  /** The format the input looks like (a sniff of its first lines), when it was read as another. */
  looksLike?: AdapterDefinition;
}

export type OutputFormat = 'parts' | 'events' | 'acp' | 'ui' | EncodedFormat;
/** Formats written by a lazily loaded encoder (`options.encoder`): the ecosystem outputs. */
export type EncodedFormat = 'ai-sdk' | 'ai-sdk-stream' | 'ag-ui' | 'otel';

/** The pipeline's own records; every other format's records are its encoder's (OutputRecords, src/outputs/pipeline.ts). */
export interface PipelineRecords {
  parts: NormalizedToolPart;
  events: ToolEvent;
}

/** What `PipelineSinks.output` receives for a format: the pipeline's own records, or an encoder's. */
export type PipelineRecord<F extends OutputFormat> = F extends keyof PipelineRecords ? PipelineRecords[F] : unknown;

/** The encoders of the pipeline's own formats. */
const OWN_ENCODERS: Record<keyof PipelineRecords, StreamEncoderFactory> = { parts: partsEncoder, events: eventsEncoder };

/**
 * Which events the pipeline checks against the contract on the way in: `boundary` (the default)
 * those that cross a trust boundary, i.e. from an adapter without `eventsChecked` (toolnorm's own
 * adapters have it); `all` every event, whatever its adapter.
 */
export type ValidateMode = 'boundary' | 'all';

export interface NormalizeOptions<F extends OutputFormat = OutputFormat> extends AdapterOptions, ReducerOptions {
  /** The output format: `parts` and `events` are the pipeline's own; any other needs `encoder`. */
  to?: F;
  /** Which output a compressed part shows in parts/acp/ui output (default full). */
  output?: OutputView;
  /**
   * Events to wait after a part turns terminal before it is printed and dropped (default 64):
   * long enough for late enrichment (a subagent's task notification after its result: at most 5
   * events later across the whole corpus), short enough that finished parts die young instead of
   * being promoted and swept by major GCs. Anything later is reported as a late_event diagnostic.
   */
  retireAfterEvents?: number;
  /** Compresses completed outputs inline (derived `tool.output.compressed` events). */
  compressor?: ToolOutputCompressor;
  /** The output: every record comes from this encoder (default: the encoder of `to`, parts or events). */
  encoder?: StreamEncoderFactory;
  /** Which events are checked against the contract on the way in (default `boundary`; see ValidateMode). */
  validate?: ValidateMode;
}

export interface Summary {
  /** Every input line is one of three: `inputLines = eventLines + noToolDataLines + diagnosticLines`. */
  inputLines: number;
  /** Lines that produced at least one event. */
  eventLines: number;
  /** Lines read as the format that carry no tool data (messages, bookkeeping, blank lines). */
  noToolDataLines: number;
  /** Lines that produced only diagnostics, or are covered by one (not recognized, too large). */
  diagnosticLines: number;
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
  diagnosticsSeen: number;
  /** The pipeline's event count at this session's last event: sessions idle longest are evicted first. */
  touched: number;
}

export interface PipelineSinks<F extends OutputFormat = OutputFormat> {
  /** One output record of the chosen format (a part, event, ACP message or UI part), e.g. to print as a JSON line. */
  output(record: PipelineRecord<F>): void;
  diagnostic(d: Diagnostic): void;
  /** Every valid event, in order, e.g. to append to a store. */
  event?(e: ToolEvent): void;
}

export class NormalizePipeline<F extends OutputFormat = OutputFormat> {
  private readonly sessions = new Map<string, Session>();
  /**
   * `${sessionId}\0${partId}` of parts printed final and dropped, so a late event for one is
   * reported as late. Bounded (RETIRED_WINDOW, all sessions together) so memory stays flat on
   * inputs of any size; an event for a part retired longer ago than that makes a placeholder
   * part with an `unknown_part` diagnostic instead — reported either way.
   */
  private readonly retired = new BoundedSet<string>(RETIRED_WINDOW);
  /** Parts printed by eviction while still open, remembered longer (EVICTED_WINDOW): their results are late, not unknown. */
  private readonly evicted = new BoundedSet<string>(EVICTED_WINDOW);
  /** Parts held across all sessions. */
  private held = 0;
  /**
   * Terminal parts waiting out the grace window, in the order they turned terminal (all sessions).
   * A plain FIFO array: iterating a Map from the front after many deletes walks every tombstone.
   */
  private readonly queue: { session: Session; id: string; at: number }[] = [];
  private queueHead = 0;
  /**
   * Parts of the queue printed early by `showHeld` (live input only; empty otherwise), by
   * `${sessionId}\0${partId}`: the record and the JSON of the part as printed, so a part that has
   * not changed by the time it retires is not printed again.
   */
  private readonly shown = new Map<string, { record: PartRecord; json: string }>();
  /** `eventCount` at the last `showHeld`: with no event since, nothing can have changed. */
  private shownAt = -1;
  private readonly reducer: Reducer;
  private adapter: Adapter;
  private readonly retireAfter: number;
  private eventCount = 0;
  private readonly encoder: StreamEncoder;
  readonly summary: Summary = { inputLines: 0, eventLines: 0, noToolDataLines: 0, diagnosticLines: 0, events: 0, parts: 0, byKind: {}, byState: {}, diagnostics: 0, malformedLines: 0, invalidEvents: 0 };
  /** One adapter instance per format, made when a file of that format first comes (`useAdapter`). */
  private readonly adapters = new Map<string, Adapter>();
  /** Set by the adapter (through its sink) when the current line is not its format. */
  private lineUnrecognized = false;
  private file: FileAccount | undefined;
  private readonly options: NormalizeOptions;
  private readonly sinks: PipelineSinks;
  private readonly validateAll: boolean;
  /** Whether the current adapter's events are checked on the way in (ValidateMode). */
  private checkEvents: boolean;

  constructor(public definition: AdapterDefinition, options: NormalizeOptions<F>, sinks: PipelineSinks<F>) {
    // Inside, records are the encoder's, so the sink is untyped.
    this.options = options;
    this.sinks = sinks as unknown as PipelineSinks;
    this.reducer = createReducer(options);
    this.retireAfter = options.retireAfterEvents ?? 64;
    const to = options.to ?? 'parts';
    const factory = options.encoder ?? (Object.hasOwn(OWN_ENCODERS, to) ? OWN_ENCODERS[to as keyof PipelineRecords] : undefined);
    if (!factory) throw new Error(`--to ${to} needs its encoder (options.encoder; toolnorm's NormalizePipeline supplies those of acp and ui)`);
    if (options.validate !== undefined && options.validate !== 'boundary' && options.validate !== 'all') throw new Error(`validate must be boundary or all, got ${String(options.validate)}`);
    this.validateAll = options.validate === 'all';
    // One encoder is the whole output: there is no second path beside it.
    // Every encoder checks what it prints at its edge (parts and events too: ./encoder.ts).
    this.encoder = factory({ output: (r) => this.sinks.output(r), diagnostic: (d) => this.onDiagnostic(d) });
    this.adapter = this.adapterFor(definition);
    this.checkEvents = this.validateAll || definition.eventsChecked !== true;
  }

  /** Options for one format's adapter only (e.g. what OpenCode's neighbour files say); before it is made. */
  configureAdapter(id: string, options: AdapterOptions): void {
    if (this.adapters.has(id)) throw new Error(`the ${id} adapter is already made; configure it before its first file`);
    this.adapterOptions.set(id, options);
  }

  private readonly adapterOptions = new Map<string, AdapterOptions>();

  private adapterFor(definition: AdapterDefinition): Adapter {
    let a = this.adapters.get(definition.id);
    if (!a) {
      a = definition.create({
        event: (e) => { this.pending.push(e); },
        diagnostic: (d) => { this.pending.push({ diagnostic: d }); },
        unrecognized: () => { this.lineUnrecognized = true; },
      }, { ...this.options, ...this.adapterOptions.get(definition.id) });
      this.adapters.set(definition.id, a);
    }
    return a;
  }

  /**
   * The format of the files that follow (`--from auto` detects it per file). Each format keeps one
   * adapter for the whole run, so a session's files (a transcript and its subagent files) still
   * meet in one adapter even when files of another format come between them.
   */
  useAdapter(definition: AdapterDefinition): void {
    this.definition = definition;
    this.adapter = this.adapterFor(definition);
    this.checkEvents = this.validateAll || definition.eventsChecked !== true;
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

  /**
   * For a live input that waits for its next line: prints now the final parts still held for the
   * grace window (those not printed yet, and those changed since they were), so nobody waits 64
   * events for a finished call. They stay held: a part changed later (late enrichment) is printed
   * again when it retires, one that did not change is not. Summary counts are taken at retirement,
   * once per part. Only formats that print a part once it is final do this (`parts`, `ui`, and
   * encoders with `preview`); the others already print every change as it comes.
   */
  showHeld(): void {
    if (this.shownAt === this.eventCount || !this.previews) return;
    this.shownAt = this.eventCount;
    for (let i = this.queueHead; i < this.queue.length; i++) {
      const t = this.queue[i]!;
      const record = t.session.state.parts.get(t.id);
      if (!record) continue;
      const key = `${t.session.id}\u0000${t.id}`;
      const prev = this.shown.get(key);
      if (prev?.record === record) continue;
      const part = projectPart(record, { output: this.options.output });
      const json = JSON.stringify(part);
      if (prev?.json === json) { prev.record = record; continue; }
      this.shown.set(key, { record, json });
      this.encoder.preview!(t.session.id, part);
    }
  }

  /** Whether `showHeld` has anything to do for this format (its encoder previews final parts). */
  private get previews(): boolean {
    return this.encoder.preview !== undefined;
  }

  /** Parts currently held in memory (in flight, or final and waiting out the grace window). */
  liveParts(): number {
    let n = 0;
    for (const s of this.sessions.values()) n += s.state.parts.size;
    return n;
  }

  beginFile(file: string): void {
    this.closeFile();
    this.file = newAccount(file);
    this.adapter.beginFile?.(file);
    this.flush();
  }

  endFile(file: string, end?: FileEnd): void {
    this.adapter.endFile?.(file);
    this.flush();
    if (this.file && end?.looksLike) this.file.looksLike = end.looksLike;
    this.closeFile();
  }

  /** One already-parsed input value (a provider SDK object); a string is read as a line. Accounted like a line. */
  value(value: unknown, pos: InputPosition): void {
    this.summary.inputLines++;
    const events = this.summary.events;
    const diagnostics = this.summary.diagnostics;
    this.lineUnrecognized = false;
    try {
      feedValue(this.adapter, value, pos);
      if (this.pending.length !== 0) this.flush();
    } catch (err) {
      this.flush();
      this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed on input ${pos.line}: ${(err as Error).message}`, source: this.sourceOf(pos) });
    }
    this.account(typeof value === 'string' ? value : '{}', pos, this.summary.events !== events, this.summary.diagnostics !== diagnostics);
  }

  line(text: string, pos: InputPosition): void {
    this.summary.inputLines++;
    const events = this.summary.events;
    const diagnostics = this.summary.diagnostics;
    this.lineUnrecognized = false;
    try {
      this.adapter.line(text, pos);
      if (this.pending.length !== 0) this.flush();
      this.reportDepthCuts(pos);
    } catch (err) {
      // Adapters must not throw; if one does, the line is reported, not the process. What it
      // emitted before failing still counts.
      this.flush();
      this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${this.definition.id} adapter failed on line ${pos.line}: ${(err as Error).message}`, source: this.sourceOf(pos), excerpt: text.slice(0, 120) });
    }
    this.account(text, pos, this.summary.events !== events, this.summary.diagnostics !== diagnostics);
  }

  /** A diagnostic about the input as a whole (e.g. a file skipped as not a recording), counted like any other. */
  report(d: Diagnostic): void {
    this.onDiagnostic(d);
  }

  /** An input skipped whole (not a recording): its lines count as lines covered by the one diagnostic. */
  reportSkipped(lines: number, d: Diagnostic): void {
    this.summary.inputLines += lines;
    this.summary.diagnosticLines += lines;
    this.onDiagnostic(d);
  }

  /** A line `readLines` skipped unread because it was over the size limit. */
  lineTooLarge(bytes: number, limit: number, pos: InputPosition): void {
    this.summary.inputLines++;
    this.summary.diagnosticLines++;
    if (this.file) this.file.tooLarge++;
    this.onDiagnostic({ severity: 'error', code: 'line_too_large', message: `line ${pos.line} is ${bytes} bytes, over the ${limit}-byte line limit (--max-line-bytes); it was skipped unread`, source: this.sourceOf(pos) });
  }

  private sourceOf(pos: InputPosition): Diagnostic['source'] {
    return { provider: this.definition.provider, line: pos.line, offset: pos.offset, ...(pos.file ? { file: pos.file } : {}) };
  }

  /** Which of the three kinds the line just read is (see `Summary`). */
  private account(text: string, pos: InputPosition, produced: boolean, reported: boolean): void {
    const file = this.file ?? (this.file = newAccount(pos.file ?? '-'));
    if (produced) {
      this.summary.eventLines++;
      file.recognized++;
      file.eventLines++;
    } else if (reported) {
      this.summary.diagnosticLines++;
      file.reported++;
    } else if (this.lineUnrecognized) {
      // Covered by the one diagnostic for the file (`closeFile`), not one per line.
      this.summary.diagnosticLines++;
      if (file.unrecognized++ === 0) file.firstUnrecognized = pos.line;
    } else {
      this.summary.noToolDataLines++;
      if (NON_BLANK.test(text)) file.recognized++;
    }
  }

  /** Lines of the file that were not the adapter's format get one diagnostic, with the counts. */
  private closeFile(): void {
    const f = this.file;
    this.file = undefined;
    if (!f) return;
    const name = f.name === '-' ? 'stdin' : f.name;
    const source = { provider: this.definition.provider, ...(f.name !== '-' ? { file: f.name } : {}) };
    const other = f.looksLike && f.looksLike.id !== this.definition.id ? f.looksLike : undefined;
    // An adapter may take a foreign line for one of its own with no tool data (a Codex line is a
    // JSON object, as most OpenCode lines are): when the file gave no event, the sniffers say what it is.
    if ((f.recognized === 0 && f.unrecognized + f.reported > 0) || (other && f.eventLines === 0)) {
      const taken = f.recognized ? `, ${f.recognized} taken for lines with no tool data` : '';
      this.onDiagnostic({
        severity: 'error',
        code: 'unrecognized_input',
        message: `no line of ${name} was recognized as ${this.definition.id} input (${f.unrecognized} not recognized, ${f.reported} reported as malformed or unusable${f.tooLarge ? `, ${f.tooLarge} too large` : ''}${taken})` +
          (other ? `: it looks like ${other.id} input (try --from ${other.id}, or --from auto)` : '; check --from'),
        source,
      });
    } else if (f.unrecognized > 0) {
      this.onDiagnostic({
        severity: 'warning',
        code: 'unrecognized_lines',
        message: `${f.unrecognized} line(s) of ${name} (the first is line ${f.firstUnrecognized}) are not ${this.definition.id} lines this adapter knows; they were skipped`,
        source: { ...source, line: f.firstUnrecognized },
      });
    }
  }

  end(): Summary {
    this.closeFile();
    for (const [id, adapter] of this.adapters) {
      try {
        adapter.end();
        this.flush();
        this.reportDepthCuts();
      } catch (err) {
        this.flush();
        this.onDiagnostic({ severity: 'error', code: 'adapter_error', message: `the ${id} adapter failed at end of input: ${(err as Error).message}` });
      }
    }
    for (const session of this.sessions.values()) {
      const remaining = [...session.state.parts.values()].sort((a, b) => a.index - b.index);
      for (const p of remaining) this.retire(session, p);
      this.drainDiagnostics(session);
    }
    this.encoder.end?.();
    return this.summary;
  }

  /** Cuts of the depth rule made inside the adapter where it had no position to report them with. */
  private reportDepthCuts(pos?: InputPosition): void {
    for (const cut of takeDepthCuts()) {
      const source: Diagnostic['source'] = { provider: this.definition.provider, ...(pos ? { line: pos.line, offset: pos.offset, ...(pos.file ? { file: pos.file } : {}) } : {}) };
      this.onDiagnostic({ severity: 'warning', code: DEPTH_DIAGNOSTIC, message: `${pos ? `line ${pos.line}: ` : ''}${depthMessage(cut)}`, source });
    }
  }

  private onDiagnostic(d: Diagnostic): void {
    this.summary.diagnostics++;
    if (d.code === 'malformed_line') this.summary.malformedLines++;
    this.sinks.diagnostic(d);
  }

  private session(id: string): Session {
    let s = this.sessions.get(id);
    if (!s) {
      // Evicted before the new one is added: a sweep drops sessions that hold nothing.
      if (this.sessions.size >= MAX_HELD_SESSIONS) this.evict();
      s = { id, state: emptySessionState(true), diagnosticsSeen: 0, touched: this.eventCount };
      this.sessions.set(id, s);
    }
    return s;
  }

  private onEvent(e: ToolEvent): void {
    const issues = this.checkEvents ? issuesOfToolEvent(e) : NO_ISSUES;
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
    session.touched = this.eventCount;
    const before = session.state.parts.get(e.partId);
    // A part still held was never retired (a late event is not applied, so it cannot bring one back).
    if (before === undefined) {
      const key = `${e.sessionId}\u0000${e.partId}`;
      const evicted = this.evicted.has(key);
      if (evicted || this.retired.has(key)) {
        const why = evicted ? `was evicted while still open (more than ${MAX_HELD_PARTS} parts or ${MAX_HELD_SESSIONS} sessions held) and printed with its last known state` : 'was final and printed';
        this.onDiagnostic({ severity: 'warning', code: 'late_event', message: `${e.type} for part ${e.partId} arrived after the part ${why}; the event is reported here and not applied`, source: e.source, partId: e.partId });
        return;
      }
    }
    this.apply(session, e);
    if (before === undefined && ++this.held > MAX_HELD_PARTS) this.evict();
    // With a compressor, a completed output is compressed before anything is encoded, so the
    // compressed view never sends the full output first. The derived event is recorded like any other.
    if (e.type === 'tool.completed' && this.options.compressor) {
      const record = session.state.parts.get(e.partId)!;
      const derived = this.options.compressor.compressPart(projectPart(record), { sessionId: e.sessionId, provider: e.source.provider, ...(e.at !== undefined ? { at: e.at } : {}), ...(e.seq !== undefined ? { seq: e.seq } : {}) });
      if (derived && !issuesOfToolEvent(derived).length) this.apply(session, derived);
    }
    const after = session.state.parts.get(e.partId)!;
    if (this.encoder.change && after !== before) this.encoder.change(e.sessionId, e, () => projectPart(after, { output: this.options.output }), after);
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
    this.encoder.event?.(e);
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
      if (record) {
        this.retire(t.session, record);
        this.dropIfIdle(t.session);
      }
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

  private retire(session: Session, record: PartRecord, evicting = false): void {
    const part: NormalizedToolPart = projectPart(record, { output: this.options.output });
    this.summary.parts++;
    this.summary.byKind[part.kind] = (this.summary.byKind[part.kind] ?? 0) + 1;
    this.summary.byState[part.state] = (this.summary.byState[part.state] ?? 0) + 1;
    // Printed early by showHeld (live input): printed again only if it changed since.
    let unchanged = false;
    if (this.shown.size !== 0) {
      const key = `${session.id}\u0000${record.id}`;
      const prev = this.shown.get(key);
      if (prev) {
        this.shown.delete(key);
        unchanged = prev.record === record || prev.json === JSON.stringify(part);
      }
    }
    this.encoder.final(session.id, part, unchanged);
    // An evicted part is already in `evicted` (see evict), which is kept longer.
    if (!evicting) this.retired.add(`${session.id}\u0000${record.id}`);
    session.state = withState(session.state, { parts: session.state.parts.delete(record.id) });
    this.held--;
  }

  /**
   * A session that holds nothing is let go at once (it is made again if it goes on), so held
   * sessions are the ones with parts in flight, not every session seen lately. One with stored
   * `seq`s is kept: its last seq is what rejects a replayed event.
   */
  private dropIfIdle(session: Session): void {
    const s = session.state;
    if (s.parts.size === 0 && s.diagnosticCount === 0 && s.lastSeq === 0 && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }

  /**
   * Brings held parts down to 3/4 of MAX_HELD_PARTS and held sessions to 3/4 of MAX_HELD_SESSIONS.
   * Sessions holding nothing go first; then the least recently active sessions give up their parts,
   * lowest index first. Each sweep frees a quarter of a cap, so its sort costs O(log n) per part.
   */
  private evict(): void {
    for (const [id, s] of this.sessions) if (s.state.parts.size === 0 && s.state.diagnosticCount === 0) this.sessions.delete(id);
    const partGoal = Math.floor((MAX_HELD_PARTS * 3) / 4);
    const sessionGoal = Math.floor((MAX_HELD_SESSIONS * 3) / 4);
    // Whatever the sweep found empty, the rest is brought down to the goals too: otherwise a sweep
    // that only just made room would run again for the very next session.
    const byIdle = [...this.sessions.values()].sort((a, b) => a.touched - b.touched);
    for (const session of byIdle) {
      if (this.held <= partGoal && this.sessions.size <= sessionGoal) break;
      const records = [...session.state.parts.values()].sort((a, b) => a.index - b.index);
      for (const record of records) {
        if (this.held <= partGoal && this.sessions.size <= sessionGoal) break;
        if (!TERMINAL.has(record.state)) {
          this.evicted.add(`${session.id}\u0000${record.id}`);
          this.onDiagnostic({ severity: 'warning', code: 'evicted_part', message: `part ${record.id} of session ${session.id} was still ${record.state} when ${this.held > MAX_HELD_PARTS ? `more than ${MAX_HELD_PARTS} parts` : `more than ${MAX_HELD_SESSIONS} sessions`} were held; it is printed now with its last known state, and a later event for it is reported as late`, source: { provider: record.provider }, partId: record.id });
        }
        this.retire(session, record, !TERMINAL.has(record.state));
      }
      this.drainDiagnostics(session);
      if (session.state.parts.size === 0) this.sessions.delete(session.id);
    }
  }
}
