// Runs hand-written Codex lines through the adapter and the shared reducer.
import { collect, type Collected } from '../../src/pipeline/collect.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import type { AdapterOptions } from '../../src/adapters/types.js';
import type { NormalizedToolPart, ToolEvent } from '../../src/contract/index.js';

export function run(lines: readonly (object | string)[], options: AdapterOptions = {}, name = 'case.jsonl'): Collected {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  return collect(codexAdapter, [{ name, text }], options);
}

export function part(r: Collected, id: string): NormalizedToolPart {
  const found = r.parts.find((p) => p.id === id);
  if (!found) throw new Error(`no part ${id}; parts: ${r.parts.map((p) => p.id).join(', ')}`);
  return found;
}

/** The event types of one part, in order. */
export const eventTypes = (r: Collected, id: string): ToolEvent['type'][] => r.events.filter((e) => e.partId === id).map((e) => e.type);
