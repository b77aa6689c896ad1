// Each byte once on the wire, and back. A tool's output text is what the client displays (the
// last text item of `content`, or the terminal's data); `rawOutput` then leaves out the keys that
// hold that same text (`text`, and a `structured` field such as Claude's `stdout`), and
// `_meta.toolnorm.elided` names them so decoding puts them back exactly. Updates carry only the
// changed sub-keys of `timing` and `metadata`, merged into the previous value unless `replaced`
// says the value was sent whole.
import type { AcpToolCallContent, ToolKind } from '../contract/index.js';
import { sameJson } from './same-json.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** Kinds shown as a display-only terminal when the client announced `terminal_output`. */
export const TERMINAL_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>(['bash']);

/** What a client's display-only terminal holds for a part. */
export interface Terminal {
  data?: string;
  exit?: { terminal_id: string; exit_code: number | null; signal: null };
}

/** The text the client shows for a part after a frame: the terminal's data, or the last text item. */
export function shownText(content: readonly AcpToolCallContent[] | undefined, terminal: Terminal | undefined): string | undefined {
  if (terminal) return terminal.data;
  const last = content?.[content.length - 1];
  return last?.type === 'content' && last.content.type === 'text' ? last.content.text : undefined;
}

/** The same, read from what a client merged (decoding side). */
export function shownTextOf(content: unknown, meta: Obj): string | undefined {
  if (!Array.isArray(content)) return undefined;
  if (content.some((c) => obj(c)?.type === 'terminal')) {
    const data = obj(meta.terminal_output)?.data;
    return typeof data === 'string' ? data : undefined;
  }
  const last = obj(content[content.length - 1]);
  const block = obj(last?.content);
  return last?.type === 'content' && block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

/**
 * What `rawOutput` may leave out, and how each is derived back from the displayed text: the same
 * text, its lines (Glob's `filenames`), Claude's Read text without its line numbers (`1\t` or
 * `     1→`), or one text block. Anything else travels as it is.
 */
const FORMS: Record<string, (shown: string) => unknown> = {
  same: (t) => t,
  lines: (t) => t.split('\n'),
  // Lines but the last: Glob's "(Results are truncated…)" note follows its filenames.
  head: (t) => t.split('\n').slice(0, -1),
  numbered: (t) => t.split('\n').map((l) => l.replace(/^ *\d+(?:\t|\u2192)/, '')).join('\n'),
  block: (t) => [{ type: 'text', text: t }],
};
/** The forms tried per path, in order; the first is the default, the others are named in the entry (`path~form`). */
const FORMS_OF_PATH: Record<string, string[]> = {
  text: ['same'],
  'structured.filenames': ['lines', 'head'],
  'structured.file.content': ['numbered'],
  'structured.content': ['block'],
};
const FORM_OF_PATH: Record<string, string> = Object.fromEntries(Object.entries(FORMS_OF_PATH).map(([k, v]) => [k, v[0]!]));
const formsOf = (path: string) => FORMS_OF_PATH[path] ?? ['same'];
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const sameValue = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/** The object at `path` (dot-separated) in `root`, or undefined. */
function at(root: Obj, path: string[]): Obj | undefined {
  let o: Obj | undefined = root;
  for (const k of path) o = obj(o?.[k]);
  return o;
}

/** A copy of `root` where the object at `path` is replaced by `f(it)`; the copies are shallow. */
function updateAt(root: Obj, path: string[], f: (o: Obj) => Obj): Obj {
  if (!path.length) return f(root);
  const [k, ...rest] = path;
  return { ...root, [k!]: updateAt(obj(root[k!])!, rest, f) };
}

function insertAt(o: Obj, key: string, value: unknown, index: number): Obj {
  const entries = Object.entries(o);
  entries.splice(index, 0, [key, value]);
  return Object.fromEntries(entries);
}

/**
 * `raw` without the fields whose value follows from `shown` (see FORMS). Each entry of `elided`
 * is `path@index`: the key's position in its object, so decoding puts it back in its place.
 */
export function elideOutput(raw: unknown, shown: string | undefined, input?: unknown): { value: unknown; elided: string[] } {
  const o = obj(raw);
  if (!o) return { value: raw, elided: [] };
  const fromInput = elideInputCopies(o, obj(input));
  if (shown === undefined) return fromInput;
  const candidates = ['text'];
  const structured = obj(o.structured);
  if (structured) {
    for (const k of Object.keys(structured)) if (IDENT.test(k) && (typeof structured[k] === 'string' || FORM_OF_PATH[`structured.${k}`])) candidates.push(`structured.${k}`);
    if (obj(structured.file) && typeof obj(structured.file)!.content === 'string') candidates.push('structured.file.content');
  }
  const elided: string[] = [...fromInput.elided];
  let value = fromInput.value as Obj;
  for (const path of candidates) {
    const keys = path.split('.');
    const key = keys.pop()!;
    const parent = at(o, keys);
    if (!parent || !(key in parent) || !(key in (at(value, keys) ?? {}))) continue;
    const forms = formsOf(path);
    const form = forms.find((f) => sameValue(parent[key], FORMS[f]!(shown)));
    if (form === undefined) continue;
    const index = Object.keys(parent).indexOf(key);
    value = updateAt(value, keys, (p) => { const { [key]: _gone, ...rest } = p; return rest; });
    elided.push(`${path}${form === forms[0] ? '' : `~${form}`}${index ? `@${index}` : ''}`);
  }
  return { value, elided };
}

/**
 * `structured` fields that repeat a field of the input (Edit's `oldString`, MultiEdit's `edits`,
 * Write's `content`): left out as `structured.<key>=<inputKey>@index`, restored from `rawInput`.
 */
function elideInputCopies(o: Obj, input: Obj | undefined): { value: unknown; elided: string[] } {
  const structured = obj(o.structured);
  if (!structured || !input) return { value: o, elided: [] };
  const elided: string[] = [];
  const kept: Obj = {};
  // Only strings of some length and arrays, compared with inputs of the same type: cheap, and
  // not worth a marker below that.
  const inputKeys = Object.keys(input).filter((ik) => IDENT.test(ik) && (typeof input[ik] === 'string' ? (input[ik] as string).length >= 16 : Array.isArray(input[ik])));
  Object.keys(structured).forEach((k, index) => {
    const v = structured[k];
    let same: string | undefined;
    if (IDENT.test(k) && inputKeys.length) {
      if (typeof v === 'string') same = inputKeys.find((ik) => input[ik] === v);
      else if (Array.isArray(v)) {
        const json = JSON.stringify(v);
        same = inputKeys.find((ik) => Array.isArray(input[ik]) && (input[ik] as unknown[]).length === v.length && JSON.stringify(input[ik]) === json);
      }
    }
    if (same === undefined) kept[k] = v;
    else elided.push(`structured.${k}=${same}@${index}`);
  });
  return elided.length ? { value: { ...o, structured: kept }, elided } : { value: o, elided };
}

/** Puts back what `elideOutput` left out, each where it was. */
export function restoreOutput(raw: unknown, elided: readonly unknown[], shown: string | undefined, input?: unknown): unknown {
  let o = obj(raw);
  if (!o) return raw;
  const parsed = elided.filter((e): e is string => typeof e === 'string').map((e) => /^(.+?)(?:=([A-Za-z_][A-Za-z0-9_]*))?(?:~([a-z]+))?(?:@(\d+))?$/.exec(e)!);
  // Ascending index: each key then goes back after every key that preceded it.
  parsed.sort((a, b) => Number(a[4] ?? 0) - Number(b[4] ?? 0));
  for (const m of parsed) {
    const path = m[1]!;
    const keys = path.split('.');
    const key = keys.pop()!;
    if (keys[0] === 'error' || !at(o, keys)) continue;
    const formName = m[3] ?? formsOf(path)[0]!;
    const derive = Object.hasOwn(FORMS, formName) ? FORMS[formName] : undefined;
    const value = m[2] !== undefined ? obj(input)?.[m[2]] : shown === undefined || !derive ? undefined : derive(shown);
    if (value === undefined) continue;
    o = updateAt(o, keys, (p) => insertAt(p, key, value, Number(m[4] ?? 0)));
  }
  return o;
}

/** A failure's message is the text `content` shows: `_meta.toolnorm.error` leaves it out (`error.message@index`). */
export function elideErrorMessage(error: Obj, shown: string | undefined): { error: Obj; entry?: string } {
  if (shown === undefined || error.message !== shown) return { error };
  const index = Object.keys(error).indexOf('message');
  const { message: _m, ...rest } = error;
  return { error: rest, entry: index ? `error.message@${index}` : 'error.message' };
}

export function restoreErrorMessage(error: Obj, elided: readonly unknown[], shown: string | undefined): Obj {
  const entry = elided.find((e): e is string => typeof e === 'string' && /^error\.message(@\d+)?$/.test(e));
  if (!entry || shown === undefined) return error;
  return insertAt(error, 'message', shown, Number(entry.split('@')[1] ?? 0));
}

/**
 * The changed sub-keys of `next` against `prev`, or undefined when a merge by key could not give
 * `next` back exactly (a key removed, or the key order changed).
 */
export function metaPatch(prev: unknown, next: unknown): Obj | undefined {
  const p = obj(prev);
  const n = obj(next);
  if (prev === undefined) return n;
  if (!p || !n) return undefined;
  const pk = Object.keys(p);
  const nk = Object.keys(n);
  if (pk.length > nk.length || pk.some((k, i) => nk[i] !== k)) return undefined;
  const patch: Obj = {};
  nk.forEach((k, i) => { if (i >= pk.length || !sameJson(p[k], n[k])) patch[k] = n[k]; });
  return patch;
}

const MERGED_KEYS = ['timing', 'metadata'] as const;

/** Merges an update's `_meta.toolnorm` into the previous one (decoding side of `metaPatch`). */
export function mergeToolnorm(prev: Obj, incoming: Obj): Obj {
  const replaced = Array.isArray(incoming.replaced) ? incoming.replaced : [];
  const out: Obj = { ...prev, ...incoming };
  for (const k of MERGED_KEYS) {
    if (k in incoming && !replaced.includes(k) && obj(prev[k]) && obj(incoming[k])) out[k] = { ...obj(prev[k]), ...obj(incoming[k]) };
  }
  return out;
}
