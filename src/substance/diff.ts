// The unified diff of a file change (`metadata.files[].diff`). One hunk: the lines between the
// common head and tail are removed and added, with three lines of context. That is linear in the
// text (no LCS on files that can be megabytes), always applies, and says exactly what changed.
// Headers name the path itself (`--- /abs/path`), /dev/null for a side that does not exist.

const CONTEXT = 3;

/** Lines with their newlines: the last line of a text without a final newline differs from the same line with one. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const range = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);

export interface LineStats { added: number; removed: number }

export interface UnifiedDiff { diff: string; stats: LineStats }

/**
 * The diff that turns `oldText` into `newText` at `path` (null: the file does not exist on that
 * side), or undefined when nothing changes. Line numbers count from the first line of `oldText`:
 * for a snippet (an Edit's old and new string) that is the snippet's first line, not the file's.
 */
export function unifiedDiff(path: string, oldText: string | null, newText: string | null): UnifiedDiff | undefined {
  if (oldText === newText) return undefined;
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText ?? '');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const start = Math.max(0, head - CONTEXT);
  const after = Math.min(tail, CONTEXT);
  const aEnd = a.length - tail + after;
  const bEnd = b.length - tail + after;
  const body: string[] = [];
  const push = (mark: string, line: string) => {
    if (line.endsWith('\n')) body.push(`${mark}${line.slice(0, -1)}`);
    else body.push(`${mark}${line}`, '\\ No newline at end of file');
  };
  for (let i = start; i < head; i++) push(' ', a[i]!);
  for (let i = head; i < a.length - tail; i++) push('-', a[i]!);
  for (let i = head; i < b.length - tail; i++) push('+', b[i]!);
  for (let i = a.length - tail; i < aEnd; i++) push(' ', a[i]!);
  const header = [oldText === null ? '--- /dev/null' : `--- ${path}`, newText === null ? '+++ /dev/null' : `+++ ${path}`];
  header.push(`@@ -${range(start, aEnd - start)} +${range(start, bEnd - start)} @@`);
  return { diff: `${[...header, ...body].join('\n')}\n`, stats: { added: b.length - tail - head, removed: a.length - tail - head } };
}

/** Lines added and removed by a unified diff (any number of files and hunks). */
export function diffStats(diff: string): LineStats {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/**
 * The old and new text a diff's hunks show (context and removed lines; context and added
 * lines), for outputs that want two texts (ACP's `diff` content) when only the diff is kept.
 * Hunks are joined in order; undefined when the text holds no hunk.
 */
export function hunkTexts(diff: string): { oldText: string; newText: string } | undefined {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  let inHunk = false;
  let last: 'old' | 'new' | 'both' | undefined;
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('@@')) { inHunk = true; continue; }
    if (!inHunk) continue;
    if (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ')) { inHunk = false; continue; }
    if (line.startsWith('\\')) {
      // "\ No newline at end of file": the line before has no newline on its side(s).
      if (last === 'old' || last === 'both') oldLines[oldLines.length - 1] = oldLines[oldLines.length - 1]!.replace(/\n$/, '');
      if (last === 'new' || last === 'both') newLines[newLines.length - 1] = newLines[newLines.length - 1]!.replace(/\n$/, '');
      continue;
    }
    const mark = line[0];
    const rest = `${line.slice(1)}\n`;
    if (mark === '-') { oldLines.push(rest); last = 'old'; }
    else if (mark === '+') { newLines.push(rest); last = 'new'; }
    else if (mark === ' ' || line === '') { oldLines.push(rest); newLines.push(rest); last = 'both'; }
  }
  if (!oldLines.length && !newLines.length) return undefined;
  return { oldText: oldLines.join(''), newText: newLines.join('') };
}
