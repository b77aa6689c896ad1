// The one rule every adapter reads a provider time with (docs/contract.md#times).
//
// A time is any instant a JavaScript Date can hold: ±8.64e15 ms around 1970-01-01, that is from
// −271821-04-20 to +275760-09-13, before 1970 too (the contract takes negative epoch ms). Absent
// (undefined or null) reads as no time. Anything else is unreadable: NaN or ±Infinity, a number
// past that range, a string that is not ISO-8601, a date whose fields are out of range or past
// that range. An unreadable time is dropped (the event keeps everything else, it just has no time
// from that field) and reported as an `unreadable_time` diagnostic; it never drops the event.
//
// Numbers are epoch milliseconds or seconds, as the field's provider documents; a field whose
// unit is not fixed (`auto`) is read as seconds below 1e11 in magnitude (1e11 s is the year 5138;
// 1e11 ms is 1973-03-03), else as milliseconds.
//
// Strings are ISO-8601 in the extended form Date's own format uses: `YYYY-MM-DD`, optionally
// `THH:MM`, `:SS`, a fraction and a zone (`Z` or ±HH:MM). Years are four digits or a sign and six.
// A date-time without a zone is read as UTC, not the machine's zone (Date.parse reads it as
// local time), so the same bytes give the same events everywhere. Other strings Date.parse
// happens to take (`"1"` is 2001-01-01 to V8) are not times.
import type { InputPosition } from '../types.js';
import type { EventEmitterFor } from './emit.js';

/** Date's range, in ms either side of 1970-01-01 (ECMA-262 "Time Values and Time Range"). */
export const MAX_EPOCH_MS = 8.64e15;

/** The unit of a numeric time field: fixed by the provider, or told from the magnitude. */
export type TimeUnit = 'ms' | 's' | 'auto';

/** Why a present value is not a time; the reader returns it instead of a number. */
export class UnreadableTime {
  constructor(readonly why: string) {}
}

const digits = (s: string, from: number, n: number): number => {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
};

/**
 * Days from 1970-01-01 to the first of month `m` (1–12) of year `y`, proleptic Gregorian, any
 * year (H. Hinnant's days_from_civil; the floor divisions keep it right before year 0). Date.UTC
 * is a runtime call that cost more than the rest of the parse.
 */
function daysToMonth(y: number, m: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5);
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const inRange = (ms: number): number | UnreadableTime =>
  Math.abs(ms) <= MAX_EPOCH_MS ? ms : new UnreadableTime(`outside the range a date can hold (±${MAX_EPOCH_MS} ms, years −271821 to 275760)`);

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, the form every recorded timestamp has, read without a regex. */
function isoUtcMs(s: string): number | undefined {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(19) !== 46 /* . */) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2), h = digits(s, 11, 2), mi = digits(s, 14, 2), se = digits(s, 17, 2), ms = digits(s, 20, 3);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59 || ms < 0) return undefined;
  return (((daysToMonth(y, mo) + d - 1) * 24 + h) * 60 + mi) * 60000 + se * 1000 + ms;
}

const ISO = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Any other ISO-8601 form, or why the string is not one. */
function isoMs(s: string): number | UnreadableTime {
  const m = ISO.exec(s);
  if (!m) return new UnreadableTime('not an ISO-8601 date or date-time');
  if (m[1] === '-000000') return new UnreadableTime('year −000000 is not a year (ISO-8601 writes year 0 as 0000)');
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  const h = m[4] === undefined ? 0 : Number(m[4]), mi = m[5] === undefined ? 0 : Number(m[5]), se = m[6] === undefined ? 0 : Number(m[6]);
  const frac = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  // Day 31 of a short month rolls over into the next, as Date.parse does; hour 24 is midnight only.
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || se > 59 || (h === 24 && (mi || se || frac))) return new UnreadableTime('a field of the date or time is out of range');
  let offset = 0;
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const zh = Number(zone.slice(1, 3)), zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return new UnreadableTime('the zone offset is out of range');
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * 60000;
  }
  return inRange((((daysToMonth(y, mo) + d - 1) * 24 + h) * 60 + mi) * 60000 + se * 1000 + frac - offset);
}

/**
 * A provider time as epoch ms; undefined when the field is absent, an UnreadableTime (saying why)
 * when it holds something that is not a time.
 */
export function readTime(value: unknown, unit: TimeUnit): number | UnreadableTime | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return new UnreadableTime('not a finite number');
    const seconds = unit === 's' || (unit === 'auto' && Math.abs(value) < 1e11);
    return inRange(Math.round(seconds ? value * 1000 : value));
  }
  if (typeof value === 'string') return isoUtcMs(value) ?? isoMs(value);
  return new UnreadableTime(`${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}, not a time`);
}

/** readTime for places that have nowhere to report: an unreadable time reads as absent. */
export function toEpochMs(value: unknown, unit: TimeUnit = 'auto'): number | undefined {
  const t = readTime(value, unit);
  return typeof t === 'number' ? t : undefined;
}

const shown = (value: unknown): string => {
  const s = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
};

/** The `unreadable_time` diagnostic: the field, the value, why, and what was done. */
export function reportUnreadableTime(out: EventEmitterFor, field: string, value: unknown, why: string, pos?: InputPosition, partId?: string): void {
  out.diagnostic('unreadable_time', `${pos ? `line ${pos.line}: ` : ''}${field} ${shown(value)} is not a time (${why}); it is dropped, and the events of this line have no time from it`, pos, partId ? { partId } : {});
}

/** readTime that reports an unreadable value (reportUnreadableTime) and then reads it as absent. */
export function timeField(out: EventEmitterFor, field: string, value: unknown, unit: TimeUnit, pos?: InputPosition, partId?: string): number | undefined {
  const t = readTime(value, unit);
  if (t instanceof UnreadableTime) {
    reportUnreadableTime(out, field, value, t.why, pos, partId);
    return undefined;
  }
  return t;
}

/**
 * A provider's duration in seconds or ms as ms: finite and ≥ 0, else reported (`unreadable_time`,
 * as a time that cannot be read is) and dropped, so a negative or overflowing figure never becomes
 * an `elapsedMs` the contract refuses, nor places an event past a Date's range.
 */
export function durationField(out: EventEmitterFor, field: string, value: unknown, unit: 'ms' | 's', pos?: InputPosition, partId?: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? Math.round(unit === 's' ? value * 1000 : value) : Number.NaN;
  if (Number.isFinite(ms) && ms >= 0 && ms <= MAX_EPOCH_MS) return ms;
  const where = `${pos ? `line ${pos.line}: ` : ''}${field} ${shown(value)}`;
  const extra = partId ? { partId } : {};
  // A number that overflows to Infinity is what `invalid_number` reports everywhere (emit.ts).
  if (typeof value === 'number' && !Number.isFinite(ms)) out.diagnostic('invalid_number', `${where} is not a finite number of ms; it is dropped`, pos, extra);
  else out.diagnostic('unreadable_time', `${where} is not a duration (${typeof value !== 'number' ? `a ${typeof value}, not a number` : ms < 0 ? 'a duration is never negative' : 'longer than a date can span'}); it is dropped`, pos, extra);
  return undefined;
}
