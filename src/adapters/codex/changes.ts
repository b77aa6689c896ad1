// File changes in every shape Codex writes them: exec `{path, kind:"add"}`, app-server
// `{path, kind:{type, move_path}, diff}`, 0.163 rollout maps `{<path>: {type, content|unified_diff}}`
// and raw `apply_patch` text. One normalized list feeds titles, kinds and output.
import type { ToolKind } from '../../contract/index.js';
import { displayPath } from '../../present/titles.js';
import { arr, camel, get, nonEmpty, obj, text } from './fields.js';

export type ChangeKind = 'add' | 'delete' | 'update';

export interface FileChange {
  path: string;
  kind: ChangeKind;
  movePath?: string;
  /** Unified diff (update) or file content (add/delete), when the provider gave it. */
  diff?: string;
}

function changeKind(v: unknown): { kind: ChangeKind; movePath?: string } {
  const o = obj(v);
  const raw = o ? text(o.type) : text(v);
  const k = raw ? camel(raw) : 'update';
  const kind: ChangeKind = k === 'add' || k === 'delete' ? k : 'update';
  const movePath = o ? nonEmpty(get(o, 'movePath')) : undefined;
  return movePath ? { kind, movePath } : { kind };
}

function one(path: string, raw: Record<string, unknown>, kindSource: unknown): FileChange {
  const { kind, movePath } = changeKind(kindSource);
  const change: FileChange = { path, kind };
  const move = movePath ?? nonEmpty(get(raw, 'movePath'));
  if (move) change.movePath = move;
  const diff = text(raw.diff) ?? text(get(raw, 'unifiedDiff')) ?? text(raw.content);
  if (diff !== undefined) change.diff = diff;
  return change;
}

/** The changes of a fileChange item, whatever its form. */
export function changesOf(raw: unknown): FileChange[] {
  const list = arr(raw);
  if (list) {
    const out: FileChange[] = [];
    for (const entry of list) {
      const c = obj(entry);
      const path = c && nonEmpty(c.path);
      if (c && path) out.push(one(path, c, c.kind));
    }
    return out;
  }
  const map = obj(raw);
  if (!map) return [];
  return Object.entries(map).flatMap(([path, v]) => {
    const c = obj(v);
    return c ? [one(path, c, c)] : [];
  });
}

// A call's kind, title, input and outcome all read the same patch: parse it once, and cut the
// hunks out only when a diff is wanted (titles and kinds need only the file headers).
let lastPatch: { text: string; changes: FileChange[]; bodies: boolean } | undefined;

/** Files named by an `apply_patch` envelope (`*** Add File: …` etc.), with their hunks as diff. */
export function parsePatch(patch: string, withDiffs = true): FileChange[] {
  if (lastPatch?.text === patch && (lastPatch.bodies || !withDiffs)) return lastPatch.changes;
  const changes = parsePatchText(patch, withDiffs);
  lastPatch = { text: patch, changes, bodies: withDiffs };
  return changes;
}

const HEADERS = /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* End Patch/gm;
const MOVE_LINE = /^\*\*\* Move to: (.+)\n?/;

/** Scans header lines only: hunks are sliced between them, not split line by line. */
function parsePatchText(patch: string, withDiffs: boolean): FileChange[] {
  const text = patch.includes('\r') ? patch.replace(/\r\n/g, '\n') : patch;
  const out: FileChange[] = [];
  let cur: FileChange | undefined;
  let bodyStart = 0;
  const close = (end: number) => {
    if (!cur) return;
    const move = text.startsWith('*** Move to: ', bodyStart) ? MOVE_LINE.exec(text.slice(bodyStart, text.indexOf('\n', bodyStart) + 1 || end)) : null;
    if (move) cur.movePath = move[1]!.trim();
    if (withDiffs) {
      let body = text.slice(bodyStart + (move ? move[0].length : 0), end);
      if (body.includes('*** End of File')) body = body.replace(/^\*\*\* End of File\n?/gm, '');
      if (cur.kind === 'add') body = body.replace(/^\+/gm, '');
      if (body) cur.diff = body.endsWith('\n') ? body : `${body}\n`;
    }
    out.push(cur);
    cur = undefined;
  };
  HEADERS.lastIndex = 0;
  for (let m = HEADERS.exec(text); m; m = HEADERS.exec(text)) {
    close(m.index);
    if (!m[1]) break;
    cur = { path: m[2]!.trim(), kind: m[1] === 'Add' ? 'add' : m[1] === 'Delete' ? 'delete' : 'update' };
    bodyStart = Math.min(text.length, m.index + m[0].length + 1);
  }
  close(text.length);
  return out;
}

/** The `*** Begin Patch … *** End Patch` envelope inside a script or argument, if any. */
export function patchIn(s: string): string | undefined {
  const start = s.indexOf('*** Begin Patch');
  if (start === -1) return undefined;
  const end = s.indexOf('*** End Patch', start);
  return end === -1 ? s.slice(start) : s.slice(start, end + '*** End Patch'.length) + '\n';
}

/** A creation writes a file; anything else edits one (same intent, same kind across providers). */
export function changeToolKind(changes: readonly FileChange[]): ToolKind {
  return changes.length > 0 && changes.every((c) => c.kind === 'add') ? 'file_write' : 'file_edit';
}

const VERB: Record<ChangeKind, string> = { add: 'Creating', delete: 'Deleting', update: 'Editing' };

function listPaths(paths: string[]): string {
  if (paths.length <= 3) return paths.join(', ');
  return `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`;
}

/** `Creating hello.txt`, `Editing a.ts, b.ts`, `Moving a.ts to b.ts`, paths relative to cwd. */
export function changesTitle(changes: readonly FileChange[], cwd?: string): string {
  if (changes.length === 0) return 'Editing files';
  const first = changes[0]!;
  if (changes.length === 1 && first.movePath) return `Moving ${displayPath(first.path, cwd)} to ${displayPath(first.movePath, cwd)}`;
  const kinds = new Set(changes.map((c) => c.kind));
  const verb = kinds.size === 1 ? VERB[first.kind] : 'Editing';
  return `${verb} ${listPaths(changes.map((c) => displayPath(c.path, cwd)))}`;
}

const KIND_WORD: Record<ChangeKind, string> = { add: 'Add', delete: 'Delete', update: 'Update' };

/** What a person reads for a patch: each file's diff under an apply_patch-style header. */
export function changesText(changes: readonly FileChange[], cwd?: string): string | undefined {
  if (!changes.some((c) => c.diff !== undefined)) return undefined;
  return changes
    .map((c) => {
      const head = `*** ${KIND_WORD[c.kind]} File: ${displayPath(c.path, cwd)}${c.movePath ? `\n*** Move to: ${displayPath(c.movePath, cwd)}` : ''}`;
      const diff = c.diff ?? '';
      return diff ? `${head}\n${diff.endsWith('\n') ? diff : `${diff}\n`}` : `${head}\n`;
    })
    .join('');
}

/** The changes without their diffs: the input of a file-change part (diffs go to output). */
export function changesInput(changes: readonly FileChange[]): { path: string; kind: ChangeKind; movePath?: string }[] {
  return changes.map((c) => (c.movePath ? { path: c.path, kind: c.kind, movePath: c.movePath } : { path: c.path, kind: c.kind }));
}
