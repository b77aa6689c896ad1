// Tool spans through a caller's OpenTelemetry Tracer (`@opentelemetry/api`, an optional peer).
// Same spans as `--to otel` (span.ts), except that ids come from the caller's SDK; parents are
// started before children so the SDK links them, and each span is started and ended at the times
// the recording gives. The API's types are declared here, as the part of them used, so that this
// module's types compile where `@opentelemetry/api` is not installed; the API's own Context, Span
// and Tracer are assignable to them (test/otel).
import type { NormalizedToolPart } from '../contract/index.js';
import { UNTIMED_TEXT, modelProviderOf, sessionSpanOf, toolSpanOf, type Attributes, type OtelOptions, type ToolSpan, type UntimedReason } from './span.js';

/** `@opentelemetry/api`'s Context, as used here. */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}
/** `@opentelemetry/api`'s Span, as used here. */
export interface OtelSpan {
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: [number, number]): void;
}
/** `@opentelemetry/api`'s Tracer, as used here. */
export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; startTime?: [number, number]; attributes?: Attributes }, context?: OtelContext): OtelSpan;
}

/** The things used from `@opentelemetry/api` at run time. */
export interface OtelApi {
  trace: { setSpan(context: OtelContext, span: OtelSpan): OtelContext };
  context: { active(): OtelContext };
}

export interface RecordOptions extends OtelOptions {
  /** `@opentelemetry/api` itself; loaded with import() when not given. */
  api?: OtelApi;
  /**
   * The context the spans start in (default the active context, `context.active()`): the
   * sessions' spans are children of the span active in it, e.g. the app's request span.
   */
  parentContext?: OtelContext;
}

export interface SkippedPart { sessionId: string; partId: string; reason: UntimedReason; message: string }
export interface RecordResult {
  /** Spans started and ended: tool spans, then session spans. */
  toolSpans: number;
  sessionSpans: number;
  skipped: SkippedPart[];
}

async function loadApi(): Promise<OtelApi> {
  try {
    return (await import('@opentelemetry/api')) as unknown as OtelApi;
  } catch {
    throw new Error('toolnorm/otel: recordToolSpans needs @opentelemetry/api (npm install @opentelemetry/api), or pass it as options.api');
  }
}

interface Planned { key: string; sessionId: string; span: ToolSpan; parentKey?: string; started?: OtelSpan }

/**
 * Epoch ms as an HrTime. A plain number is ambiguous to the SDK: one below performance.now() is
 * read as time since the process started.
 */
export const hrTimeOf = (ms: number): [number, number] => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};

const partKey = (sessionId: string, partId: string) => `p\u0000${sessionId}\u0000${partId}`;
const sessionKey = (sessionId: string) => `s\u0000${sessionId}`;

/**
 * Records one `execute_tool` span per timed part, under one `invoke_agent` span per session.
 * Parts without recorded times get no span and are returned in `skipped` (see docs/outputs.md);
 * a child of such a part hangs under its session's span.
 */
export async function recordToolSpans(tracer: OtelTracer, sessions: Iterable<[string, readonly NormalizedToolPart[]]>, options: RecordOptions = {}): Promise<RecordResult> {
  const api = options.api ?? (await loadApi());
  const base = options.parentContext ?? api.context.active();
  const planned = new Map<string, Planned>();
  const skipped: SkippedPart[] = [];
  const whereIs = new Map<string, string>();
  const childModel = new Map<string, string>();
  const list = [...sessions];
  for (const [sid, parts] of list) {
    for (const p of parts) {
      if (!whereIs.has(p.id)) whereIs.set(p.id, sid);
      const model = modelProviderOf(p);
      if (model !== undefined) childModel.set(p.id, model);
    }
  }
  const sessionSpans: Planned[] = [];
  for (const [sid, parts] of list) {
    let startMs = Infinity;
    let endMs = -Infinity;
    let provider: string | undefined;
    let sessionParent: string | undefined;
    let parentCall: string | undefined;
    for (const p of parts) {
      const span = toolSpanOf(p, sid, options);
      if (typeof span === 'string') {
        skipped.push({ sessionId: sid, partId: p.id, reason: span, message: `part ${p.id} (${p.name}) ${UNTIMED_TEXT[span]}: no span is written for it` });
        continue;
      }
      startMs = Math.min(startMs, span.startMs);
      endMs = Math.max(endMs, span.endMs);
      if (provider === undefined && typeof p.metadata?.provider === 'string') provider = p.metadata.provider;
      const parentId = p.metadata?.parentId;
      let parentKey = sessionKey(sid);
      if (typeof parentId === 'string') {
        const where = whereIs.get(parentId);
        if (where === sid) parentKey = partKey(sid, parentId);
        else if (where !== undefined && sessionParent === undefined) {
          sessionParent = partKey(where, parentId);
          parentCall = parentId;
        }
      }
      planned.set(partKey(sid, p.id), { key: partKey(sid, p.id), sessionId: sid, span, parentKey });
    }
    if (startMs <= endMs) {
      const s: Planned = { key: sessionKey(sid), sessionId: sid, span: sessionSpanOf(sid, provider, startMs, endMs, parentCall !== undefined ? childModel.get(parentCall) : undefined), ...(sessionParent ? { parentKey: sessionParent } : {}) };
      planned.set(s.key, s);
      sessionSpans.push(s);
    }
  }
  const starting = new Set<string>();
  const start = (p: Planned): OtelSpan => {
    if (p.started) return p.started;
    starting.add(p.key);
    let parent = p.parentKey !== undefined ? planned.get(p.parentKey) : undefined;
    // A parent without a span (untimed), or a cycle in bad input: the session span instead.
    if (parent && starting.has(parent.key)) parent = undefined;
    if (!parent && p.key !== sessionKey(p.sessionId)) parent = planned.get(sessionKey(p.sessionId));
    const ctx = parent ? api.trace.setSpan(base, start(parent)) : base;
    // SpanKind.INTERNAL is 0 in the API.
    p.started = tracer.startSpan(p.span.name, { kind: 0, startTime: hrTimeOf(p.span.startMs), attributes: p.span.attributes }, ctx);
    starting.delete(p.key);
    return p.started;
  };
  for (const p of planned.values()) start(p);
  let toolSpans = 0;
  for (const p of planned.values()) {
    const span = p.started!;
    if (p.span.status.code === 2) span.setStatus({ code: 2, message: p.span.status.message });
    span.end(hrTimeOf(p.span.endMs));
    if (!p.key.startsWith('s\u0000')) toolSpans++;
  }
  return { toolSpans, sessionSpans: sessionSpans.length, skipped };
}
