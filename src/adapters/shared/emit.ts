// Builds envelope-complete ToolEvents so adapters only state what is specific to them.
import type { Diagnostic, Provider, ToolEvent } from '../../contract/index.js';
import type { AdapterSink, InputPosition } from '../types.js';

type Body<T extends ToolEvent['type']> = Omit<Extract<ToolEvent, { type: T }>, 'type' | 'sessionId' | 'partId' | 'at' | 'seq' | 'source'>;

export interface Envelope {
  sessionId: string;
  partId: string;
  at: number;
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
    const event = { type, sessionId: env.sessionId, partId: env.partId, at: env.at, source: this.source(env.pos), ...body } as unknown as ToolEvent;
    this.sink.event(event);
  }

  diagnostic(code: string, message: string, pos?: InputPosition, extra: Partial<Diagnostic> = {}): void {
    this.sink.diagnostic({ severity: 'warning', code, message, source: this.source(pos), ...extra });
  }

  /** A line that could not be read as the format: counted as malformed in `--summary`. */
  malformed(text: string, reason: string, pos: InputPosition): void {
    this.sink.diagnostic({ severity: 'error', code: 'malformed_line', message: `line ${pos.line}: ${reason}`, source: this.source(pos), excerpt: excerpt(text) });
  }
}

export const excerpt = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Parses one JSON line; on failure reports it as malformed and returns undefined. */
export function parseJsonLine(text: string, pos: InputPosition, out: EventEmitterFor): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    out.malformed(text, `not JSON (${(err as Error).message})`, pos);
    return undefined;
  }
}

/** ISO-8601 or epoch (s or ms) to epoch ms; undefined when it is not a time. */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string' && value) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
