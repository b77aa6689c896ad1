// toolnorm/otel: OpenTelemetry GenAI `execute_tool` spans of tool activity (see docs/outputs.md).
export { GEN_AI_TOOL_TYPES, STATUS_ERROR, STATUS_UNSET, UNTIMED_TEXT, epochMs, sessionSpanOf, toolSpanOf } from './span.js';
export type { AttributeValue, Attributes, OtelOptions, ToolSpan, UntimedReason } from './span.js';
export { OtlpEncoder, otlpEncoder, otlpSpan, unixNano } from './otlp.js';
export type { ExportTraceServiceRequest, OtlpAnyValue, OtlpOptions, OtlpSpan } from './otlp.js';
export { hrTimeOf, recordToolSpans } from './tracer.js';
export type { OtelApi, RecordOptions, RecordResult, SkippedPart } from './tracer.js';
export { sessionSpanIdOf, toolSpanIdOf, traceIdOf } from './ids.js';
