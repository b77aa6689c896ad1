// What an OpenCode call did, in the contract's typed shape (docs/providers/opencode.md#substance):
// `metadata.files` for edit / write / multiedit / apply_patch / patch, `metadata.command` for bash,
// `metadata.search` for glob / grep / list / websearch / codesearch / webfetch, `metadata.plan` for
// todowrite / todoread. One row per tool. A row reads the input (known from the first running
// state, so a call waiting for approval already shows its diff) and, once the call ended, what
// OpenCode recorded about the result (the real file diff, the exit status, the paths found).
import type { FileChange, FileOperation, ToolMetadata } from '../../contract/index.js';
import { absolutePath, fileChange, resolvedPath, toolPlan, unifiedDiff } from '../../substance/index.js';
import { applyPatchFiles } from '../../substance/apply-patch.js';
import { unwrapCommand } from '../shared/shell.js';
import { num, obj, type Obj, type ToolPartView } from './part-view.js';

export type Substance = Pick<ToolMetadata, 'files' | 'command' | 'search' | 'plan' | 'read'>;

/** The keys a row may fill, compared between updates so only a change is emitted. */
export const SUBSTANCE_KEYS = ['files', 'command', 'search', 'plan', 'read'] as const;

interface Ctx {
  /** The session's directory, when known: relative paths are made absolute against it. */
  cwd?: string;
  /** True once the call has ended: the row may read what OpenCode recorded about the result. */
  ended: boolean;
}

type Row = (input: Obj, view: ToolPartView, ctx: Ctx) => Substance;

/** At most this many paths in `metadata.search.paths` (the contract's limit). */
export const MAX_SEARCH_PATHS = 100;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A unified diff OpenCode recorded, from its first `--- ` header on. OpenCode's diffs come from
 * jsdiff's `createTwoFilesPatch`, which starts with an `Index:` line and a `===` rule that are
 * not part of a unified diff. Text without an `@@` hunk (older versions stored `-old\n+new`) is no
 * diff a reader can apply, so it is not used.
 */
export function recordedDiff(v: unknown): string | undefined {
  if (typeof v !== 'string' || !/^@@ /m.test(v)) return undefined;
  const at = v.search(/^--- /m);
  return at > 0 ? v.slice(at) : v;
}

/** A FileChange with the snippets an edit replaced, and the best diff known. */
function editChange(path: string, oldString: unknown, newString: unknown, cwd: string | undefined, recorded?: { before?: unknown; after?: unknown; diff?: unknown }): FileChange {
  const snippets = typeof oldString === 'string' && typeof newString === 'string';
  const abs = resolvedPath(path, cwd);
  // The whole file before and after (REAL Jan 2026 `filediff {before, after}`) gives the real
  // diff; else the diff OpenCode recorded (1.18.33 `filediff.patch`, `diff`); else the snippets'.
  let diff: string | undefined;
  if (typeof recorded?.before === 'string' && typeof recorded.after === 'string') diff = unifiedDiff(abs, recorded.before, recorded.after)?.diff;
  diff ??= recordedDiff(recorded?.diff);
  if (diff === undefined) {
    if (snippets) return fileChange({ path, cwd, operation: 'modify', oldText: oldString, newText: newString });
    return fileChange({ path, cwd, operation: 'modify' });
  }
  const change = fileChange({ path, cwd, operation: 'modify', diff });
  if (snippets) {
    change.oldText = oldString;
    change.newText = newString;
  }
  return change;
}

const files = (...changes: (FileChange | undefined)[]): Substance => {
  const list = changes.filter((c): c is FileChange => c !== undefined);
  return list.length ? { files: list } : {};
};

const edit: Row = (i, view, ctx) => {
  const path = str(i.filePath);
  if (!path) return {};
  const fd = obj(view.metadata.filediff);
  return files(editChange(path, i.oldString, i.newString, ctx.cwd, { before: fd?.before, after: fd?.after, diff: fd?.patch ?? view.metadata.diff }));
};

/**
 * Legacy multiedit: several edits of one file, `metadata.results[k]` the k-th edit's metadata.
 * `metadata.files` has one entry per path, so the edits of a path make one change: the diff from
 * the file before the first edit to after the last when OpenCode recorded both, else each edit's
 * hunks one after the other under one header. The snippets stay only for a single edit.
 */
