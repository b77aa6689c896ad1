// `json_summary`: keeps a JSON value's shape (every key, the first items of every array, the start
// of every string) and says what it cut in notes. The serializer returns pieces tagged with
// whether the compressor wrote them, so the stats can tell original bytes from notes.

export interface SummaryLimits {
  maxArrayItems: number;
  maxStringLength: number;
}

export const DEFAULT_MAX_ARRAY_ITEMS = 20;
export const DEFAULT_MAX_STRING_LENGTH = 200;
/** Deeper values are replaced by a note, so hostile nesting cannot exhaust the stack. */
export const MAX_DEPTH = 64;

export interface Summary {
  text: string;
  /** [text, written by the compressor] in order; joined they are `text`. */
  pieces: Array<[string, boolean]>;
  addedBytes: number;
  /** Whether anything was cut; if not, the original text should be kept as it is. */
  cut: boolean;
}

const arrayNote = (n: number) => JSON.stringify(`… ${n} more item${n === 1 ? '' : 's'}`);
const stringNote = (n: number) => `…(+${n} chars)`;

export function summarize(value: unknown, limits: SummaryLimits, indent = ''): Summary {
  const pieces: Array<[string, boolean]> = [];
  let cut = false;
  const put = (s: string, added = false) => {
    const last = pieces[pieces.length - 1];
    if (last && last[1] === added) last[0] += s;
    else pieces.push([s, added]);
  };
  const nl = (depth: number) => (indent ? `\n${indent.repeat(depth)}` : '');

  const str = (s: string) => {
    const note = stringNote(s.length);
    // Only cut when it makes the string shorter, note included.
    if (s.length <= limits.maxStringLength + note.length) {
      put(JSON.stringify(s));
      return;
    }
    let keep = limits.maxStringLength;
    const c = s.charCodeAt(keep - 1);
    if (keep > 0 && c >= 0xd800 && c <= 0xdbff) keep--; // never split a surrogate pair
    cut = true;
    put(JSON.stringify(s.slice(0, keep)).slice(0, -1));
    put(stringNote(s.length - keep), true);
    put('"');
  };

  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') return str(v);
    if (v === null || typeof v !== 'object') {
      put(JSON.stringify(v) ?? 'null');
      return;
    }
    if (depth >= MAX_DEPTH) {
      cut = true;
      put(JSON.stringify('…(nested value omitted)'), true);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return put('[]');
      const keep = Math.min(v.length, limits.maxArrayItems);
      put('[');
      for (let i = 0; i < keep; i++) {
        put((i > 0 ? ',' : '') + nl(depth + 1));
        walk(v[i] === undefined || typeof v[i] === 'function' ? null : v[i], depth + 1);
      }
      if (keep < v.length) {
        cut = true;
        // Only the note itself counts as written by the compressor; its separator holds the
        // newline, and compressor-written pieces never contain one (line accounting relies on it).
        put((keep > 0 ? ',' : '') + nl(depth + 1));
        put(arrayNote(v.length - keep), true);
      }
      put(nl(depth) + ']');
      return;
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && typeof x !== 'function');
    if (entries.length === 0) return put('{}');
    put('{');
    entries.forEach(([k, x], i) => {
      put((i > 0 ? ',' : '') + nl(depth + 1) + JSON.stringify(k) + (indent ? ': ' : ':'));
      walk(x, depth + 1);
    });
    put(nl(depth) + '}');
  };

  walk(value, 0);
  const text = pieces.map((p) => p[0]).join('');
  const addedBytes = pieces.reduce((n, [s, added]) => (added ? n + Buffer.byteLength(s, 'utf8') : n), 0);
  return { text, pieces, addedBytes, cut };
}

/** Ever smaller limits, from the step's own down to nearly nothing. */
export function* tighterLimits(start: SummaryLimits): Generator<SummaryLimits> {
  let { maxArrayItems: a, maxStringLength: s } = start;
  for (let i = 0; i < 16; i++) {
    yield { maxArrayItems: a, maxStringLength: s };
    if (a === 0 && s === 0) return;
    a = Math.floor(a / 2);
    s = Math.floor(s / 2);
  }
}

/** The indentation unit of pretty-printed JSON text ('' for compact). */
export function detectIndent(text: string): string {
  const m = /\n([ \t]{1,10})\S/.exec(text.slice(0, 4096));
  return m ? m[1]! : '';
}

/** Parses text that looks like a JSON object or array; undefined for anything else. */
export function parseJsonText(text: string): { value: unknown } | undefined {
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

type Emit = (buf: Buffer, added: boolean) => void;

/**
 * `json_summary` inside a stream: holds the text (up to `maxBytes`), and at the end replaces it by
 * the least-cut summary that fits `fits`, or the tightest one. Text that is not a JSON object or
 * array, or is longer than `maxBytes`, passes through untouched (and the step is not applied).
 */
export class JsonSummaryFilter {
  readonly name = 'json_summary';
  applied = false;
  private held: Array<[Buffer, boolean]> = [];
  private heldBytes = 0;
  private passing = false;

  constructor(private readonly limits: SummaryLimits, private readonly maxBytes: number, private readonly fits: (text: string) => boolean) {}

  write(chunk: Buffer, added: boolean, emit: Emit): void {
    if (this.passing) return emit(chunk, added);
    this.held.push([Buffer.from(chunk), added]);
    this.heldBytes += chunk.length;
    if (this.heldBytes > this.maxBytes) this.release(emit);
  }

  end(emit: Emit): void {
    if (this.passing) return;
    const summary = this.held.some(([, added]) => added) ? undefined : this.summary();
    if (!summary) return this.release(emit);
    this.applied = true;
    this.held = [];
    for (const [text, added] of summary.pieces) emit(Buffer.from(text, 'utf8'), added);
  }

  private summary(): Summary | undefined {
    const text = Buffer.concat(this.held.map(([b]) => b), this.heldBytes).toString('utf8');
    const parsed = parseJsonText(text);
    if (!parsed) return undefined;
    const indent = detectIndent(text);
    let chosen: Summary | undefined;
    for (const limits of tighterLimits(this.limits)) {
      const s = summarize(parsed.value, limits, indent);
      if (!s.cut) continue;
      chosen = s;
      if (this.fits(s.text)) break;
    }
    return chosen;
  }

  private release(emit: Emit): void {
    this.passing = true;
    for (const [b, added] of this.held) emit(b, added);
    this.held = [];
  }
}
