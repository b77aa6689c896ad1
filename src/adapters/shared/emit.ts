// Builds envelope-complete ToolEvents so adapters only state what is specific to them.
import type { Diagnostic, Provider, ToolEvent } from '../../contract/index.js';
import type { AdapterSink, InputPosition } from '../types.js';
import { DEPTH_DIAGNOSTIC, depthMessage, parseBounded } from '../../events/depth.js';
import { obj, type Obj } from '../../fields.js';

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

/**
 * Parses one line that must hold a JSON object, as every line of the ACP and Codex formats does;
 * anything else is reported as malformed and gives undefined. `notAnObject` says, for the
 * diagnostic, what the format expected instead of the JSON value found.
 */
export function parseObjectLine(text: string, pos: InputPosition, out: EventEmitterFor, notAnObject: string): Obj | undefined {
  const parsed = parseJsonLine(text, pos, out);
  if (parsed === undefined) return undefined;
  const o = obj(parsed);
  if (!o) out.malformed(text, notAnObject, pos);
  return o;
}
