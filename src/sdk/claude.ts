// `toolnorm/claude-agent-sdk`: Claude Agent SDK messages in, live part updates out.
//   for await (const u of normalizeClaudeMessages(query({ prompt }))) render(u);
// The SDK's types are a type-only import: nothing of @anthropic-ai/claude-agent-sdk loads at run time.
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { LiveNormalizer, normalizeStream, type LiveOptions, type LiveUpdate } from '../pipeline/live.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type ClaudeLiveOptions = Omit<LiveOptions, 'from'>;

/** Each part's new state as `query()`'s messages arrive (also: stream-json lines parsed by the caller). */
export function normalizeClaudeMessages(messages: AsyncIterable<SDKMessage> | Iterable<SDKMessage>, options: ClaudeLiveOptions = {}): AsyncGenerator<LiveUpdate, void, undefined> {
  return normalizeStream(messages, { ...options, from: 'claude' });
}

/** A push-style normalizer for callers that already have their own message loop. */
export interface ClaudeNormalizer {
  push(message: SDKMessage): LiveUpdate[];
  end(): LiveUpdate[];
}

export function claudeNormalizer(options: ClaudeLiveOptions = {}): ClaudeNormalizer {
  const live = new LiveNormalizer({ ...options, from: 'claude' });
  return { push: (m) => live.push(m), end: () => live.end() };
}
