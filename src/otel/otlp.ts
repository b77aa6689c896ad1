// `--to otel`: OTLP/JSON `ExportTraceServiceRequest` lines, the format an OpenTelemetry
// Collector's OTLP JSON file receiver reads. One span per timed part (`execute_tool <name>`), under
// one `invoke_agent` span per session; ids are deterministic (ids.ts). A subagent session whose
// parent call was seen joins its parent's trace, its session span under that call.
import type { NormalizedToolPart, ToolEvent } from '../contract/index.js';
import type { StreamEncoder, StreamEncoderFactory, StreamEncoderSinks } from '../pipeline/encoder.js';
import { sessionSpanIdOf, toolSpanIdOf, traceIdOf } from './ids.js';
import { UNTIMED_TEXT, modelProviderOf, sessionSpanOf, toolSpanOf, type AttributeValue, type Attributes, type OtelOptions, type ToolSpan } from './span.js';

export interface OtlpAnyValue { stringValue?: string; intValue?: number; doubleValue?: number; boolValue?: boolean }
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** SPAN_KIND_INTERNAL. */
  kind: 1;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpAnyValue }[];
  status: { code: number; message?: string };
}
export interface ExportTraceServiceRequest {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpAnyValue }[] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

export interface OtlpOptions extends OtelOptions {
  /** Spans per output line (default 512). */
  batch?: number;
  /** `service.name` of the resource (default "toolnorm"). */
  serviceName?: string;
}

const anyValue = (v: AttributeValue): OtlpAnyValue =>
  typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: v } : { doubleValue: v };

const attrs = (a: Attributes) => Object.keys(a).map((key) => ({ key, value: anyValue(a[key]!) }));

/** Epoch ms → decimal nanoseconds, exactly (ms may carry a fraction). */
export const unixNano = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

export function otlpSpan(span: ToolSpan, traceId: string, spanId: string, parentSpanId: string | undefined): OtlpSpan {
  return {
    traceId,
    spanId,
    ...(parentSpanId !== undefined ? { parentSpanId } : {}),
    name: span.name,
    kind: 1,
    startTimeUnixNano: unixNano(span.startMs),
    endTimeUnixNano: unixNano(span.endMs),
    attributes: attrs(span.attributes),
    status: span.status.code === 2 ? { code: 2, message: span.status.message } : { code: 0 },
  };
}

interface SessionTrace {
  traceId: string;
  /** The parent call's span, for a subagent session. */
  parentSpanId?: string;
  /** The parent call, for a subagent session: the model provider it names is this session's. */
  parentCallId?: string;
  provider?: string;
  startMs: number;
  endMs: number;
  spans: number;
}

export class OtlpEncoder implements StreamEncoder {
  private readonly sessions = new Map<string, SessionTrace>();
  /** Where each subagent call was seen: a child session's trace is its parent's. */
  private readonly subagentSession = new Map<string, string>();
  /** The model provider each subagent call names for its child session. */
  private readonly childModelProvider = new Map<string, string>();
  private batch: OtlpSpan[] = [];
  private readonly batchSize: number;
  private readonly resource: { attributes: { key: string; value: OtlpAnyValue }[] };

  constructor(private readonly sinks: StreamEncoderSinks, private readonly options: OtlpOptions = {}) {
    this.batchSize = options.batch ?? 512;
    this.resource = { attributes: attrs({ 'service.name': options.serviceName ?? 'toolnorm' }) };
  }

  change(sessionId: string, e: ToolEvent): void {
    if (e.type === 'tool.started' && e.kind === 'subagent' && !this.subagentSession.has(e.partId)) this.subagentSession.set(e.partId, sessionId);
  }

  /** A session's trace is fixed by its first final part: its parent's trace when that part names a parent call seen in another session. */
  private session(sessionId: string, part?: NormalizedToolPart): SessionTrace {
    let s = this.sessions.get(sessionId);
    if (s) return s;
    const parentId = part?.metadata?.parentId;
    const parentSession = typeof parentId === 'string' ? this.subagentSession.get(parentId) : undefined;
    const parentTrace = parentSession !== undefined && parentSession !== sessionId ? this.session(parentSession) : undefined;
    s = parentTrace
      ? { traceId: parentTrace.traceId, parentSpanId: toolSpanIdOf(parentSession!, parentId as string), parentCallId: parentId as string, startMs: Infinity, endMs: -Infinity, spans: 0 }
      : { traceId: traceIdOf(sessionId), startMs: Infinity, endMs: -Infinity, spans: 0 };
    this.sessions.set(sessionId, s);
    return s;
  }

  final(sessionId: string, part: NormalizedToolPart): void {
    if (part.kind === 'subagent' && !this.subagentSession.has(part.id)) this.subagentSession.set(part.id, sessionId);
    const model = modelProviderOf(part);
    if (model !== undefined) this.childModelProvider.set(part.id, model);
    const s = this.session(sessionId, part);
    const span = toolSpanOf(part, sessionId, this.options);
    if (typeof span === 'string') {
      this.sinks.diagnostic({ severity: 'warning', code: 'otel_untimed_part', message: `part ${part.id} (${part.name}) ${UNTIMED_TEXT[span]}: no span is written for it`, partId: part.id });
      return;
    }
    if (s.provider === undefined && typeof part.metadata?.provider === 'string') s.provider = part.metadata.provider;
    s.startMs = Math.min(s.startMs, span.startMs);
    s.endMs = Math.max(s.endMs, span.endMs);
    s.spans++;
    const parentId = part.metadata?.parentId;
    let parentSpanId = sessionSpanIdOf(sessionId);
    if (typeof parentId === 'string') {
      // A parent call in another session is the parent of this session's span, not of its tools.
      const where = this.subagentSession.get(parentId);
      if (where === undefined || where === sessionId) parentSpanId = toolSpanIdOf(sessionId, parentId);
    }
    this.push(otlpSpan(span, s.traceId, toolSpanIdOf(sessionId, part.id), parentSpanId));
  }

  private push(span: OtlpSpan): void {
    this.batch.push(span);
    if (this.batch.length >= this.batchSize) this.flush();
  }

  private flush(): void {
    if (!this.batch.length) return;
    const request: ExportTraceServiceRequest = { resourceSpans: [{ resource: this.resource, scopeSpans: [{ scope: { name: 'toolnorm' }, spans: this.batch }] }] };
    this.batch = [];
    this.sinks.output(request);
  }

  end(): void {
    for (const [sessionId, s] of this.sessions) {
      if (!s.spans) continue;
      const model = s.parentCallId !== undefined ? this.childModelProvider.get(s.parentCallId) : undefined;
      this.push(otlpSpan(sessionSpanOf(sessionId, s.provider, s.startMs, s.endMs, model), s.traceId, sessionSpanIdOf(sessionId), s.parentSpanId));
    }
    this.flush();
  }
}

/** Pipeline encoder for `--to otel`. */
export const otlpEncoder = (options: OtlpOptions = {}): StreamEncoderFactory => (sinks) => new OtlpEncoder(sinks, options);
