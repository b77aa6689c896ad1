// Never throw on input: fixture lines with values replaced, fields dropped, lines cut and shuffled
// still go through, every event the adapter emits validates, and nothing is emitted twice as
// terminal for one part.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { fixtureFiles } from '../helpers/golden-cases.js';
import { assertArbitraryLinesReported, expectValidEventsOneTerminalEach, mutate, mutationValue, type Json } from '../helpers/mutation.js';
import { adapterEvents } from '../helpers/run-lines.js';

const lines = fixtureFiles('codex', (f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()));


const runAdapter = (input: string[]) => adapterEvents(codexAdapter, input);

const value = mutationValue([
  'inProgress', 'completed', 'failed', 'declined', 'interrupted', 'in_progress', 'item/started', 'function_call', 'web_search', 'commandExecution',
]);

describe('codex adapter robustness', () => {
  it('mutated fixture lines never throw and produce only valid events, one terminal per part', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            line: fc.integer({ min: 0, max: lines.length - 1 }),
            path: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
            value,
            cut: fc.option(fc.nat(), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (edits) => {
          const input = edits.map((e) => {
            const raw = lines[e.line]!;
            if (e.cut !== undefined) return raw.slice(0, e.cut % raw.length);
            return JSON.stringify(mutate(JSON.parse(raw) as Json, e.path, e.value));
          });
          const { events } = runAdapter(input);
          expectValidEventsOneTerminalEach(events);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON and text lines are reported, not thrown', () => {
    assertArbitraryLinesReported(runAdapter);
  });
});
