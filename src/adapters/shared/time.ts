// Provider timestamps to epoch ms: ISO-8601 strings (the common `…T…Z` form read by hand, the
// rest by Date.parse) and epoch numbers in seconds or milliseconds.

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
 * Days from 1970-01-01 to the first of month `m` (1–12) of year `y` ≥ 1970, proleptic Gregorian
 * (H. Hinnant's days_from_civil). Date.UTC is a runtime call that cost more than the rest of the
 * parse; a day past the month's end rolls over as it does in Date.UTC and Date.parse.
 */
function daysToMonth(y: number, m: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5);
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ`, the form every recorded timestamp has, read without Date.parse
 * (which costs as much as a small line's JSON.parse). Anything else, or any field out of range,
 * is left to Date.parse, so the result is always Date.parse's.
 */
function isoUtcMs(s: string): number | undefined {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(19) !== 46 /* . */) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2), h = digits(s, 11, 2), mi = digits(s, 14, 2), se = digits(s, 17, 2), ms = digits(s, 20, 3);
  // Years before 1970 (Date.parse has special cases there, e.g. 0–99) and hour 24 (midnight only) go the slow way.
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59 || ms < 0) return undefined;
  return (((daysToMonth(y, mo) + d - 1) * 24 + h) * 60 + mi) * 60000 + se * 1000 + ms;
}

/** ISO-8601 or epoch (s or ms) to epoch ms; undefined when it is not a time. */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string' && value) {
    const fast = isoUtcMs(value);
    if (fast !== undefined) return fast;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
