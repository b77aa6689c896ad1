// The output compressor: declarative specs, a streaming engine, and derived events that leave
// every original untouched.
export type { CompressContext, ToolOutputCompressor } from './types.js';
export { DeclarativeCompressor, compressStream, compressText, specMatches, type OutputCompression } from './compressor.js';
export { CompressionStream, DEFAULT_JSON_MAX_BYTES, DEFAULT_MAX_RETAINED_BYTES, type EngineOptions, type TextCompression } from './engine.js';
export { CLAUDE_BASH_SPEC, CODEX_SPEC, DEFAULT_SPECS } from './defaults.js';
export { EstimatorUnavailableError, bytes4Estimator, estimatorFor, exactEstimatorLoaded, loadExactEstimator, type TokenCounter } from './estimator.js';
export { DEFAULT_MARKER, MARKER_PLACEHOLDERS, SHORT_MARKER, renderMarker } from './marker.js';
export { SpecError, checkSpec } from './spec.js';
export { compressSession, type CompressSessionOptions } from './session.js';
