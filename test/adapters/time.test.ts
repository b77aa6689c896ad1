// toEpochMs reads the common ISO form by hand (Date.parse is a large share of a small line's
// cost). It reads ISO-8601 only (src/adapters/shared/time.ts): on every such string it must agree
// with Date.parse, and it must never read a time Date.parse does not give. Date.parse also reads
// looser forms ("1970-01-01:00:00:00.000Z" and the like); those are unreadable times here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toEpochMs } from '../../src/adapters/shared/time.js';

const expected = (s: string) => {
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
};

/** The date-time forms the rule reads, as a mutation of `toISOString()` can produce them. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** ISO strings with every field drawn from a range wider than valid, so edges and overflows occur. */
const isoLike = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }))
  .map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);

describe('toEpochMs', () => {
  it('agrees with Date.parse on ISO-shaped strings, valid or out of range (10k cases)', () => {
    fc.assert(fc.property(isoLike, (s) => { expect(toEpochMs(s)).toBe(expected(s)); }), { numRuns: 10_000 });
  });

  it('one character of a timestamp replaced: what it reads, Date.parse reads the same; an ISO form Date.parse reads, it reads (10k cases)', () => {
    const base = fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    fc.assert(fc.property(base, fc.nat(23), fc.oneof(fc.constantFrom(...'0123456789-:.TZ +'), fc.string({ minLength: 1, maxLength: 1 })), (s, i, c) => {
      const t = s.slice(0, i) + c + s.slice(i + 1);
      const got = toEpochMs(t);
      // A comma fraction is ISO-8601's other spelling; a zone-less time is read as UTC.
      const asDate = expected(/(Z|[+-]\d{2}:\d{2})$/.test(t) ? t.replace(',', '.') : `${t.replace(',', '.')}Z`);
      if (got !== undefined) expect(got).toBe(asDate);
      else if (ISO_DATE_TIME.test(t)) expect(asDate).toBeUndefined();
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
