// Every input format `toolnorm normalize --from` knows, in auto-detection tie-break order.
import type { AdapterDefinition, AdapterId } from './types.js';
import { claudeAdapter } from './claude/index.js';
import { codexAdapter } from './codex/index.js';
import { opencodeAdapter } from './opencode/index.js';
import { acpAdapter } from './acp/index.js';
import { eventsAdapter } from './events/index.js';

export const ADAPTERS: readonly AdapterDefinition[] = [eventsAdapter, claudeAdapter, codexAdapter, opencodeAdapter, acpAdapter];

/** A provider (input format) id: `claude`, `codex`, `opencode`, `acp` or `events`. */
export type ProviderId = AdapterId;

/**
 * The adapter for a provider id. A literal id is checked at compile time and always found
 * (`adapterById('claude')` is an AdapterDefinition; a typo such as `'claud'` does not compile); a
 * run-time string (a flag, a config value) may name none, so its result may be undefined.
 */
export function adapterById<const T extends string>(id: T & (string extends T ? string : ProviderId)): string extends T ? AdapterDefinition | undefined : AdapterDefinition;
export function adapterById(id: string): AdapterDefinition | undefined {
  return ADAPTERS.find((a) => a.id === id);
}

/** Whether a run-time string is a provider id (then `adapterById` finds it). */
export function isProviderId(id: string): id is ProviderId {
  return ADAPTERS.some((a) => a.id === id);
}

export const ADAPTER_IDS = ADAPTERS.map((a) => a.id) as AdapterId[];

/** Picks the adapter most confident about the sample; undefined when none is. */
export function detectAdapter(sample: { lines: readonly string[]; file?: string }): { adapter: AdapterDefinition; score: number } | undefined {
  let best: { adapter: AdapterDefinition; score: number } | undefined;
  for (const adapter of ADAPTERS) {
    let score = 0;
    try {
      score = adapter.sniff(sample);
    } catch {
      score = 0;
    }
    if (score > 0 && (!best || score > best.score)) best = { adapter, score };
  }
  return best;
}
