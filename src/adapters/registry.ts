// Every input format `toolnorm normalize --from` knows, in auto-detection tie-break order.
import type { AdapterDefinition, AdapterId } from './types.js';
import { claudeAdapter } from './claude/index.js';
import { codexAdapter } from './codex/index.js';
import { opencodeAdapter } from './opencode/index.js';
import { acpAdapter } from './acp/index.js';
import { eventsAdapter } from './events/index.js';

export const ADAPTERS: readonly AdapterDefinition[] = [eventsAdapter, claudeAdapter, codexAdapter, opencodeAdapter, acpAdapter];

export function adapterById(id: string): AdapterDefinition | undefined {
  return ADAPTERS.find((a) => a.id === id);
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
