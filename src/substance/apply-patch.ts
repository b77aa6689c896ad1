// Codex's `apply_patch` envelope, read into `metadata.files`. The grammar is Codex's own
// (codex-rs apply-patch): `*** Begin Patch`, then per file `*** Add File: P` (every line `+`),
// `*** Delete File: P`, or `*** Update File: P` with an optional `*** Move to: Q` and one or more
// chunks (`@@` or `@@ <context line>`, then ` `/`-`/`+` lines, an empty line counting as empty
// context, and `*** End of File` anchoring the chunk at the end of the file), then `*** End Patch`.
// Codex rejects a patch that breaks the grammar without applying any of it, so a malformed patch
// gives a problem and no file change at all, never a partial list.
import type { FileChange } from '../contract/index.js';
import { fileChange } from './files.js';
import { resolvedPath } from './paths.js';

export interface PatchChunk {
  /** The text after `@@ ` (a line the chunk follows), when the chunk named one. */
  context?: string;
  /** The chunk's lines with their mark: ` x`, `-x`, `+x`. */
  lines: string[];
  /** `*** End of File`: the chunk's last line is the file's last line. */
  endOfFile: boolean;
}

export type PatchHunk =
  | { op: 'add'; path: string; text: string }
  | { op: 'delete'; path: string }
  | { op: 'update'; path: string; movePath?: string; chunks: PatchChunk[] };

/** Where and why a patch does not follow the grammar; `line` counts from 1 at `*** Begin Patch`. */
export interface PatchProblem { line: number; message: string }

export type ParsedPatch = { ok: true; hunks: PatchHunk[] } | { ok: false; problem: PatchProblem };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const HEADER = /^\*\*\* (Add|Delete|Update) File:(.*)$/;
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

const fail = (line: number, message: string): ParsedPatch => ({ ok: false, problem: { line, message } });

/** The hunks of a patch, or the first place it breaks the grammar. Never throws. */
export function parseApplyPatch(patch: string): ParsedPatch {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  // Blank lines around the envelope (a trailing newline, a heredoc's indentation) are not part of it.
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last--;
  if (lines[first]?.trim() !== BEGIN) return fail(1, `the patch does not start with "${BEGIN}"`);
  if (last === first || lines[last]!.trim() !== END) return fail(last - first + 1, `the patch does not end with "${END}"`);
  const body = lines.slice(first + 1, last);
  const no = (i: number) => i + 2; // line number in the patch of body[i]
  const hunks: PatchHunk[] = [];
  let i = 0;
  while (i < body.length) {
    const header = HEADER.exec(body[i]!.trim());
    if (!header) return fail(no(i), `"${body[i]}" is not a file header (*** Add File:, *** Delete File: or *** Update File:)`);
    const path = header[2]!.trim();
    if (!path) return fail(no(i), `${header[1]} File header without a path`);
    const at = i++;
    if (header[1] === 'Delete') {
      hunks.push({ op: 'delete', path });
      continue;
    }
    if (header[1] === 'Add') {
      let text = '';
      while (i < body.length && body[i]!.startsWith('+')) text += `${body[i++]!.slice(1)}\n`;
      hunks.push({ op: 'add', path, text });
      continue;
    }
    let movePath: string | undefined;
    if (i < body.length && body[i]!.startsWith(MOVE)) {
      movePath = body[i]!.slice(MOVE.length).trim();
      if (!movePath) return fail(no(i), `Move to line without a path for ${path}`);
      i++;
    }
    const chunks: PatchChunk[] = [];
    while (i < body.length && !HEADER.test(body[i]!.trim())) {
      const line = body[i]!;
      let chunk: PatchChunk;
      if (line === '@@' || line.startsWith('@@ ')) {
        chunk = { lines: [], endOfFile: false };
        const context = line.slice(3);
        if (context) chunk.context = context;
        i++;
      } else if (chunks.length === 0) {
        // Codex lets the first chunk of a file omit its `@@` line.
        chunk = { lines: [], endOfFile: false };
      } else {
        return fail(no(i), `"${line}" in the update of ${path} is neither a chunk line (" ", "-", "+") nor "@@"`);
      }
      while (i < body.length) {
        const l = body[i]!;
        if (l === EOF_MARK) { chunk.endOfFile = true; i++; break; }
        if (l === '@@' || l.startsWith('@@ ') || HEADER.test(l.trim())) break;
        if (l === '') chunk.lines.push(' ');
        else if (l[0] === ' ' || l[0] === '-' || l[0] === '+') chunk.lines.push(l);
        else return fail(no(i), `"${l}" in the update of ${path} does not start with " ", "-" or "+"`);
        i++;
      }
      if (chunk.lines.length === 0) return fail(no(i - 1), `an empty chunk in the update of ${path}`);
      chunks.push(chunk);
    }
    if (chunks.length === 0) return fail(no(at), `the update of ${path} has no chunk`);
    hunks.push(movePath ? { op: 'update', path, movePath, chunks } : { op: 'update', path, chunks });
  }
  return { ok: true, hunks };
}

/** `N` or `N,COUNT` of a hunk header; `start` counts from 0, and an empty side names the line before it. */
const span = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);

/**
 * The unified diff of an update's chunks. apply_patch locates chunks by their context, not by line
 * numbers, so the numbers here count from the first chunk as line 1 and run on through the
 * following chunks: each hunk is consistent with the others, not with the file (which the patch
 * does not show). A chunk's `@@ context` line is kept as the hunk's section heading.
 */
function chunksDiff(from: string, to: string, chunks: readonly PatchChunk[]): string {
  const out = [`--- ${from}`, `+++ ${to}`];
  let oldAt = 0;
  let newAt = 0;
  for (const c of chunks) {
    const oldCount = c.lines.filter((l) => l[0] !== '+').length;
    const newCount = c.lines.filter((l) => l[0] !== '-').length;
    out.push(`@@ -${span(oldAt, oldCount)} +${span(newAt, newCount)} @@${c.context ? ` ${c.context}` : ''}`, ...c.lines);
    oldAt += oldCount;
    newAt += newCount;
  }
  return `${out.join('\n')}\n`;
}

export interface PatchFiles {
  /** One entry per file of the patch, in order; empty when the patch is malformed. */
  files: FileChange[];
  problem?: PatchProblem;
}

/**
 * `metadata.files` of an apply_patch call: Add File → create with its text, Delete File → delete,
 * Update File → modify with a diff of its chunks, and with `*** Move to:` → rename from the old
 * path. Relative paths resolve against `cwd` (the call's workdir, else the session's).
 */
export function applyPatchFiles(patch: string, cwd?: string): PatchFiles {
  const parsed = parseApplyPatch(patch);
  if (!parsed.ok) return { files: [], problem: parsed.problem };
  const files = parsed.hunks.map((h): FileChange => {
    switch (h.op) {
      case 'add':
        return fileChange({ path: h.path, cwd, operation: 'create', newText: h.text });
      case 'delete':
        return fileChange({ path: h.path, cwd, operation: 'delete' });
      case 'update': {
        const from = resolvedPath(h.path, cwd);
        const to = h.movePath !== undefined ? resolvedPath(h.movePath, cwd) : from;
        const diff = chunksDiff(from, to, h.chunks);
        return h.movePath !== undefined
          ? fileChange({ path: to, from, operation: 'rename', diff })
          : fileChange({ path: to, operation: 'modify', diff });
      }
    }
  });
  return { files };
}
