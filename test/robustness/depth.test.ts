// The depth rule (src/events/depth.ts): a valid line holding an array nested 5,000 deep inside a
// tool input used to kill the run with "Maximum call stack size exceeded" (exit 1, no summary, the
// parts not yet printed lost) on every provider. Now the value is cut at MAX_INPUT_DEPTH with a
// `depth_limited` diagnostic, the part is produced, and every output line validates.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOfAcpSessionUpdateParams, issuesOfNormalizedToolPart } from '../../src/contract/index.js';
import { MAX_INPUT_DEPTH, cutDepth, depthMarker, exceedsDepth } from '../../src/events/depth.js';
import { sameJson } from '../../src/acp/same-json.js';
import { applyMetadataBudget } from '../../src/events/budget.js';
import { cli } from '../helpers/cli.js';
import { deepArrayText, deepSession } from './deep.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-depth-'));

/** Depth of the deepest container, walked without recursion. */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    max = Math.max(max, d);
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

describe('a line nested 5,000 deep inside a tool input', () => {
  for (const provider of ['claude', 'codex', 'opencode', 'acp'] as const) {
    it(`${provider}: exit 0, one complete part, a depth_limited diagnostic, valid parts and ACP frames`, async () => {
      const file = join(dir, `${provider}.jsonl`);
      const text = deepSession(provider, 5000);
      writeFileSync(file, text);
      expect(text.split('\n').some((l) => l.length >= 10_000)).toBe(true);
      const parts = await cli(['normalize', '--from', provider, '--to', 'parts', '--summary', file]);
      expect(parts.stderr).not.toMatch(/Maximum call stack|\n\s+at /);
      expect(parts.code).toBe(0);
      const diags = parts.stderr.split('\n').filter((l) => l.startsWith('{"severity"')).map((l) => JSON.parse(l) as { code: string; source?: { line?: number } });
      expect(diags.map((d) => d.code)).toContain('depth_limited');
      expect(diags.every((d) => d.code === 'depth_limited')).toBe(true);
      expect(parts.lines).toHaveLength(1);
      const part = parts.lines[0] as { state: string; input: unknown };
      expect(issuesOfNormalizedToolPart(part)).toEqual([]);
      expect(part.state).toBe('complete');
      expect(depthOf(part.input)).toBeLessThanOrEqual(MAX_INPUT_DEPTH);
      expect(JSON.stringify(part.input)).toContain(depthMarker(MAX_INPUT_DEPTH));
      const summary = JSON.parse(parts.stderr.trim().split('\n').at(-1)!) as { parts: number; byState: Record<string, number> };
      expect(summary.parts).toBe(1);
      expect(summary.byState).toEqual({ complete: 1 });

      const acp = await cli(['normalize', '--from', provider, '--to', 'acp', file]);
      expect(acp.code).toBe(0);
      expect(acp.stderr).not.toMatch(/invalid_frame|adapter_error|\n\s+at /);
      expect(acp.lines.length).toBeGreaterThanOrEqual(2);
      for (const m of acp.lines as { params: unknown }[]) expect(issuesOfAcpSessionUpdateParams(m.params)).toEqual([]);
    });
  }
});

describe('the rule', () => {
  it('keeps a value at exactly the limit and cuts one level more, in place, naming the first cut', () => {
    const at = JSON.parse(`{"a":${deepArrayText(MAX_INPUT_DEPTH)}}`) as unknown;
    expect(exceedsDepth(at)).toBe(false);
    expect(cutDepth(at)).toBeUndefined();
    const over = JSON.parse(`{"a":${deepArrayText(MAX_INPUT_DEPTH + 1)},"b":[1]}`) as { a: unknown; b: unknown };
    const cut = cutDepth(over)!;
    expect(cut.cuts).toBe(1);
    expect(cut.path).toBe(`/a${'/0'.repeat(MAX_INPUT_DEPTH)}`);
    expect(depthOf(over)).toBe(MAX_INPUT_DEPTH);
    expect(over.b).toEqual([1]);
  });

  it('tells a 100,000-level value is too deep without recursing into it, through arrays and objects alike', () => {
    expect(exceedsDepth(JSON.parse(deepArrayText(100_000)))).toBe(true);
    const objects = `${'{"k":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(exceedsDepth(JSON.parse(objects))).toBe(true);
    // Exactly at the limit through objects, and one more level.
    expect(exceedsDepth(JSON.parse(`${'{"k":'.repeat(MAX_INPUT_DEPTH + 1)}1${'}'.repeat(MAX_INPUT_DEPTH + 1)}`))).toBe(false);
    expect(exceedsDepth(JSON.parse(`${'{"k":'.repeat(MAX_INPUT_DEPTH + 2)}1${'}'.repeat(MAX_INPUT_DEPTH + 2)}`))).toBe(true);
  });

  it('keeps an own "__proto__" key a key when cutting below it', () => {
    const v = JSON.parse(`{"__proto__":{"x":${deepArrayText(MAX_INPUT_DEPTH + 5)}}}`) as Record<string, unknown>;
    cutDepth(v);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
  });

  it('sameJson and the metadata budget walk 100,000 levels without recursion', () => {
    const a = JSON.parse(deepArrayText(100_000)) as unknown;
    const b = JSON.parse(deepArrayText(100_000)) as unknown;
    const c = JSON.parse(deepArrayText(99_999)) as unknown;
    expect(sameJson(a, b)).toBe(true);
    expect(sameJson(a, c)).toBe(false);
    // The budget serializes (native, bounded by the rule), so it is given a value within the rule.
    const meta = JSON.parse(`{"provider":"claude","blob":{"deep":${deepArrayText(MAX_INPUT_DEPTH - 2).replace('"x"', JSON.stringify('y'.repeat(40_000)))}}}`) as never;
    const { truncated } = applyMetadataBudget(meta, 1024);
    expect(truncated.length).toBeGreaterThan(0);
  });
});
