// `run` puts hand-written Codex lines through the adapter and the shared reducer
// (test/helpers/run-lines.ts), with lookups for what the tests assert on.
import type { Collected } from '../../src/pipeline/collect.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import type { AdapterOptions } from '../../src/adapters/types.js';
import type { NormalizedToolPart, ToolEvent } from '../../src/contract/index.js';
import { runLines, type Line } from './run-lines.js';

/** One file of lines, named `case.jsonl` unless said (Codex falls back to the file name for a session id). */
export const run = (lines: readonly Line[], options: AdapterOptions = {}, name = 'case.jsonl'): Collected => runLines(codexAdapter, lines, options, name);

export function part(r: Collected, id: string): NormalizedToolPart {
  const found = r.parts.find((p) => p.id === id);
  if (!found) throw new Error(`no part ${id}; parts: ${r.parts.map((p) => p.id).join(', ')}`);
  return found;
}

/** The event types of one part, in order. */
export const eventTypes = (r: Collected, id: string): ToolEvent['type'][] => r.events.filter((e) => e.partId === id).map((e) => e.type);
