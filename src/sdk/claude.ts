// `toolnorm/claude-agent-sdk`: Claude Agent SDK messages in, live part updates out.
//   for await (const u of normalizeClaudeMessages(query({ prompt }))) render(u);
// The SDK's types are a type-only import: nothing of @anthropic-ai/claude-agent-sdk loads at run time.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { typedEntry, type TypedLiveOptions, type TypedNormalizer } from './typed.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type ClaudeLiveOptions = TypedLiveOptions;
export type ClaudeNormalizer = TypedNormalizer<SDKMessage>;

const entry = typedEntry<SDKMessage>('claude');
/** Each part's new state as `query()`'s messages arrive (also: stream-json lines parsed by the caller). */
export const normalizeClaudeMessages = entry.stream;
export const claudeNormalizer = entry.normalizer;
