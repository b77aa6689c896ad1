// toolnorm/otel: OpenTelemetry GenAI `execute_tool` spans of tool activity (see docs/outputs.md):
// the OTLP/JSON writer (also alone as toolnorm/otel/otlp) and `recordToolSpans` through a Tracer.
export * from './otlp-index.js';
export { hrTimeOf, recordToolSpans } from './tracer.js';
export type { OtelApi, OtelContext, OtelSpan, OtelTracer, RecordOptions, RecordResult, SkippedPart } from './tracer.js';
