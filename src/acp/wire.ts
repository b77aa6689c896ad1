// Each byte once on the wire, and back. A tool's output text is what the client displays (the
// last text item of `content`, or the terminal's data); `rawOutput` then leaves out the keys that
// hold that same text (`text`, and a `structured` field such as Claude's `stdout`), and
// `_meta.toolnorm.elided` names them so decoding puts them back exactly. Updates carry only the
// changed sub-keys of `timing` and `metadata`, merged into the previous value unless `replaced`
// says the value was sent whole.
import type { AcpToolCallContent, ToolKind } from '../contract/index.js';
import { sameJson } from './same-json.js';
import { obj, type Obj } from '../fields.js';

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
const formsOf = (path: string) => FORMS_OF_PATH[path] ?? ['same'];
/**
 * The forms of `structured.<key>` by key, for elideOutput, which looks at every key of every
 * output: a lookup by the key itself, not by a path string built for each.
 */
const FORMS_OF_STRUCTURED = new Map(Object.entries(FORMS_OF_PATH).filter(([p]) => /^structured\.[^.]+$/.test(p)).map(([p, forms]) => [p.slice('structured.'.length), forms]));
const SAME_FORM = ['same'];
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const sameValue = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/** Whether `FORMS[form](shown)` equals `value`, without building it when a cheap check says no. */
function derivesTo(form: string, value: unknown, shown: string): boolean {
  switch (form) {
    case 'same': return value === shown;
    case 'lines':
    case 'head': {
      if (!Array.isArray(value)) return false;
      const lines = FORMS[form]!(shown) as string[];
      return lines.length === value.length && lines.every((l, i) => l === value[i]);
    }
    case 'numbered': return typeof value === 'string' && value.length < shown.length && FORMS.numbered!(shown) === value;
    case 'block': {
      const b = Array.isArray(value) && value.length === 1 ? obj(value[0]) : undefined;
      return !!b && b.type === 'text' && b.text === shown && Object.keys(b).length === 2 && Object.keys(b)[0] === 'type';
    }
    default: return sameValue(value, FORMS[form]!(shown));
  }
}

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

/** A copy of `o` without the keys in `drop`. */
function without(o: Obj, drop: ReadonlySet<string>): Obj {
  const r: Obj = {};
  for (const k of Object.keys(o)) if (!drop.has(k)) r[k] = o[k];
  return r;
}

/**
 * `raw` without the fields whose value follows from `shown` (see FORMS) or repeats the input.
 * Each entry of `elided` is `path@index`: the key's position in its object, so decoding puts it
 * back in its place. Nothing is copied unless something is left out (this runs on every output).
 */
export function elideOutput(raw: unknown, shown: string | undefined, input?: unknown): { value: unknown; elided: string[] } {
  const o = obj(raw);
  if (!o) return { value: raw, elided: [] };
  const structured = obj(o.structured);
  const elided: string[] = [];
  const dropRoot = new Set<string>();
  const dropStructured = new Set<string>();
  let dropFileContent = false;
  const inp = obj(input);
  if (structured && inp) inputCopies(structured, inp, elided, dropStructured);
  if (shown !== undefined) {
    if (typeof o.text === 'string' && o.text === shown) {
      const index = Object.keys(o).indexOf('text');
      dropRoot.add('text');
      elided.push(index ? `text@${index}` : 'text');
    }
    if (structured) {
      let index = -1;
      for (const k of Object.keys(structured)) {
        index++;
        if (dropStructured.has(k)) continue;
        const v = structured[k];
        const known = FORMS_OF_STRUCTURED.get(k);
        if (typeof v !== 'string' && !known) continue;
        if (!IDENT.test(k)) continue;
        const forms = known ?? SAME_FORM;
        const form = forms.find((f) => derivesTo(f, v, shown));
        if (form === undefined) continue;
        dropStructured.add(k);
        elided.push(`structured.${k}${form === forms[0] ? '' : `~${form}`}${index ? `@${index}` : ''}`);
      }
      const file = obj(structured.file);
      if (file && !dropStructured.has('file') && typeof file.content === 'string' && derivesTo('numbered', file.content, shown)) {
        const index = Object.keys(file).indexOf('content');
        dropFileContent = true;
        elided.push(`structured.file.content${index ? `@${index}` : ''}`);
      }
    }
  }
  if (!elided.length) return { value: o, elided };
  const value = dropRoot.size ? without(o, dropRoot) : { ...o };
  if (structured && (dropStructured.size || dropFileContent)) {
    const s2 = dropStructured.size ? without(structured, dropStructured) : { ...structured };
    if (dropFileContent) s2.file = without(obj(structured.file)!, new Set(['content']));
    value.structured = s2;
  }
  return { value, elided };
}

/**
 * `structured` fields that repeat a field of the input (an edit's replaced text, a multi-edit's list,
 * a write's text): left out as `structured.<key>=<inputKey>@index`, restored from `rawInput`.
 * Only strings of some length and arrays count, compared with inputs of the same type: cheap,
 * and nothing below that is worth a marker.
 */
function inputCopies(structured: Obj, input: Obj, elided: string[], drop: Set<string>): void {
  let inputKeys: string[] | undefined;
  let index = -1;
  for (const k of Object.keys(structured)) {
    index++;
    const v = structured[k];
    const isString = typeof v === 'string' && v.length >= 16;
    if (!isString && !Array.isArray(v)) continue;
    inputKeys ??= Object.keys(input).filter((ik) => IDENT.test(ik) && (typeof input[ik] === 'string' ? (input[ik] as string).length >= 16 : Array.isArray(input[ik])));
    if (!inputKeys.length) return;
    if (!IDENT.test(k)) continue;
    let same: string | undefined;
    if (isString) same = inputKeys.find((ik) => input[ik] === v);
    else {
      const arr = v as unknown[];
      let json: string | undefined;
      same = inputKeys.find((ik) => Array.isArray(input[ik]) && (input[ik] as unknown[]).length === arr.length && JSON.stringify(input[ik]) === (json ??= JSON.stringify(arr)));
    }
    if (same === undefined) continue;
    drop.add(k);
    elided.push(`structured.${k}=${same}@${index}`);
  }
}

/** Puts back what `elideOutput` left out, each where it was. */
export function restoreOutput(raw: unknown, elided: readonly unknown[], shown: string | undefined, input?: unknown): unknown {
  let o = obj(raw);
  if (!o) return raw;
  // Foreign or damaged frames may list anything here: an entry that is not a path is ignored.
  const parsed = elided
    .filter((e): e is string => typeof e === 'string')
    .map((e) => /^(.+?)(?:=([A-Za-z_][A-Za-z0-9_]*))?(?:~([a-z]+))?(?:@(\d+))?$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null);
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
