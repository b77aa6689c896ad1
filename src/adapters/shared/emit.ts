// Builds envelope-complete ToolEvents so adapters only state what is specific to them.
import type { Diagnostic, Provider, ToolEvent } from '../../contract/index.js';
import type { AdapterSink, InputPosition } from '../types.js';
import { DEPTH_DIAGNOSTIC, depthMessage, parseBounded } from '../../events/depth.js';

type Body<T extends ToolEvent['type']> = Omit<Extract<ToolEvent, { type: T }>, 'type' | 'sessionId' | 'partId' | 'at' | 'seq' | 'source'>;

export interface Envelope {
  sessionId: string;
  partId: string;
  /** Undefined when neither the input nor an explicit clock gives a time: the event then has no `at`. */
  at: number | undefined;
  pos?: InputPosition;
}

export class EventEmitterFor {
  constructor(private readonly sink: AdapterSink, readonly provider: Provider) {}

  source(pos?: InputPosition): ToolEvent['source'] {
    const source: ToolEvent['source'] = { provider: this.provider };
    if (pos) {
      source.line = pos.line;
      source.offset = pos.offset;
      if (pos.file !== undefined) source.file = pos.file;
    }
    return source;
  }

  emit<T extends ToolEvent['type']>(type: T, env: Envelope, body: Body<T>): void {
    const event = (env.at === undefined
      ? { type, sessionId: env.sessionId, partId: env.partId, source: this.source(env.pos), ...body }
      : { type, sessionId: env.sessionId, partId: env.partId, at: env.at, source: this.source(env.pos), ...body }) as unknown as ToolEvent;
    if ((env.at !== undefined && !Number.isFinite(env.at)) || hasNonFinite(body)) this.dropNonFinite(event as unknown as Record<string, unknown>, env.pos);
    this.sink.event(event);
  }

  /**
   * Provider numbers can overflow (a duration of 1e308 seconds is Infinity ms; `1e999` parses as
   * Infinity), and JSON has no such number; an exit code must be an integer. The field is dropped
   * (an `at` too: the event then has no time, which the contract allows, rather than an invented
   * one) and an `invalid_number` diagnostic names it.
   */
  private dropNonFinite(event: Record<string, unknown>, pos?: InputPosition): void {
    const dropped: string[] = [];
    if (event.at !== undefined && !Number.isFinite(event.at)) {
      dropped.push(`at (${String(event.at)})`);
      delete event.at;
    }
    for (const k of NUMBER_FIELDS) {
      if (typeof event[k] === 'number' && !Number.isFinite(event[k])) {
        dropped.push(`${k} (${String(event[k])})`);
        delete event[k];
      }
    }
    const meta = event.metadata as Record<string, unknown> | undefined;
    if (meta && typeof meta.exitCode === 'number' && !Number.isInteger(meta.exitCode)) {
      dropped.push(`metadata.exitCode (${String(meta.exitCode)})`);
      event.metadata = { ...meta };
      delete (event.metadata as Record<string, unknown>).exitCode;
    }
    this.diagnostic('invalid_number', `${pos ? `line ${pos.line}: ` : ''}${String(event.type)} for ${String(event.partId)} had numbers the contract cannot hold (not finite, or an exit code that is not an integer), dropped: ${dropped.join(', ')}`, pos, { partId: String(event.partId) });
  }

  diagnostic(code: string, message: string, pos?: InputPosition, extra: Partial<Diagnostic> = {}): void {
    this.sink.diagnostic({ severity: 'warning', code, message, source: this.source(pos), ...extra });
  }

  /** The line is well-formed but not this format; the pipeline reports such lines once per file. */
  unrecognized(pos: InputPosition): void {
    this.sink.unrecognized?.(pos);
  }

  /** A line that could not be read as the format: counted as malformed in `--summary`. */
  malformed(text: string, reason: string, pos: InputPosition): void {
    this.sink.diagnostic({ severity: 'error', code: 'malformed_line', message: `line ${pos.line}: ${reason}`, source: this.source(pos), excerpt: excerpt(text) });
  }
}

/** The numeric fields an event body may carry at its top level. */
const NUMBER_FIELDS = ['elapsedMs', 'seq'] as const;

function hasNonFinite(body: object): boolean {
  const b = body as Record<string, unknown>;
  for (const k of NUMBER_FIELDS) if (typeof b[k] === 'number' && !Number.isFinite(b[k])) return true;
  const meta = b.metadata as Record<string, unknown> | undefined;
  return meta !== undefined && typeof meta.exitCode === 'number' && !Number.isInteger(meta.exitCode);
}

export const excerpt = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Parses one JSON line; on failure reports it as malformed and returns undefined. */
export function parseJsonLine(text: string, pos: InputPosition, out: EventEmitterFor): unknown {
  try {
    return parseBounded(text, (cut) => out.diagnostic(DEPTH_DIAGNOSTIC, `line ${pos.line}: ${depthMessage(cut)}`, pos));
  } catch (err) {
    out.malformed(text, `not JSON (${(err as Error).message})`, pos);
    return undefined;
  }
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
