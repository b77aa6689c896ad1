// Hand-written input through a real adapter: the one way the provider suites run their lines.
// `runLines` goes through the shared reducer (parts, sessions, diagnostics, as `collect` gives
// them); `adapterEvents` stops at the adapter (its raw events, for the robustness properties).
import type { AdapterDefinition, AdapterOptions } from '../../src/adapters/types.js';
import type { Diagnostic, ToolEvent } from '../../src/contract/index.js';
import { collect, type Collected, type InputFile } from '../../src/pipeline/collect.js';

/** An input line: an object is written as its JSON, a string as it is. */
export type Line = object | string;
/** A named input file of hand-written lines (a transcript and its subagent files, say). */
export interface LinesFile {
  name: string;
  lines: readonly Line[];
}

export const jsonl = (lines: readonly Line[]): string => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

type Input = string | readonly Line[] | readonly LinesFile[] | readonly InputFile[];

const named = (input: Input, key: 'lines' | 'text'): boolean =>
  Array.isArray(input) && input.length > 0 && typeof input[0] === 'object' && input[0] !== null && key in input[0] && 'name' in input[0];

/**
 * Runs lines, ready text, or several named files (of lines or of text) through the adapter and the
 * reducer. With a `name`, lines or text are one file of that name (Codex derives a fallback session
 * id from it); without, they are unnamed input, as on stdin.
 */
export function runLines(adapter: AdapterDefinition, input: Input, options: AdapterOptions = {}, name?: string): Collected {
  if (named(input, 'lines')) return collect(adapter, (input as readonly LinesFile[]).map((f) => ({ name: f.name, text: jsonl(f.lines) })), options);
  if (named(input, 'text')) return collect(adapter, [...(input as readonly InputFile[])], options);
  const text = typeof input === 'string' ? input : jsonl(input as readonly Line[]);
  return collect(adapter, name === undefined ? text : [{ name, text }], options);
}

/** The adapter's own events and diagnostics for these lines, with a fixed clock and no reducer. */
export function adapterEvents(adapter: AdapterDefinition, lines: readonly string[]): { events: ToolEvent[]; diagnostics: Diagnostic[] } {
  const events: ToolEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  const a = adapter.create({ event: (e) => events.push(e), diagnostic: (d) => diagnostics.push(d) }, { clock: () => 0 });
  lines.forEach((l, i) => a.line(l, { line: i + 1, offset: 0 }));
  a.end();
  return { events, diagnostics };
}
