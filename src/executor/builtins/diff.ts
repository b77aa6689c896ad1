// The diff of an exact-string replacement. The replaced spans are known, so the changed lines
// are found directly from them (no general diff, whatever the file size), then shown as unified
// hunks with context, in the same `structuredPatch` shape Claude Code's Edit result uses.

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

interface Change {
  /** 0-based first line in the old and new text. */
  oldStart: number;
  newStart: number;
  oldLines: string[];
  newLines: string[];
}

export function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

const lineStart = (text: string, at: number) => (at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1);
const lineEnd = (text: string, at: number) => { const i = text.indexOf('\n', at); return i === -1 ? text.length : i; };
const countNewlines = (text: string, from: number, to: number) => { let n = 0; for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++; return n; };

function trim(c: Change): Change | undefined {
  let { oldLines: o, newLines: n, oldStart, newStart } = c;
  let p = 0;
  while (p < o.length && p < n.length && o[p] === n[p]) p++;
  o = o.slice(p); n = n.slice(p); oldStart += p; newStart += p;
  let s = 0;
  while (s < o.length && s < n.length && o[o.length - 1 - s] === n[n.length - 1 - s]) s++;
  o = o.slice(0, o.length - s); n = n.slice(0, n.length - s);
  return o.length || n.length ? { oldStart, newStart, oldLines: o, newLines: n } : undefined;
}

function changesOf(original: string, updated: string, positions: number[], oldLen: number, newLen: number): Change[] {
  const regions: { oa: number; ob: number; na: number; nb: number }[] = [];
  positions.forEach((pos, i) => {
    const nPos = pos + i * (newLen - oldLen);
    const r = { oa: lineStart(original, pos), ob: lineEnd(original, pos + oldLen), na: lineStart(updated, nPos), nb: lineEnd(updated, nPos + newLen) };
    const last = regions.at(-1);
    // Two replacements on one line share a region.
    if (last && r.oa <= last.ob) { last.ob = r.ob; last.nb = r.nb; } else regions.push(r);
  });
  const changes: Change[] = [];
  let oldLine = 0, newLine = 0, oldAt = 0, newAt = 0;
  for (const r of regions) {
    oldLine += countNewlines(original, oldAt, r.oa); oldAt = r.oa;
    newLine += countNewlines(updated, newAt, r.na); newAt = r.na;
    const c = trim({ oldStart: oldLine, newStart: newLine, oldLines: original.slice(r.oa, r.ob).split('\n'), newLines: updated.slice(r.na, r.nb).split('\n') });
    if (c) changes.push(c);
  }
  return changes;
}

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function hunksOf(original: string, changes: Change[], context: number): Hunk[] {
  // Changes are positioned on the plain `split('\n')` lines (changesOf), so context is read from
  // the same lines: a change at the very end of a file that ends in a newline sits on the empty
  // last element, which linesOf() would drop (and the context line would read as "undefined").
  const old = original.split('\n');
  // Trailing context stops at the last real line (no phantom line after a final newline).
  const real = linesOf(original).length;
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < changes.length) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.oldStart - (changes[j]!.oldStart + changes[j]!.oldLines.length) <= 2 * context) j++;
    const first = changes[i]!, last = changes[j]!;
    const from = Math.max(0, first.oldStart - context);
    const to = Math.min(real, last.oldStart + last.oldLines.length + context);
    const lines: string[] = [];
    let at = from;
    for (let k = i; k <= j; k++) {
      const c = changes[k]!;
      for (; at < c.oldStart; at++) lines.push(` ${old[at]}`);
      lines.push(...c.oldLines.map((l) => `-${l}`), ...c.newLines.map((l) => `+${l}`));
      at = c.oldStart + c.oldLines.length;
    }
    for (; at < to; at++) lines.push(` ${old[at]}`);
    const oldLines = lines.filter((l) => l[0] !== '+').length;
    const newLines = lines.filter((l) => l[0] !== '-').length;
    const newFrom = first.newStart - (first.oldStart - from);
    // Unified convention: an empty range starts at the line before it.
    hunks.push({ oldStart: oldLines ? from + 1 : from, oldLines, newStart: newLines ? newFrom + 1 : newFrom, newLines, lines });
    i = j + 1;
  }
  return hunks;
}

/** Replaces every (or the only) occurrence and describes the change; count 0 means no match. */
export function replaceExact(original: string, oldText: string, newText: string, context = 3): Replacement {
  const positions = occurrences(original, oldText);
  if (positions.length === 0) return { content: original, count: 0, hunks: [], added: 0, removed: 0 };
  const content = original.split(oldText).join(newText);
  const changes = changesOf(original, content, positions, oldText.length, newText.length);
  const hunks = hunksOf(original, changes, context);
  const added = changes.reduce((n, c) => n + c.newLines.length, 0);
  const removed = changes.reduce((n, c) => n + c.oldLines.length, 0);
  return { content, count: positions.length, hunks, added, removed };
}

export function unifiedDiff(name: string, hunks: readonly Hunk[]): string {
  if (!hunks.length) return '';
  const range = (start: number, n: number) => (n === 1 ? `${start}` : `${start},${n}`);
  return [
    `--- a/${name}`,
    `+++ b/${name}`,
    ...hunks.flatMap((h) => [`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines]),
  ].join('\n');
}
