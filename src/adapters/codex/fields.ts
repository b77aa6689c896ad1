// Codex writes the same item three ways: exec JSONL and rollouts in snake_case, the app-server in
// camelCase, and 0.163 rollout `item_completed` events with PascalCase types and snake_case fields.
// These helpers read a field whatever the casing, so the item table is written once.
import { parseBounded } from '../../events/depth.js';
import { obj, arr, text, nonEmpty, num, ms, int, type Obj } from '../../fields.js';

// Re-exported so this folder's files read fields from one place.
export { obj, arr, text, nonEmpty, num, ms, int, type Obj };
const snakeCache = new Map<string, string>();
const snakeOf = (camel: string): string => {
  let s = snakeCache.get(camel);
  if (s === undefined) {
    s = camel.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
    snakeCache.set(camel, s);
  }
  return s;
};

/** `o[camelKey]`, else `o[snake_key]`; null counts as absent. */
export function get(o: Obj | undefined, camelKey: string): unknown {
  if (!o) return undefined;
  const v = o[camelKey];
  if (v !== undefined && v !== null) return v;
  const s = o[snakeOf(camelKey)];
  return s === null ? undefined : s;
}

/** `command_execution`, `CommandExecution` and `commandExecution` all become `commandExecution`. */
export function camel(name: string): string {
  const c = name.replace(/[_-]+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase());
  return c ? c[0]!.toLowerCase() + c.slice(1) : c;
}

export type Status = 'inProgress' | 'completed' | 'failed' | 'declined' | 'interrupted' | 'incomplete' | 'other';

/** Item status in one casing (`in_progress`, `inProgress`, `InProgress` → `inProgress`). */
export function statusOf(item: Obj): Status | undefined {
  const raw = text(get(item, 'status'));
  if (!raw) return undefined;
  const s = camel(raw);
  return (['inProgress', 'completed', 'failed', 'declined', 'interrupted', 'incomplete'] as const).find((k) => k === s) ?? 'other';
}

/** Duration in ms from `durationMs`, `duration_ms`, a Rust `{secs, nanos}` or seconds. */
export function durationMsOf(item: Obj): number | undefined {
  const direct = num(get(item, 'durationMs'));
  if (direct !== undefined) return Math.max(0, direct);
  const dObj = obj(item.duration);
  if (dObj) {
    const secs = num(dObj.secs) ?? 0;
    const nanos = num(dObj.nanos) ?? 0;
    return Math.max(0, Math.round(secs * 1000 + nanos / 1e6));
  }
  const seconds = num(get(item, 'durationSeconds'));
  return seconds !== undefined ? Math.max(0, Math.round(seconds * 1000)) : undefined;
}

/** A cwd as a plain path (0.163 rollouts write `file:///…` URLs). */
export function pathOf(v: unknown): string | undefined {
  const s = nonEmpty(v);
  if (!s) return undefined;
  if (s.startsWith('file://')) {
    try {
      return decodeURIComponent(new URL(s).pathname);
    } catch {
      return s.slice('file://'.length);
    }
  }
  return s;
}

/** JSON text to a value; the text itself when it is not JSON (arguments are sometimes raw). */
export function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!t || (t[0] !== '{' && t[0] !== '[')) return v;
  try {
    return parseBounded(t);
  } catch {
    return v;
  }
}
