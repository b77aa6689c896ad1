// toolnorm's library entry point: the light core. It holds what normalizing needs (contract,
// adapters, events, pipeline, ACP and UI encoders) and loads no native module, no store driver,
// no executor and no tokenizer. Those are subpath exports that load on demand:
//   toolnorm/store      SQLite and PostgreSQL event stores (optional drivers)
//   toolnorm/executor   run local tools under a session policy
//   toolnorm/compress   output compression
//   toolnorm/cli        runCli, the command line as a function
//   toolnorm/acp, toolnorm/ui, toolnorm/validators, toolnorm/types, toolnorm/schema.json
//   toolnorm/claude-agent-sdk, toolnorm/codex-sdk, toolnorm/opencode-sdk: typed live entry points
export * from './contract/index.js';
export { createReducer, reduce, reduceAll, type Reducer, type ReducerOptions } from './events/reducer.js';
export { emptySessionState, type PartRecord, type ToolSessionState } from './events/state.js';
export { projectPart, projectParts, projectInvocation, diagnosticsOf, type OutputView, type ProjectOptions } from './events/projector.js';
export { EventReplayer, type ReplayerSpec, type StateCodec } from './events/replayer.js';
export { sessionStateCodec } from './events/codec.js';
export { ToolRepository, type RepositoryOptions } from './events/repository.js';
export { applyMetadataBudget, DEFAULT_METADATA_LIMIT } from './events/budget.js';
export { MemoryEventStore } from './store/memory.js';
export { ConcurrencyError, InvalidEventError, type EventStore, type StoredEvent, type AppendResult, type SessionInfo, type Snapshot, type ReadOptions } from './store/types.js';
export { ADAPTERS, adapterById, detectAdapter, isProviderId, type ProviderId } from './adapters/registry.js';
export type { Adapter, AdapterDefinition, AdapterId, AdapterOptions, AdapterSink, InputPosition } from './adapters/types.js';
export { registerMcpTitle, mcpTitle, mcpKind } from './adapters/shared/mcp.js';
export { collect, collectValues, type Collected, type InputFile } from './pipeline/collect.js';
export { NormalizePipeline, type NormalizeOptions, type OutputFormat, type OutputRecord, type PipelineSinks, type Summary } from './outputs/pipeline.js';
export { normalizeStream, LiveNormalizer, type LiveOptions, type LiveUpdate, type LiveInput } from './pipeline/live.js';
export { readLines } from './pipeline/lines.js';
export { AcpEncoder, encodeParts, type AcpEncoderOptions, type AcpFrame } from './acp/encoder.js';
export { AcpV2Translator, encodePartsV2, type AcpV2Frame } from './acp/encoder-v2.js';
export { decodeFrames, type Decoded } from './acp/decode.js';
export { ACP_KIND_OF, TOOL_KIND_OF } from './acp/kinds.js';
export { toUiPart, LEGACY_STATES, type UiStateNames } from './ui/to-ui.js';
