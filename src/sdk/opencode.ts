// `toolnorm/opencode-sdk`: OpenCode SDK bus events in, live part updates out.
//   const { stream } = await client.event.subscribe();
//   for await (const u of normalizeOpenCodeEvents(stream)) render(u);
// Both SDK generations' `Event` unions are accepted (`@opencode-ai/sdk` and `@opencode-ai/sdk/v2`),
// as are `/global/event` envelopes. Type-only imports: nothing of the SDK loads at run time.
import type { Event as EventV1 } from '@opencode-ai/sdk';
import type { Event as EventV2, GlobalEvent } from '@opencode-ai/sdk/v2';
import { typedEntry, type TypedLiveOptions, type TypedNormalizer } from './typed.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type OpenCodeLiveOptions = TypedLiveOptions;
/** What `event.subscribe()` yields: an `Event` of either SDK generation, or a `/global/event` envelope. */
export type OpenCodeEvent = EventV1 | EventV2 | GlobalEvent;
export type OpenCodeNormalizer = TypedNormalizer<OpenCodeEvent>;

const entry = typedEntry<OpenCodeEvent>('opencode');
export const normalizeOpenCodeEvents = entry.stream;
export const openCodeNormalizer = entry.normalizer;
