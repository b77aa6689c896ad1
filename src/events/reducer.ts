// The one pure reducer every stream goes through: provider adapters, the ACP decoder and the
// executor all emit ToolEvents, and only this turns them into parts. It never mutates its input
// and never throws on a valid event; anything odd becomes a diagnostic, never a silent drop.
import type { Diagnostic, FileChange, ToolEvent, ToolMetadata } from '../contract/index.js';
import { boundDepth } from './depth.js';
import { DEFAULT_METADATA_LIMIT, applyMetadataBudget, jsonLengthBound } from './budget.js';
import { TERMINAL, copyRecord, type PartRecord, type ToolSessionState } from './state.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface ReducerOptions {
  /** Serialized-size limit of one part's metadata (default 16 KiB). */
  metadataLimitBytes?: number;
  /** How much streamed output a running part keeps (its tail), in characters (default 64 KiB). */
  streamedTailChars?: number;
}

type EventOf<T extends ToolEvent['type']> = Extract<ToolEvent, { type: T }>;

interface Ctx {
  readonly opts: Required<ReducerOptions>;
  /** Allocated on the first diagnostic only: most events produce none. */
  diagnostics?: Diagnostic[];
}

const report = (ctx: Ctx, d: Diagnostic) => { (ctx.diagnostics ??= []).push(d); };

type Handler<E extends ToolEvent> = (part: PartRecord, event: E, ctx: Ctx) => PartRecord;

/**
 * `metadata.files` is one entry per path: a later event's entry for a path refines the earlier
 * one field by field (the executor's measured digests and the tool's diff meet this way), and a
 * new path is added after the others.
 */
function mergeFiles(prior: readonly FileChange[], next: readonly FileChange[]): FileChange[] {
  const out = [...prior];
  for (const f of next) {
    const at = out.findIndex((g) => g.path === f.path);
    if (at >= 0) out[at] = { ...out[at]!, ...f };
    else out.push(f);
  }
  return out;
}

/** Merges metadata into a record created for this event (mutated in place before it is published). */
function mergeMetadata(part: Mutable<PartRecord>, extra: ToolMetadata | undefined, ctx: Ctx): Mutable<PartRecord> {
  if (!extra) return part;
  const cap = Math.floor(ctx.opts.metadataLimitBytes / 3);
  const extraChars = jsonLengthBound(extra, cap);
  if (extraChars <= 2) return part; // `{}`
  const merged: ToolMetadata = { ...part.metadata, ...extra };
  if (part.metadata.truncated && extra.truncated) merged.truncated = [...part.metadata.truncated, ...extra.truncated];
  if (part.metadata.files && extra.files) merged.files = mergeFiles(part.metadata.files, extra.files);
  // Overlapping keys make the sum an over-estimate: safe for deciding that no check is needed.
  const bound = part.metadataChars + extraChars;
  if (bound * 3 <= ctx.opts.metadataLimitBytes) {
    part.metadata = merged;
    part.metadataChars = bound;
    return part;
  }
  part.metadata = applyMetadataBudget(merged, ctx.opts.metadataLimitBytes).metadata;
  part.metadataChars = (JSON.stringify(part.metadata) ?? '').length;
  return part;
}

const isTerminal = (p: PartRecord) => TERMINAL.has(p.state);

/**
 * A part whose end comes before its start (clock skew between lines, a mutated year) has no
 * duration to compute: the projector leaves `elapsedMs` out rather than write a made-up 0, and
 * this says why. A duration the provider gave is kept as it is.
 */
function checkDuration(p: PartRecord, e: EventOf<'tool.completed'> | EventOf<'tool.failed'>, ctx: Ctx): void {
  if (e.elapsedMs !== undefined || p.elapsedMs !== undefined || e.at === undefined || p.startedAt === undefined || e.at >= p.startedAt) return;
  report(ctx, {
    severity: 'warning',
    code: 'negative_duration',
    message: `${e.type} for part ${p.id} is dated ${e.at} ms, ${p.startedAt - e.at} ms before the part started (${p.startedAt} ms); the part keeps both times but has no elapsedMs`,
    source: e.source,
    partId: p.id,
  });
}

/** First and last non-blank characters' codes (−1 when blank). */
function ends(s: string): [number, number] {
  let i = 0;
  let j = s.length - 1;
  while (i <= j && s.charCodeAt(i) <= 32) i++;
  while (j >= i && s.charCodeAt(j) <= 32) j--;
  return i > j ? [-1, -1] : [s.charCodeAt(i), s.charCodeAt(j)];
}

