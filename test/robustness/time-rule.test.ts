// The one rule adapters read provider times with (src/adapters/shared/time.ts): any instant a
// Date can hold, before 1970 too; ISO-8601 strings only (not whatever Date.parse guesses at);
// numbers in the field's unit; everything else unreadable, with the reason.
import { describe, expect, it } from 'vitest';
import { MAX_EPOCH_MS, readTime, toEpochMs, UnreadableTime } from '../../src/adapters/shared/time.js';

describe('readTime: the one rule', () => {
  it('any ISO string Date writes reads back as its time, before 1970, past 9999 and at both ends of the range', () => {
    const samples = [0, -1, 1, -2_737_080_392, 1_796_025_019_067, -62_135_596_800_000, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000, MAX_EPOCH_MS, -MAX_EPOCH_MS];
    for (let i = 0; i < 2000; i++) samples.push(Math.round((i / 2000 - 0.5) * 2 * MAX_EPOCH_MS));
    for (const ms of samples) expect(readTime(new Date(ms).toISOString(), 'auto')).toBe(ms);
  });
  it('agrees with Date.parse on the ISO forms it takes (zone, no seconds, a date alone, a long fraction)', () => {
    for (const s of ['2026-11-30T07:41:59Z', '2026-11-30T07:41Z', '2026-11-30', '2026-11-30T07:41:59.608123Z', '2026-11-30T07:41:59.608+02:00', '1969-12-31T23:59:59.999-05:30', '0000-01-01T00:00:00.000Z', '2026-02-31T00:00:00.000Z', '2026-11-30T24:00:00Z']) {
      expect(readTime(s, 'auto')).toBe(Date.parse(s));
    }
  });
  it('a date-time without a zone is UTC, whatever the machine\'s zone (Date.parse would read it as local time)', () => {
    expect(readTime('2026-11-30T07:41:59.608', 'auto')).toBe(Date.UTC(2026, 10, 30, 7, 41, 59, 608));
  });
  it('unreadable: past the range, not ISO (Date.parse takes "1" as 2001), fields out of range, not finite, not a string or number', () => {
    const why = (v: unknown, unit: 'ms' | 's' | 'auto' = 'auto') => {
      const t = readTime(v, unit);
      return t instanceof UnreadableTime ? t.why : `read as ${String(t)}`;
    };
    expect(Date.parse('1')).not.toBeNaN();
    expect(why('1')).toMatch(/not an ISO-8601/);
    expect(why('+275760-09-13T00:00:00.001Z')).toMatch(/outside the range/);
    expect(why('+275761-11-30T07:41:59.608Z')).toMatch(/outside the range/);
    expect(why('275760-11-30T07:41:59.608Z')).toMatch(/not an ISO-8601/);
    expect(why('-000000-01-01T00:00:00Z')).toMatch(/year −000000/);
    expect(why('2026-13-01T00:00:00.000Z')).toMatch(/out of range/);
    expect(why('2026-11-30T07:61:00.000Z')).toMatch(/out of range/);
    expect(why('garbage')).toMatch(/not an ISO-8601/);
    expect(why('')).toMatch(/not an ISO-8601/);
    expect(why(Number.NaN)).toMatch(/not a finite number/);
    expect(why(Number.POSITIVE_INFINITY, 'ms')).toMatch(/not a finite number/);
    expect(why(MAX_EPOCH_MS + 1, 'ms')).toMatch(/outside the range/);
    expect(why(MAX_EPOCH_MS / 1000 + 1, 's')).toMatch(/outside the range/);
    expect(why({ at: 1 })).toMatch(/an object, not a time/);
    expect(why([1])).toMatch(/a list, not a time/);
    expect(why(true)).toMatch(/a boolean, not a time/);
    expect(readTime(undefined, 'ms')).toBeUndefined();
    expect(readTime(null, 'ms')).toBeUndefined();
  });
  it('numbers: the field\'s unit, or seconds below 1e11 in magnitude when the unit is not fixed; negatives too', () => {
    expect(readTime(1_796_025_019, 'auto')).toBe(1_796_025_019_000);
    expect(readTime(1_796_025_019_067, 'auto')).toBe(1_796_025_019_067);
    expect(readTime(-2_737_080, 'auto')).toBe(-2_737_080_000);
    expect(readTime(-2_737_080_392, 'ms')).toBe(-2_737_080_392);
    expect(readTime(-2_737_080.5, 's')).toBe(-2_737_080_500);
    expect(toEpochMs('yesterday')).toBeUndefined();
  });
});

