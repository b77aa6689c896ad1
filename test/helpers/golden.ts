// Golden-file helpers shared by the provider suites: what `toolnorm normalize --to acp` prints for
// a fixture, and a golden reader that never creates a missing file silently (a golden is checked
// by hand once: regenerate with UPDATE_GOLDEN=1, review the diff, commit).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AdapterDefinition, AdapterOptions } from '../../src/adapters/types.js';
import { splitLines, type InputFile } from '../../src/pipeline/collect.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { REPO_ROOT } from './corpus.js';

export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** Diagnostics that mean toolnorm broke the contract itself, never the input. */
const CONTRACT_BUGS = new Set(['invalid_event', 'invalid_frame', 'adapter_error']);

/**
 * The ACP messages the streaming pipeline prints for these inputs (no clock: times only from the
 * input). Every event is checked (`validate: 'all'`): the streaming pipeline trusts toolnorm's own
 * adapters, and this suite is one of those that hold them to the contract, so a broken event fails it.
 */
export function acpFramesOf(adapter: AdapterDefinition, inputs: readonly InputFile[], options: AdapterOptions = {}): unknown[] {
  const frames: unknown[] = [];
  const bugs: string[] = [];
  const p = new NormalizePipeline(adapter, { to: 'acp', ...options, validate: 'all' }, { output: (r) => frames.push(r), diagnostic: (d) => { if (CONTRACT_BUGS.has(d.code)) bugs.push(`${d.code}: ${d.message}`); } });
  for (const f of inputs) {
    p.beginFile(f.name);
    for (const [i, l] of splitLines(f.text).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: f.name });
    p.endFile(f.name);
  }
  p.end();
  if (bugs.length) throw new Error(`the ${adapter.id} adapter broke the contract on ${inputs.map((f) => f.name).join(', ')}:\n${bugs.slice(0, 5).join('\n')}`);
  return frames;
}

/** The expected value stored in `dir/file`; with UPDATE_GOLDEN=1 it is (re)written from `actual` first. */
export function golden(dir: string, file: string, actual: unknown): unknown {
  if (UPDATE_GOLDEN) writeFileSync(join(dir, file), `${JSON.stringify(actual, null, 2)}\n`);
  return storedGolden(dir, file);
}

/** The expected value stored in `dir/file`, never rewritten (for a golden that must equal another's files). */
export function storedGolden(dir: string, file: string): unknown {
  const path = join(dir, file);
  if (!existsSync(path)) throw new Error(`missing golden file ${relative(REPO_ROOT, path)}: run with UPDATE_GOLDEN=1, review it by hand, and commit it`);
  return JSON.parse(readFileSync(path, 'utf8'));
}
