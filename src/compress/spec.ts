// Loading a spec: the schema check, then the rules the schema cannot say.
import { assertOutputCompressionSpec, type CompressionStep, type OutputCompressionSpec } from '../contract/index.js';
import { unknownPlaceholders } from './marker.js';

export type CutStep = Extract<CompressionStep, { type: 'head_tail' | 'head' | 'tail' }>;
export const CUT_STEPS: ReadonlySet<CompressionStep['type']> = new Set(['head_tail', 'head', 'tail']);

export class SpecError extends Error {
  constructor(readonly specId: string, detail: string) {
    super(`compression spec "${specId}": ${detail}`);
    this.name = 'SpecError';
  }
}

/**
 * Returns the spec when it is usable, else throws naming the spec and the rule: schema-valid, at
 * most one cut step and it comes last (a cut is what guarantees the budget), known marker
 * placeholders.
 * @contract OutputCompressionSpec
 */
export function checkSpec(value: unknown): OutputCompressionSpec {
  const spec = assertOutputCompressionSpec(value);
  const cuts = spec.strategy.filter((s) => CUT_STEPS.has(s.type));
  if (cuts.length > 1) throw new SpecError(spec.id, `has ${cuts.length} cut steps (${cuts.map((c) => c.type).join(', ')}); at most one of head_tail, head and tail is allowed`);
  if (cuts.length === 1 && !CUT_STEPS.has(spec.strategy.at(-1)!.type)) {
    throw new SpecError(spec.id, `its cut step ${cuts[0]!.type} must be the last step, after ${spec.strategy.map((s) => s.type).join(', ')}`);
  }
  const unknown = spec.marker === undefined ? [] : unknownPlaceholders(spec.marker);
  if (unknown.length) throw new SpecError(spec.id, `marker uses unknown placeholder(s) ${unknown.map((u) => `{${u}}`).join(', ')}`);
  return spec;
}

/** The cut a spec makes: its own cut step, or head_tail at 0.5 when it has none (so the budget always holds). */
export function cutOf(spec: OutputCompressionSpec): { step: CutStep; implicit: boolean } {
  const last = spec.strategy.at(-1)!;
  return CUT_STEPS.has(last.type) ? { step: last as CutStep, implicit: false } : { step: { type: 'head_tail', headRatio: 0.5 }, implicit: true };
}

export function headRatioOf(step: CutStep): number {
  if (step.type === 'head') return 1;
  if (step.type === 'tail') return 0;
  return step.headRatio ?? 0.5;
}
