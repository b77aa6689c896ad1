// toEpochMs reads the common ISO form by hand (Date.parse is a large share of a small line's
// cost); it must agree with Date.parse on every string, well-formed or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toEpochMs } from '../../src/adapters/shared/time.js';

const expected = (s: string) => {
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
};

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** ISO strings with every field drawn from a range wider than valid, so edges and overflows occur. */
const isoLike = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }))
  .map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);

describe('toEpochMs', () => {
  it('agrees with Date.parse on ISO-shaped strings, valid or out of range (10k cases)', () => {
    fc.assert(fc.property(isoLike, (s) => { expect(toEpochMs(s)).toBe(expected(s)); }), { numRuns: 10_000 });
  });

  it('agrees with Date.parse when one character of a timestamp is replaced (10k cases)', () => {
    const base = fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    fc.assert(fc.property(base, fc.nat(23), fc.oneof(fc.constantFrom(...'0123456789-:.TZ +'), fc.string({ minLength: 1, maxLength: 1 })), (s, i, c) => {
      const t = s.slice(0, i) + c + s.slice(i + 1);
      expect(toEpochMs(t)).toBe(expected(t));
    }), { numRuns: 10_000 });
  });

  it('reads the edge cases Date.parse treats specially', () => {
    for (const s of ['2026-01-01T24:00:00.000Z', '0050-06-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '2026-02-30T00:00:00.000Z', '2026-02-10T21:54:15.897Z', '2026-02-10T21:54:15Z', '2026-02-10T21:54:15.897+01:00', '2026-02-10 21:54:15.897Z', '+2026-02-10T21:54:15.897Z']) {
      expect(toEpochMs(s), s).toBe(expected(s));
    }
    expect(toEpochMs('2026-02-10T21:54:15.897Z')).toBe(1770760455897);
    expect(toEpochMs('not a time')).toBeUndefined();
    expect(toEpochMs(1770760455)).toBe(1770760455000);
  });
});