const multiedit: Row = (i, view, ctx) => {
  const path = str(i.filePath);
  if (!path || !Array.isArray(i.edits)) return {};
  const results = Array.isArray(view.metadata.results) ? view.metadata.results : [];
  const byPath = new Map<string, { changes: FileChange[]; before?: unknown; after?: unknown; first: string }>();
  i.edits.forEach((e, k) => {
    const ed = obj(e) ?? {};
    const md = obj(results[k]) ?? {};
    const fd = obj(md.filediff);
    const own = str(ed.filePath) ?? path;
    const abs = resolvedPath(own, ctx.cwd);
    const entry = byPath.get(abs) ?? { changes: [], before: fd?.before, first: own };
    entry.after = fd?.after;
    entry.changes.push(editChange(own, ed.oldString, ed.newString, ctx.cwd, { diff: fd?.patch ?? md.diff }));
    byPath.set(abs, entry);
  });
  return files(...[...byPath.entries()].map(([abs, e]) => {
    if (e.changes.length === 1 && !(typeof e.before === 'string' && typeof e.after === 'string')) return e.changes[0]!;
    const whole = typeof e.before === 'string' && typeof e.after === 'string' ? unifiedDiff(abs, e.before, e.after)?.diff : undefined;
    const hunks = e.changes.map((c) => c.diff?.slice(c.diff.search(/^@@ /m))).filter((d): d is string => !!d);
    const diff = whole ?? (hunks.length ? `--- ${abs}\n+++ ${abs}\n${hunks.join('')}` : undefined);
    return fileChange({ path: e.first, cwd: ctx.cwd, operation: 'modify', ...(diff ? { diff } : {}) });
  }));
};

const write: Row = (i, view, ctx) => {
  const path = str(i.filePath);
  if (!path) return {};
  const content = typeof i.content === 'string' ? i.content : undefined;
  // `metadata.exists` (completed) says whether the file was there; before that it is not known,
  // and the change is a modify whose earlier text is unknown (no diff is invented).
  const exists = view.metadata.exists;
  const operation: FileOperation = exists === false ? 'create' : 'modify';
  return files(fileChange({ path, cwd: ctx.cwd, operation, ...(content !== undefined ? { newText: content } : {}) }));
};

/** `apply_patch` metadata `files[].type` → the contract's operation. */
const PATCH_OPS: Readonly<Record<string, FileOperation>> = { add: 'create', update: 'modify', delete: 'delete', move: 'rename' };

/** The section of a multi-file unified diff that is about `path` (from its `--- `/`Index:` header to the next). */
function sectionFor(diff: string, path: string, relative: string | undefined): string | undefined {
  const starts = [...diff.matchAll(/^(?:Index: .*\n=+\n)?--- .*$/gm)].map((m) => m.index!);
  for (let k = 0; k < starts.length; k++) {
    const section = diff.slice(starts[k], starts[k + 1] ?? diff.length);
    const head = section.split('\n', 4).join('\n');
    if (head.includes(path) || (relative && head.includes(relative))) return recordedDiff(section);
  }
  return undefined;
}

/** Files named by an OpenCode / Codex patch envelope, with the operation its header says. */
const ENVELOPE: readonly [RegExp, FileOperation][] = [
  [/^\*\*\* Add File: (.+)$/gm, 'create'],
  [/^\*\*\* Update File: (.+)$/gm, 'modify'],
  [/^\*\*\* Delete File: (.+)$/gm, 'delete'],
];

/**
 * apply_patch (1.18.33) and the legacy patch tool. The files and operations come from
 * `metadata.files` when OpenCode recorded them, else from the patch envelope's headers. Each file's
 * diff is its own `patch` (newer sources), else its section of OpenCode's combined `metadata.diff`.
 * Without OpenCode's record, the patch text is read by the one shared parser (src/substance/
 * apply-patch.ts), which gives each file its diff; a patch it cannot read still names its files
 * from the envelope's headers, without diffs.
 */
