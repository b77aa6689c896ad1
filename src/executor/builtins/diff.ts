// The diff of an exact-string replacement. The replaced spans are known, so the changed lines
// are found directly from them (no general diff, whatever the file size), then shown as unified
// hunks with context, in the same `structuredPatch` shape Claude Code's Edit result uses.
//
// Everything is computed one change at a time and lines are cut out of the text only when they
// are shown, so a replaceAll over a whole file holds one change's text, not an array of every
// line or match. The hunks shown are bounded by a byte budget; past it the remaining changes are
// still walked, so the counts (lines added and removed, hunks) describe the whole edit.
import { countOccurrences, replaceInString } from './replace.js';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** ` ` context, `-` removed, `+` added. */
  lines: string[];
}

export interface Replacement {
  content: string;
  count: number;
  hunks: Hunk[];
  added: number;
  removed: number;
}

export interface DiffOptions {
  /** Context lines around each change (default 3). */
  context?: number;
  /**
   * Bytes the diff may take in a result: the JSON of its unified text plus the JSON of its
   * hunks, which carry the same lines (default: unbounded).
   */
  maxBytes?: number;
  /** The file name the unified text shows (only its size is charged here). */
  name?: string;
}

export interface EditDiff {
  /** The hunks that fit the budget; the last one may be shown in part. */
  hunks: Hunk[];
  added: number;
  removed: number;
  /** Hunks of the whole edit. */
  totalHunks: number;
  /** Some changed lines are not in `hunks`. */
  cut: boolean;
}

/** Changed lines after common leading and trailing lines are dropped; ranges index the texts. */
interface Change {
  /** 0-based first line in the old and new text. */
  oldStart: number;
  newStart: number;
  oldCount: number;
  newCount: number;
  oldText: string;
  oldFrom: number;
  newText: string;
  newFrom: number;
}

const lineStart = (text: string, at: number) => (at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1);
const lineEnd = (text: string, at: number) => { const i = text.indexOf('\n', at); return i === -1 ? text.length : i; };
const countNewlines = (text: string, from: number, to: number) => { let n = 0; for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++; return n; };

/** `count` lines of `text` from offset `from` (the elements `split('\n')` would give there). */
function* linesFrom(text: string, from: number, count: number): Generator<string> {
  for (let a = from, k = 0; k < count; k++) {
    const e = lineEnd(text, a);
    yield text.slice(a, e);
    a = e + 1;
  }
}

/** The whole lines around each run of occurrences: occurrences on one line share a region. */
function* regionsOf(text: string, oldText: string): Generator<{ from: number; to: number }> {
  let last: { from: number; to: number } | undefined;
  for (let pos = text.indexOf(oldText); pos !== -1; pos = text.indexOf(oldText, pos + oldText.length)) {
    const from = lineStart(text, pos), to = lineEnd(text, pos + oldText.length);
    if (last && from <= last.to) last.to = to;
    else {
      if (last) yield last;
      last = { from, to };
    }
  }
  if (last) yield last;
}

/** Drops the lines a region's old and new text share at its start and end. */
function trim(oldText: string, newText: string, oldStart: number, newStart: number): Change | undefined {
  const oldAll = countNewlines(oldText, 0, oldText.length) + 1;
  const newAll = countNewlines(newText, 0, newText.length) + 1;
  let p = 0, a = 0, b = 0;
  while (p < oldAll && p < newAll) {
    const ea = lineEnd(oldText, a), eb = lineEnd(newText, b);
    if (ea - a !== eb - b || oldText.slice(a, ea) !== newText.slice(b, eb)) break;
    p++; a = ea + 1; b = eb + 1;
  }
  let s = 0, za = oldText.length, zb = newText.length;
  while (s < oldAll - p && s < newAll - p) {
    const sa = lineStart(oldText, za), sb = lineStart(newText, zb);
    if (za - sa !== zb - sb || oldText.slice(sa, za) !== newText.slice(sb, zb)) break;
    s++; za = sa - 1; zb = sb - 1;
  }
  const oldCount = oldAll - p - s, newCount = newAll - p - s;
  if (!oldCount && !newCount) return undefined;
  return { oldStart: oldStart + p, newStart: newStart + p, oldCount, newCount, oldText, oldFrom: a, newText, newFrom: b };
}

function* changesOf(original: string, oldText: string, newText: string): Generator<Change> {
  let oldLine = 0, at = 0, shift = 0;
  for (const r of regionsOf(original, oldText)) {
    oldLine += countNewlines(original, at, r.from);
    at = r.from;
    const before = original.slice(r.from, r.to);
    // Outside the regions the texts are equal, so the region alone gives its replaced text.
    const after = replaceInString(before, oldText, newText);
    const c = trim(before, after, oldLine, oldLine + shift);
    shift += countNewlines(after, 0, after.length) - countNewlines(before, 0, before.length);
    if (c) yield c;
  }
}

/** Reads lines of one text in increasing order without splitting all of it. */
class LineCursor {
  private line = 0;
  private at = 0;
  constructor(private readonly text: string) {}
  get(n: number): string {
    for (; this.line < n; this.line++) this.at = lineEnd(this.text, this.at) + 1;
    return this.text.slice(this.at, lineEnd(this.text, this.at));
  }
}

