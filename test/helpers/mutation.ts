// Shared by the adapters' robustness property tests: recorded lines with one value replaced or a
// field dropped, and the two things every adapter's output must keep however its input is broken.
import fc from 'fast-check';
import { expect } from 'vitest';
import { issuesOfToolEvent, type Diagnostic, type ToolEvent } from '../../src/contract/index.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Replacement values for `mutate`: every JSON kind, a deletion, and the adapter's own steering words. */
export function mutationValue(words: readonly string[]): fc.Arbitrary<Json | undefined> {
  return fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant<Json>([]),
    fc.constant<Json>({}),
    fc.constantFrom(...words),
  );
}

/** Replaces the value at a random path (chosen by `pick`) with `value`, or deletes it. */
export function mutate(v: Json, pick: number[], value: Json | undefined): Json {
  if (!pick.length || v === null || typeof v !== 'object') return value === undefined ? null : value;
  const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  if (!keys.length) return v;
  const k = keys[pick[0]! % keys.length]!;
  const copy: any = Array.isArray(v) ? [...v] : { ...v };
  if (pick.length === 1 && value === undefined && !Array.isArray(v)) delete copy[k];
  else copy[k] = mutate(copy[k], pick.slice(1), value);
  return copy;
}

/** Every event validates, and no part ends twice. */
export function expectValidEventsOneTerminalEach(events: readonly ToolEvent[]): void {
  const terminal = new Map<string, number>();
  for (const ev of events) {
    expect(issuesOfToolEvent(ev), JSON.stringify(ev).slice(0, 300)).toEqual([]);
    if (ev.type === 'tool.completed' || ev.type === 'tool.failed') {
      const k = `${ev.sessionId}/${ev.partId}`;
      terminal.set(k, (terminal.get(k) ?? 0) + 1);
    }
  }
  for (const [k, n] of terminal) expect(n, k).toBe(1);
}

/** Arbitrary JSON values and text as lines: every event still validates, every diagnostic says why. */
export function assertArbitraryLinesReported(run: (lines: string[]) => { events: readonly ToolEvent[]; diagnostics: readonly Diagnostic[] }): void {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.json(), fc.string()), { maxLength: 30 }), (input) => {
      const { events, diagnostics } = run(input);
      for (const ev of events) expect(issuesOfToolEvent(ev)).toEqual([]);
      expect(diagnostics.every((d) => typeof d.message === 'string' && d.message.length > 0)).toBe(true);
    }),
    { numRuns: 300 },
  );
}
