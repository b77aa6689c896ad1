// The `git_patch` text of an ACP v2 diff: one `diff --git` section in Git's patch format, with
// absolute paths and no `a/` `b/` prefixes (the v2 draft's DiffPatchFormat), around the one hunk
// `unifiedDiff` writes (linear in the text, three lines of context, always applies).
import { unifiedDiff } from '../substance/diff.js';

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

/**
 * The patch that turns `oldText` into `newText` at `path` (`oldText: null` is a new file), or
 * undefined when nothing changes. Line numbers count from the first line of `oldText`: for a
 * snippet (an Edit's old and new string) that is the snippet's first line, not the file's.
 */
export function gitPatch(path: string, oldText: string | null, newText: string): string | undefined {
  // The hunk is the contract's own diff of the same texts (src/substance/diff.ts); only the
  // headers differ: Git's, with the path C-quoted.
  const d = unifiedDiff(path, oldText, newText);
  if (!d) return undefined;
  const plainHeaders = (oldText === null ? '--- /dev/null' : `--- ${path}`).length + 1 + `+++ ${path}`.length + 1;
  const q = gitPath(path);
  const header = [`diff --git ${q} ${q}`];
  if (oldText === null) header.push('new file mode 100644', '--- /dev/null');
  else header.push(`--- ${q}`);
  header.push(`+++ ${q}`);
  return `${header.join('\n')}\n${d.diff.slice(plainHeaders)}`;
}