/** What the lines shown may still cost; `take` refuses a line that does not fit. */
class Budget {
  spent = 0;
  full = false;
  constructor(readonly limit: number) {}
  /** Charges `bytes`; false (and full from then on) when they do not fit. */
  charge(bytes: number): boolean {
    if (this.full || this.spent + bytes > this.limit) { this.full = true; return false; }
    this.spent += bytes;
    return true;
  }
  /** A diff line appears twice (in the text and in the hunk), JSON-escaped each time. */
  take(line: string): boolean {
    // A line's JSON is at least as long as the line: a huge line is refused before it is encoded.
    if (this.full || this.spent + 2 * line.length > this.limit) return this.charge(Infinity);
    return this.charge(2 * (Buffer.byteLength(JSON.stringify(line), 'utf8') + 1));
  }
}

/** A hunk's header and its object keys, in the text and in the hunk list (numbers at full width). */
const HUNK_COST = 256;
/** Kept back for the cut marker (cutMarker) and the JSON around the text and the list. */
const MARKER_COST = 256;

export function editDiff(original: string, oldText: string, newText: string, options: DiffOptions = {}): EditDiff {
  const context = options.context ?? 3;
  const budget = new Budget(options.maxBytes ?? Infinity);
  if (Number.isFinite(budget.limit)) budget.charge(MARKER_COST);
  // The `--- a/name` and `+++ b/name` lines, in the text.
  budget.charge(2 * (Buffer.byteLength(JSON.stringify(options.name ?? ''), 'utf8') + 8));
  // Trailing context stops at the last real line (no phantom line after a final newline).
  const real = countNewlines(original, 0, original.length) + (original.endsWith('\n') ? 0 : 1);
  const cursor = new LineCursor(original);
  const hunks: Hunk[] = [];
  let added = 0, removed = 0, totalHunks = 0;
  // The hunk being built. Changes arrive one at a time and are not kept: a replaceAll over every
  // line is one hunk of millions of changes, and only the lines that fit the budget are held.
  let h: { from: number; newFrom: number; lines: string[]; at: number; end: number; filling: boolean } | undefined;
  const push = (line: string) => {
    if (h!.filling && budget.take(line)) h!.lines.push(line);
    else h!.filling = false;
    return h!.filling;
  };
  const close = () => {
    if (!h) return;
    const to = Math.min(real, h.end + context);
    while (h.at < to && push(` ${cursor.get(h.at)}`)) h.at++;
    const { lines, from, newFrom } = h;
    h = undefined;
    if (!lines.length) return;
    const oldLines = lines.filter((l) => l[0] !== '+').length;
    const newLines = lines.filter((l) => l[0] !== '-').length;
    // Unified convention: an empty range starts at the line before it.
    hunks.push({ oldStart: oldLines ? from + 1 : from, oldLines, newStart: newLines ? newFrom + 1 : newFrom, newLines, lines });
  };
  for (const c of changesOf(original, oldText, newText)) {
    added += c.newCount;
    removed += c.oldCount;
    // A hunk takes the next change while the gap between them is at most 2 × context lines.
    if (!h || c.oldStart - h.end > 2 * context) {
      close();
      totalHunks++;
      const from = Math.max(0, c.oldStart - context);
      h = { from, newFrom: c.newStart - (c.oldStart - from), lines: [], at: from, end: c.oldStart, filling: budget.charge(HUNK_COST) };
    }
    while (h.at < c.oldStart && push(` ${cursor.get(h.at)}`)) h.at++;
    for (const l of linesFrom(c.oldText, c.oldFrom, c.oldCount)) if (!push(`-${l}`)) break;
    for (const l of linesFrom(c.newText, c.newFrom, c.newCount)) if (!push(`+${l}`)) break;
    h.at = h.end = c.oldStart + c.oldCount;
  }
  close();
  const cut = budget.full;
  return { hunks, added, removed, totalHunks, cut };
}

/**
 * Replaces every (or the only) occurrence and describes the change; count 0 means no match.
 * The whole result is a string here; file_edit counts first and builds bounded bytes instead.
 */
export function replaceExact(original: string, oldText: string, newText: string, context = 3): Replacement {
  const count = countOccurrences(original, oldText);
  if (count === 0) return { content: original, count: 0, hunks: [], added: 0, removed: 0 };
  const { hunks, added, removed } = editDiff(original, oldText, newText, { context });
  return { content: original.split(oldText).join(newText), count, hunks, added, removed };
}

/** The words closing a cut diff; `shown` hunks of `total` made it into the budget. */
export function cutMarker(shown: number, total: number, limit: number): string {
  return shown
    ? `… [diff cut at ${limit} bytes: ${shown} of ${total} hunks shown, the last may be partial; linesAdded and linesRemoved count the whole edit] …`
    : `[diff omitted: its ${total} hunks do not fit in ${limit} bytes; linesAdded and linesRemoved count the whole edit]`;
}

export function unifiedDiff(name: string, hunks: readonly Hunk[], marker?: string): string {
  return hunkText(`a/${name}`, `b/${name}`, hunks, marker);
}

/** The same hunks as `metadata.files[].diff` shows them: headers name the absolute path itself. */
export function fileDiff(path: string, hunks: readonly Hunk[], marker?: string): string {
  return hunkText(path, path, hunks, marker);
}

function hunkText(from: string, to: string, hunks: readonly Hunk[], marker?: string): string {
  if (!hunks.length) return marker ?? '';
  const range = (start: number, n: number) => (n === 1 ? `${start}` : `${start},${n}`);
  return [
    `--- ${from}`,
    `+++ ${to}`,
    ...hunks.flatMap((h) => [`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines]),
    ...(marker ? [marker] : []),
  ].join('\n');
}