function parsePartialInput(buffer: string, previous: unknown): unknown {
  // Streamed input is re-read after every fragment; an object or array that is not closed yet
  // cannot parse, and a failed JSON.parse (an exception) costs far more than this check.
  const [first, last] = ends(buffer);
  if ((first === 0x7b && last !== 0x7d) || (first === 0x5b && last !== 0x5d)) return previous;
  // A fragment that closes an inner object still fails; without a stack trace the failure is cheap.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return boundDepth(JSON.parse(buffer) as unknown);
  } catch {
    // Streaming JSON is rarely parseable mid-way; the last parseable input stands until it is.
    return previous;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function late(part: PartRecord, event: ToolEvent, ctx: Ctx, why: string): PartRecord {
  report(ctx, {
    severity: 'warning',
    code: 'late_event',
    message: `${event.type} for part ${part.id}, which is already ${part.state}: ${why}; the event is kept here and the part is unchanged`,
    source: event.source,
    partId: part.id,
    excerpt: JSON.stringify(event).slice(0, 200),
  });
  return part;
}

/** One entry per event type: how it changes a part. The table is the whole lifecycle. */
const HANDLERS: { [T in ToolEvent['type']]: Handler<EventOf<T>> } = {
  'tool.started': (p, e, ctx) => {
    if (isTerminal(p) && !p.orphan) return late(p, e, ctx, 'a terminal part cannot start again');
    const n = copyRecord(p);
    n.name = e.name;
    n.kind = e.kind;
    n.title = e.title;
    if (e.input !== undefined) n.input = e.input;
    n.orphan = false;
    n.provider = e.source.provider;
    return mergeMetadata(n, e.metadata, ctx);
  },
  'tool.input.delta': (p, e, ctx) => {
    if (isTerminal(p)) return late(p, e, ctx, 'input cannot stream after the call ended');
    const n = copyRecord(p);
    n.inputBuffer = (p.inputBuffer ?? '') + e.delta;
    n.input = parsePartialInput(n.inputBuffer, p.input);
    return n;
  },
  'tool.updated': (p, e, ctx) => {
    // Refinements never change state, so they are allowed on terminal parts too (e.g. a subagent's
    // final task notification arriving after its result).
    const n = copyRecord(p);
    if (e.name !== undefined) n.name = e.name;
    if (e.kind !== undefined) n.kind = e.kind;
    if (e.title !== undefined) n.title = e.title;
    if (e.input !== undefined) {
      n.input = e.input;
      n.inputBuffer = undefined;
    }
    return mergeMetadata(n, e.metadata, ctx);
  },
  'tool.progress': (p, e, ctx) => {
    if (isTerminal(p)) return late(p, e, ctx, 'progress after the end');
    const n = copyRecord(p);
    if (e.outputDelta) {
      const tail = ((p.streamed?.tail ?? '') + e.outputDelta).slice(-ctx.opts.streamedTailChars);
      n.streamed = { tail, bytes: (p.streamed?.bytes ?? 0) + Buffer.byteLength(e.outputDelta, 'utf8') };
    }
    n.state = 'running';
    if (e.message !== undefined) n.progressMessage = e.message;
    if (e.elapsedMs !== undefined) n.elapsedMs = e.elapsedMs;
    return mergeMetadata(n, e.metadata, ctx);
  },
  'tool.completed': (p, e, ctx) => {
    if (isTerminal(p)) return late(p, e, ctx, 'a terminal state never changes');
    const n = copyRecord(p);
    checkDuration(p, e, ctx);
    n.state = 'complete';
    n.output = e.output;
    n.hasOutput = e.output !== undefined;
    n.completedAt = e.at;
    if (e.elapsedMs !== undefined) n.elapsedMs = e.elapsedMs;
    n.terminalSeq = e.seq;
    return mergeMetadata(n, e.metadata, ctx);
  },
  'tool.failed': (p, e, ctx) => {
    if (isTerminal(p)) return late(p, e, ctx, 'a terminal state never changes');
    const n = copyRecord(p);
    checkDuration(p, e, ctx);
    n.state = 'error';
    n.error = e.error;
    n.completedAt = e.at;
    if (e.elapsedMs !== undefined) n.elapsedMs = e.elapsedMs;
    n.terminalSeq = e.seq;
    return mergeMetadata(n, e.metadata, ctx);
  },
  'tool.output.compressed': (p, e, ctx) => {
    if (p.state !== 'complete') {
      report(ctx, {
        severity: 'warning',
        code: 'compression_before_completion',
        message: `tool.output.compressed for part ${p.id} in state ${p.state}; only completed output is compressed. The summary is kept but not shown`,
        source: e.source,
        partId: p.id,
      });
    }
    const n = copyRecord(p);
    n.compressed = { output: e.output, record: e.compression };
    return mergeMetadata(n, { compression: e.compression }, ctx);
  },
  'tool.file.mutated': (p, e, ctx) => {
    const n = copyRecord(p);
    n.mutations = [...p.mutations, e.mutation];
    // A FileMutationRecord is a FileChange: the part's `metadata.files` gains it, merged into the
    // entry for the same path when the call already described it (a diff from the tool's input).
    return mergeMetadata(n, { files: [e.mutation] }, ctx);
  },
  'tool.policy.assessed': (p, e, ctx) => {
    const n = copyRecord(p);
    n.assessment = e.assessment;
    return mergeMetadata(n, { assessment: e.assessment }, ctx);
  },
  'tool.approval.requested': (p, e, ctx) => {
    if (isTerminal(p) && !p.orphan) return late(p, e, ctx, 'a call that has ended waits for no approval');
    const approval = e.approval.at === undefined && e.at !== undefined ? { ...e.approval, at: e.at } : e.approval;
    return mergeMetadata(copyRecord(p), { approval }, ctx);
  },
  'tool.approval.resolved': (p, e, ctx) => {
    // An answer may come after the end (a denial the provider reports with the failure), so it is
    // taken in any state; it never changes the state: tool.failed says `denied`.
    const prior = p.metadata.approval;
    const approval = { ...e.approval };
    if (approval.at === undefined && e.at !== undefined) approval.at = e.at;
    if (approval.requestedAt === undefined && prior?.state === 'pending' && prior.at !== undefined) approval.requestedAt = prior.at;
    if (prior) {
      if (approval.options === undefined && prior.options !== undefined) approval.options = prior.options;
      if (approval.reason === undefined && prior.reason !== undefined) approval.reason = prior.reason;
      if (prior.detail && approval.detail) approval.detail = { ...prior.detail, ...approval.detail };
      else if (prior.detail) approval.detail = prior.detail;
    }
    return mergeMetadata(copyRecord(p), { approval }, ctx);
  },
};

function newPart(event: ToolEvent, index: number, ctx: Ctx): PartRecord {
  const orphan = event.type !== 'tool.started';
  if (orphan) {
    report(ctx, {
      severity: 'warning',
      code: 'unknown_part',
      message: `${event.type} for part ${event.partId}, which was never started; a placeholder part was created so the event is not lost`,
      source: event.source,
      partId: event.partId,
    });
  }
  const metadata = { provider: event.source.provider };
  return copyRecord({
    id: event.partId,
    index,
    sessionId: event.sessionId,
    provider: event.source.provider,
    name: 'unknown',
    kind: 'unknown',
    title: `Unknown tool call ${event.partId}`,
    input: {},
    state: 'started',
    hasOutput: false,
    startedAt: event.at,
    metadata,
    mutations: [],
    orphan,
    lastAt: event.at,
    metadataChars: jsonLengthBound(metadata, Number.MAX_SAFE_INTEGER),
  });
}

export type Reducer = (state: ToolSessionState, event: ToolEvent) => ToolSessionState;

export function createReducer(options: ReducerOptions = {}): Reducer {
  const opts: Required<ReducerOptions> = {
    metadataLimitBytes: options.metadataLimitBytes ?? DEFAULT_METADATA_LIMIT,
    streamedTailChars: options.streamedTailChars ?? 64 * 1024,
  };
  return (state, event) => {
    const ctx: Ctx = { opts };
    const existing = state.parts.get(event.partId);
    const base = existing ?? newPart(event, state.nextIndex, ctx);
    const handler = HANDLERS[event.type] as Handler<ToolEvent> | undefined;
    let part = base;
    if (handler) {
      part = handler(base, event, ctx);
    } else {
      report(ctx, { severity: 'error', code: 'unknown_event', message: `unknown event type ${String((event as { type: unknown }).type)}`, source: event.source, partId: event.partId });
    }
    // Handlers return either the existing record (nothing changed) or a record created for this
    // event alone, so stamping the fresh one here is not visible to anyone holding older state.
    if (part !== existing && event.at !== undefined && (part.lastAt === undefined || event.at > part.lastAt)) (part as { lastAt?: number }).lastAt = event.at;
    let diagnostics = state.diagnostics;
    const fresh = ctx.diagnostics ?? [];
    for (const d of fresh) diagnostics = { head: d, tail: diagnostics };
    return {
      parts: part === existing ? state.parts : state.parts.set(part.id, part),
      nextIndex: existing ? state.nextIndex : state.nextIndex + 1,
      diagnostics,
      diagnosticCount: state.diagnosticCount + fresh.length,
      lastSeq: event.seq !== undefined && event.seq > state.lastSeq ? event.seq : state.lastSeq,
      eventCount: state.eventCount + 1,
    };
  };
}

/** The reducer with default options. */
export const reduce: Reducer = createReducer();

export function reduceAll(events: Iterable<ToolEvent>, state: ToolSessionState, reducer: Reducer = reduce): ToolSessionState {
  for (const e of events) state = reducer(state, e);
  return state;
}
