// `toolnorm/opencode-sdk`: OpenCode SDK bus events in, live part updates out.
//   const { stream } = await client.event.subscribe();
//   for await (const u of normalizeOpenCodeEvents(stream)) render(u);
// Both SDK generations' `Event` unions are accepted (`@opencode-ai/sdk` and `@opencode-ai/sdk/v2`),
// as are `/global/event` envelopes. Type-only imports: nothing of the SDK loads at run time.
import type { Event as EventV1 } from '@opencode-ai/sdk';
import type { Event as EventV2, GlobalEvent } from '@opencode-ai/sdk/v2';
import { LiveNormalizer, normalizeStream, type LiveOptions, type LiveUpdate } from '../pipeline/live.js';

export type { LiveUpdate, LiveOptions } from '../pipeline/live.js';
export type OpenCodeLiveOptions = Omit<LiveOptions, 'from'>;
/** What `event.subscribe()` yields: an `Event` of either SDK generation, or a `/global/event` envelope. */
export type OpenCodeEvent = EventV1 | EventV2 | GlobalEvent;

export function normalizeOpenCodeEvents(events: AsyncIterable<OpenCodeEvent> | Iterable<OpenCodeEvent>, options: OpenCodeLiveOptions = {}): AsyncGenerator<LiveUpdate, void, undefined> {
  return normalizeStream(events, { ...options, from: 'opencode' });
}

export interface OpenCodeNormalizer {
  push(event: OpenCodeEvent): LiveUpdate[];
  end(): LiveUpdate[];
}

export function openCodeNormalizer(options: OpenCodeLiveOptions = {}): OpenCodeNormalizer {
  const live = new LiveNormalizer({ ...options, from: 'opencode' });
  return { push: (e) => live.push(e), end: () => live.end() };
}
