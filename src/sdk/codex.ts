// `toolnorm/codex-sdk`: Codex SDK thread events in, live part updates out.
//   const { events } = await thread.runStreamed(prompt);
//   for await (const u of normalizeCodexEvents(events)) render(u);
// The SDK's types are a type-only import: nothing of @openai/codex-sdk loads at run time.
import type { ThreadEvent } from '@openai/codex-sdk';
import { typedEntry, type TypedLiveOptions, type TypedNormalizer } from './typed.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type CodexLiveOptions = TypedLiveOptions;
export type CodexNormalizer = TypedNormalizer<ThreadEvent>;

const entry = typedEntry<ThreadEvent>('codex');
/** Each part's new state as `runStreamed()`'s events arrive (the same objects as `codex exec --json`). */
export const normalizeCodexEvents = entry.stream;
export const codexNormalizer = entry.normalizer;
