// When `normalize --store` meets a session the store already holds, it must tell "the same
// recording again" from "another recording of this session". A recording's identity is its
// content: the path it was read by (`a.jsonl`, `./a.jsonl`, a copy, stdin) lands in each event's
// `source.file`, and is the one part of an event that says nothing about the recording itself.
import type { ToolEvent } from '../contract/index.js';

/** The event as the recording determines it: without its seq (a stream position) and `source.file`. */
export function recordingBody(e: ToolEvent): string {
  const { seq: _seq, source, ...rest } = e;
  const { file: _file, ...where } = source;
  return JSON.stringify({ ...rest, source: where });
}

export interface Difference {
  /** Where the two differ, as a JSON path (`output.text`, `source.line`), `(root)` for the event as a whole. */
  path: string;
  stored: unknown;
  incoming: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first place two events differ (ignoring what `recordingBody` ignores), or undefined when they agree. */
export function firstDifference(stored: ToolEvent, incoming: ToolEvent): Difference | undefined {
  const strip = (e: ToolEvent) => JSON.parse(recordingBody(e)) as unknown;
  return walk(strip(stored), strip(incoming), '');
}

function walk(a: unknown, b: unknown, path: string): Difference | undefined {
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = walk(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = walk(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : { path: path || '(root)', stored: a, incoming: b };
}

/** A value for a one-line message: JSON, cut short. */
export function shown(v: unknown, max = 80): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
