// toolnorm/ai-sdk: tool parts and UI message chunks for the Vercel AI SDK 6 and 7 (see docs/outputs.md).
import type { StreamEncoderFactory } from '../pipeline/encoder.js';
import { toAiSdkPart } from './part.js';
import type { AiSdkOptions } from './types.js';

export { AI_SDK_STATES, aiSdkState, approvalIdOf, isDenied, providerMetadataOf, toAiSdkPart } from './part.js';
export { AiSdkChunkEncoder, aiSdkChunksOf, aiSdkStreamEncoder } from './chunks.js';
export type { AiSdkChunk, AiSdkOptions, AiSdkToolPart, AiSdkToolState, JsonValue, ProviderMetadata } from './types.js';

/** Pipeline encoder for `--to ai-sdk`: one tool part per final part. */
export const aiSdkPartEncoder = (options: Omit<AiSdkOptions, 'sessionId'> = {}): StreamEncoderFactory => (sinks) => ({
  final: (sessionId, part) => sinks.output(toAiSdkPart(part, { ...options, sessionId })),
});
