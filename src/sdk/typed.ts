// The typed live entry points are one generic pair per provider SDK, typed by the SDK's own
// message type so a wrong object is a compile error (test/types/sdk-entry-points.ts).
import { LiveNormalizer, normalizeStream, type LiveOptions, type LiveUpdate } from '../pipeline/live.js';
import type { AdapterId } from '../adapters/types.js';

export type TypedLiveOptions = Omit<LiveOptions, 'from'>;

/** A push-style normalizer for callers that already have their own message loop. */
export interface TypedNormalizer<M> {
  /** Reads one SDK message and returns the updates it caused, in order. */
  push(message: M): LiveUpdate[];
  /** End of input: flushes what the adapter buffered. */
  end(): LiveUpdate[];
}

export function typedEntry<M>(from: AdapterId): {
  stream: (messages: AsyncIterable<M> | Iterable<M>, options?: TypedLiveOptions) => AsyncGenerator<LiveUpdate, void, undefined>;
  normalizer: (options?: TypedLiveOptions) => TypedNormalizer<M>;
} {
  return {
    stream: (messages, options = {}) => normalizeStream(messages, { ...options, from }),
    normalizer: (options = {}) => {
      const live = new LiveNormalizer({ ...options, from });
      return { push: (m) => live.push(m), end: () => live.end() };
    },
  };
}
