// The `git_patch` text of an ACP v2 diff: one `diff --git` section in Git's patch format, with
// absolute paths and no `a/` `b/` prefixes (the v2 draft's DiffPatchFormat). One hunk: the lines
// between the common head and tail are removed and added, with three lines of context. That is
// linear in the text (no LCS on outputs that can be megabytes) and always applies.
const CONTEXT = 3;

/** A path as Git writes it: C-quoted when it holds quotes, backslashes, control or non-ASCII bytes. */
export function gitPath(path: string): string {
  if (!/["\\\x00-\x1f\x7f]|[^\x00-\x7f]/.test(path)) return path;
  let out = '"';
  for (const byte of Buffer.from(path, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (byte < 0x20 || byte >= 0x7f) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** Lines with their newlines: the last line of a text without a final newline differs from the same line with one. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const range = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);

/**
 * The patch that turns `oldText` into `newText` at `path` (`oldText: null` is a new file), or
 * undefined when nothing changes. Line numbers count from the first line of `oldText`: for a
 * snippet (an Edit's old and new string) that is the snippet's first line, not the file's.
 */
export function gitPatch(path: string, oldText: string | null, newText: string): string | undefined {
  if (oldText === newText) return undefined;
  const a = lines(oldText ?? '');
  const b = lines(newText);
  const q = gitPath(path);
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
  const header = [`diff --git ${q} ${q}`];
  if (oldText === null) header.push('new file mode 100644', '--- /dev/null');
  else header.push(`--- ${q}`);
  header.push(`+++ ${q}`, `@@ -${range(start, aEnd - start)} +${range(start, bEnd - start)} @@`);
  return `${[...header, ...body].join('\n')}\n`;
}
