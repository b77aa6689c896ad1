// `toolnorm/codex-sdk`: Codex SDK thread events in, live part updates out.
//   const { events } = await thread.runStreamed(prompt);
//   for await (const u of normalizeCodexEvents(events)) render(u);
// The SDK's types are a type-only import: nothing of @openai/codex-sdk loads at run time.
import type { ThreadEvent } from '@openai/codex-sdk';
import { LiveNormalizer, normalizeStream, type LiveOptions, type LiveUpdate } from '../pipeline/live.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type CodexLiveOptions = Omit<LiveOptions, 'from'>;

/** Each part's new state as `runStreamed()`'s events arrive (the same objects as `codex exec --json`). */
export function normalizeCodexEvents(events: AsyncIterable<ThreadEvent> | Iterable<ThreadEvent>, options: CodexLiveOptions = {}): AsyncGenerator<LiveUpdate, void, undefined> {
  return normalizeStream(events, { ...options, from: 'codex' });
}

export interface CodexNormalizer {
  push(event: ThreadEvent): LiveUpdate[];
  end(): LiveUpdate[];
}

export function codexNormalizer(options: CodexLiveOptions = {}): CodexNormalizer {
  const live = new LiveNormalizer({ ...options, from: 'codex' });
  return { push: (e) => live.push(e), end: () => live.end() };
}
