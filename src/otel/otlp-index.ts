// toolnorm/otel/otlp: the OTLP/JSON writer alone (`--to otel`), for a consumer that has no
// OpenTelemetry SDK or API: nothing here loads or names `@opentelemetry/api` (see docs/outputs.md).
export { GEN_AI_PROVIDER_NAMES, GEN_AI_TOOL_TYPES, OPENCODE_PROVIDERS, STATUS_ERROR, STATUS_UNSET, UNTIMED_TEXT, epochMs, genAiProviderName, modelProviderOf, sessionSpanOf, toolSpanOf } from './span.js';
export type { AttributeValue, Attributes, OtelOptions, ToolSpan, UntimedReason } from './span.js';
export { OtlpEncoder, otlpEncoder, otlpSpan, unixNano } from './otlp.js';
export type { ExportTraceServiceRequest, OtlpAnyValue, OtlpOptions, OtlpSpan } from './otlp.js';
export { sessionSpanIdOf, toolSpanIdOf, traceIdOf } from './ids.js';