const patch: Row = (i, view, ctx) => {
  const recorded = Array.isArray(view.metadata.files) ? view.metadata.files.map((f) => obj(f)).filter((f): f is Obj => !!f && !!str(f.filePath)) : [];
  const combined = typeof view.metadata.diff === 'string' ? view.metadata.diff : undefined;
  if (recorded.length) {
    return files(...recorded.map((f) => {
      const path = str(f.filePath)!;
      const operation = (typeof f.type === 'string' && Object.hasOwn(PATCH_OPS, f.type) ? PATCH_OPS[f.type] : undefined) ?? 'modify';
      const diff = recordedDiff(f.patch) ?? (combined ? (recorded.length === 1 ? recordedDiff(combined) : sectionFor(combined, path, str(f.relativePath))) : undefined);
      const move = str(f.movePath);
      if (operation === 'rename' && move) return fileChange({ path: move, from: path, cwd: ctx.cwd, operation, ...(diff ? { diff } : {}) });
      return fileChange({ path, cwd: ctx.cwd, operation, ...(diff ? { diff } : {}) });
    }));
  }
  const text = typeof i.patchText === 'string' ? i.patchText : typeof i.patch === 'string' ? i.patch : undefined;
  if (!text) return {};
  const parsed = applyPatchFiles(text, ctx.cwd);
  if (!parsed.problem && parsed.files.length) return files(...parsed.files);
  const named: { path: string; operation: FileOperation; at: number }[] = [];
  for (const [re, operation] of ENVELOPE) for (const m of text.matchAll(re)) named.push({ path: m[1]!.trim(), operation, at: m.index! });
  named.sort((a, b) => a.at - b.at);
  const single = named.length === 1 ? recordedDiff(combined) : undefined;
  return files(...named.map((n) => fileChange({ path: n.path, cwd: ctx.cwd, operation: n.operation, ...(single ? { diff: single } : {}) })));
};

const bash: Row = (i, view, ctx) => {
  const line = str(i.command);
  if (!line) return {};
  const command: NonNullable<Substance['command']> = { command: unwrapCommand(line) || line };
  const cwd = str(i.workdir) ? resolvedPath(i.workdir as string, ctx.cwd) : ctx.cwd;
  if (cwd) command.cwd = cwd;
  if (ctx.ended && 'exit' in view.metadata) {
    const exit = view.metadata.exit;
    if (exit === null || (typeof exit === 'number' && Number.isInteger(exit))) command.exitCode = exit;
  }
  const description = str(i.description)?.trim();
  if (description) command.description = description;
  return { command };
};

/** Non-empty lines of a result, without OpenCode's own notes about it. */
const resultLines = (output: string | undefined) => (output ?? '').split('\n').map((l) => l.trimEnd()).filter((l) => l && !/^\(Results are truncated|^No files found$/.test(l));

function searchWhere(i: Obj, ctx: Ctx): string | undefined {
  const path = str(i.path);
  if (path) return resolvedPath(path, ctx.cwd);
  return ctx.cwd;
}

const capped = (paths: string[]) => [...new Set(paths)].slice(0, MAX_SEARCH_PATHS);

/** Paths of a result that name files: absolute already, or made so against the cwd. */
function absolutes(lines: string[], cwd: string | undefined): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const abs = absolutePath(l, cwd);
    if (abs) out.push(abs);
    if (out.length >= MAX_SEARCH_PATHS) break;
  }
  return out;
}

/** What glob and grep both say before they run: the pattern, and where (absolute when it can be). */
function patternSearch(i: Obj, ctx: Ctx): { search: NonNullable<Substance['search']>; where: string | undefined } {
  const search: NonNullable<Substance['search']> = {};
  const pattern = str(i.pattern);
  if (pattern) search.pattern = pattern;
  const where = searchWhere(i, ctx);
  if (where) search.path = where;
  return { search, where };
}

const glob: Row = (i, view, ctx) => {
  const { search, where } = patternSearch(i, ctx);
  if (ctx.ended && view.status === 'completed') {
    // glob prints one path per line (absolute in 1.18.33), newest first.
    const paths = capped(absolutes(resultLines(view.output), where));
    if (paths.length) search.paths = paths;
    const n = num(view.metadata.count);
    if (n !== undefined && Number.isInteger(n) && n >= 0) search.matches = n;
  }
  return Object.keys(search).length ? { search } : {};
};

const grep: Row = (i, view, ctx) => {
  const { search, where } = patternSearch(i, ctx);
  if (ctx.ended && view.status === 'completed') {
    // grep prints `Found N matches`, then each file as `PATH:` followed by `  Line n: text` lines.
    const files = resultLines(view.output).filter((l) => !/^\s/.test(l) && l.endsWith(':')).map((l) => l.slice(0, -1));
    const paths = capped(absolutes(files, where));
    if (paths.length) search.paths = paths;
    const n = num(view.metadata.matches);
    if (n !== undefined && Number.isInteger(n) && n >= 0) search.matches = n;
  }
  return Object.keys(search).length ? { search } : {};
};

