// sameJson decides what the ACP encoder resends; it must answer exactly what comparing the two
// JSON.stringify results would, for every value the encoder can see and the odd ones JSON allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/acp/same-json.js';

const reference = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const leaf = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -0, 1, NaN, Infinity, -Infinity, '', 'a', '1', 'null'),
  fc.integer({ min: -3, max: 3 }),
  fc.string({ maxLength: 3 }),
);
// Few keys, some of them integer-like (those come first in Object.keys and JSON order).
const key = fc.constantFrom('a', 'b', 'c', '0', '1', '10', 'toString');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries) o[k] = v;
    return o;
  }),
}));

/** A copy of `v` that JSON.stringify usually writes the same way, or with one change. */
function variant(v: unknown, choice: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => (i === choice % Math.max(v.length, 1) ? variant(x, choice >> 1) : x));
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (choice % 5 === 0) entries.reverse(); // same members, other order (differs unless keys are integer-like)
    return Object.fromEntries(entries.map(([k, x], i) => [k, i === choice % Math.max(entries.length, 1) ? variant(x, choice >> 1) : x]));
  }
  switch (choice % 7) {
    case 0: return typeof v === 'number' ? -v : v; // 0 and -0, NaN stays NaN
    case 1: return v === undefined ? null : v;
    case 2: return typeof v === 'number' && !Number.isFinite(v) ? null : v;
    case 3: return typeof v === 'string' ? `${v}x` : v;
    default: return v;
  }
}

describe('sameJson', () => {
  it('equals comparing JSON.stringify results, on related and unrelated values (20k pairs)', () => {
    let equal = 0;
    fc.assert(fc.property(value, value, fc.nat(), fc.boolean(), (a, other, choice, related) => {
      const b = related ? variant(a, choice) : other;
      const want = reference(a, b);
      if (want) equal++;
      expect(sameJson(a, b)).toBe(want);
      expect(sameJson(b, a)).toBe(want);
    }), { numRuns: 20_000 });
    // The generator must reach both answers often, or the property says little.
    expect(equal).toBeGreaterThan(2_000);
  });

  it('follows JSON.stringify on the values it writes specially', () => {
    expect(sameJson({ a: undefined, b: 1 }, { b: 1 })).toBe(true);
    expect(sameJson([undefined, () => 1], [null, null])).toBe(true);
    // eslint-disable-next-line no-sparse-arrays
    expect(sameJson([1, , 3], [1, null, 3])).toBe(true);
    expect(sameJson(NaN, null)).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ 1: 'x', a: 'y' }, { a: 'y', 1: 'x' })).toBe(true);
    expect(sameJson(new Date(0), '1970-01-01T00:00:00.000Z')).toBe(true);
    expect(sameJson({ toJSON: () => 'x' }, 'x')).toBe(true);
    expect(sameJson(undefined, null)).toBe(false);
    expect(sameJson('x'.repeat(1000), 'x'.repeat(999))).toBe(false);
  });
});
