// The fuzz families of `npm run fuzz` (fuzz/families.ts) as fast-check properties, 10,000 cases per
// provider, run in-process through the same pipeline the CLI uses (bytes decoded as the CLI's line
// reader does) and checked by the same checker (fuzz/check.ts): no throw, every output line valid,
// no adapter failure or contract break, and the summary reconciled. Sizes are small (300 levels,
// 64 KB strings) so a case stays cheap; the depth rule still cuts at 256.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { FAMILIES, caseFor, type Sizes } from '../../fuzz/families.js';
import { FUZZ_PROVIDERS, corpusLines } from '../../fuzz/corpus.js';
import { RunChecker, type FuzzOutput } from '../../fuzz/check.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const SIZES: Sizes = { deep: 300, huge: 64 * 1024 };
const RUNS = 10_000;

function runCase(provider: string, lines: Buffer[], to: FuzzOutput): string[] {
  const check = new RunChecker(to);
  const p = new NormalizePipeline(adapterById(provider)!, { to, clock: () => 0, validate: 'all' }, { output: (r) => { check.outputLines++; check.outputRecord(r); }, diagnostic: (d) => check.diagnostic(d) });
  p.beginFile('fuzz.jsonl');
  let offset = 0;
  lines.forEach((b, i) => {
    p.line(b.toString('utf8'), { line: i + 1, offset, file: 'fuzz.jsonl' });
    offset += b.length + 1;
  });
  p.endFile('fuzz.jsonl');
  check.summary = p.end();
  return check.finish(0, lines.length);
}

describe('fuzz families as properties', () => {
  for (const provider of FUZZ_PROVIDERS) {
    const corpus = corpusLines(provider, REPO_ROOT);
    it(`${provider}: ${RUNS} mutated cases keep every invariant`, () => {
      // Seed lines: the repo's fixtures, plus ../shared/corpus when it is there (a clone without it
      // has 50 OpenCode fixture lines, so the floor is what the fixtures alone guarantee).
      expect(corpus.length).toBeGreaterThanOrEqual(30);
      const seen = new Set<string>();
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...FAMILIES), fc.constantFrom<FuzzOutput>('parts', 'acp'), (seed, family, to) => {
          seen.add(family);
          const { lines } = caseFor(corpus, seed, SIZES, family);
          const problems = runCase(provider, lines, to);
          expect(problems, `${family} seed ${seed}: ${lines.map((l) => l.toString('latin1').slice(0, 300)).join('\n')}`).toEqual([]);
        }),
        { numRuns: RUNS },
      );
      expect(seen.size).toBe(FAMILIES.length);
    });
  }
});