/** Legacy list: a tree, the root `DIR/` first, then entries indented two spaces a level, directories ending in `/`. */
function treePaths(output: string | undefined): string[] {
  const lines = (output ?? '').split('\n').filter((l) => l.trim());
  const root = lines[0]?.trim();
  if (!root || !root.endsWith('/')) return [];
  const stack: string[] = [root.replace(/\/+$/, '')];
  const out: string[] = [];
  for (const l of lines.slice(1)) {
    const depth = Math.floor((l.length - l.trimStart().length) / 2);
    const name = l.trim();
    stack.length = Math.max(1, Math.min(depth, stack.length));
    const path = `${stack[stack.length - 1]}/${name.replace(/\/+$/, '')}`;
    if (name.endsWith('/')) stack.push(path);
    else out.push(path);
    if (out.length >= MAX_SEARCH_PATHS) break;
  }
  return out;
}

const list: Row = (i, view, ctx) => {
  const search: NonNullable<Substance['search']> = {};
  const where = searchWhere(i, ctx);
  if (where) search.path = where;
  if (ctx.ended && view.status === 'completed') {
    const paths = capped(absolutes(treePaths(view.output), ctx.cwd));
    if (paths.length) search.paths = paths;
    const n = num(view.metadata.count);
    if (n !== undefined && Number.isInteger(n) && n >= 0) search.matches = n;
  }
  return Object.keys(search).length ? { search } : {};
};

const query: Row = (i) => (str(i.query) ? { search: { query: i.query as string } } : {});

const webfetch: Row = (i) => (str(i.url) ? { search: { path: i.url as string } } : {});

function todos(v: unknown): Substance {
  if (!Array.isArray(v)) return {};
  // Each todo is `{content, status, priority, id?}`: the fields planEntry reads, under the same names.
  return { plan: toolPlan(v.map((t) => { const o = obj(t) ?? {}; return { content: o.content, status: o.status, priority: o.priority, id: o.id }; })) };
}

const todowrite: Row = (i) => todos(i.todos);

/** todoread has no input: the list it read is in `metadata.todos` once it completed. */
const todoread: Row = (_i, view, ctx) => (ctx.ended && view.status === 'completed' ? todos(view.metadata.todos) : {});

/**
 * read: the file, and how many lines it asked for. Its `offset` is left out of `line`: OpenCode's
 * versions disagree on whether it counts from 0 or 1, and a wrong line is worse than none.
 */
const read: Row = (i, _view, ctx) => {
  const p = str(i.filePath) ?? str(i.path);
  if (!p) return {};
  const out: NonNullable<Substance['read']> = { path: resolvedPath(p, ctx.cwd) };
  const limit = num(i.limit);
  if (limit !== undefined && Number.isInteger(limit) && limit >= 0) out.limit = limit;
  return { read: out };
};

/** lsp: a query at a position of one file (`line` is 1-based, as the language server's editor shows it). */
const lsp: Row = (i, _view, ctx) => {
  const p = str(i.filePath);
  if (!p) return {};
  const out: NonNullable<Substance['read']> = { path: resolvedPath(p, ctx.cwd) };
  const line = num(i.line);
  if (line !== undefined && Number.isInteger(line) && line >= 1) out.line = line;
  return { read: out };
};

/** The rows, keyed by OpenCode tool id (the same ids as the tool table, src/adapters/opencode/tools.ts). */
export const SUBSTANCE_TABLE: Readonly<Record<string, Row>> = {
  read,
  lsp,
  edit,
  multiedit,
  write,
  apply_patch: patch,
  patch,
  bash,
  glob,
  grep,
  list,
  websearch: query,
  codesearch: query,
  webfetch,
  todowrite,
  todoread,
};

/** The substance of one view of a call (empty for tools that have none, or an input that says nothing yet). */
export function substanceOf(view: ToolPartView, cwd: string | undefined, ended: boolean): Substance {
  const tool = Object.hasOwn(SUBSTANCE_TABLE, view.tool) ? view.tool : view.tool.toLowerCase();
  const row = Object.hasOwn(SUBSTANCE_TABLE, tool) ? SUBSTANCE_TABLE[tool] : undefined;
  if (!row) return {};
  return row(obj(view.input) ?? {}, view, { ended, ...(cwd ? { cwd } : {}) });
}
