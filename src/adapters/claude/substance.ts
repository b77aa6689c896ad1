// What a Claude Code call did, in the contract's typed shapes (docs/providers/claude.md#substance):
// `metadata.files` for Edit / MultiEdit / Write / NotebookEdit, `command` for Bash, `search` for
// Glob / Grep / WebSearch / WebFetch, `plan` for TodoWrite and TaskCreate / TaskUpdate. One table,
// keyed by the tool's spec (so every alias of a tool reads the same): `input` runs when the call
// starts (a denied or failed call keeps what it would have done), `result` when a successful
// structured result says more (the file's own line numbers, whether Write created the file, the
// paths a search found). Every builder comes from src/substance; nothing here diffs text itself.
import type { CommandRun, SearchInfo, ToolMetadata, ToolPlan } from '../../contract/index.js';
import { fileChange, resolvedPath, toolPlan, type PlanEntryInput } from '../../substance/index.js';
import { arr, int, num, obj, type Obj, str, text } from '../../fields.js';
import { TOOL_TABLE, type ToolSpec } from './tools.js';

export type Substance = Pick<ToolMetadata, 'files' | 'command' | 'search' | 'plan' | 'read'>;

export interface SubstanceContext {
  cwd?: string;
  /** The subject of a Task* entry created earlier in the session, by task id (TaskUpdate names only the id). */
  taskSubject?(taskId: string): string | undefined;
}

interface SubstanceSpec {
  input(input: Obj, ctx: SubstanceContext): Substance | undefined;
  /** A successful structured result (`tool_use_result` / `toolUseResult`); the input's substance is `prior`. */
  result?(structured: Obj, input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined;
  /** A successful result with no structured form (subagent transcripts of 2.1.39 and later): its text. */
  resultText?(text: string, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined;
}

/** Paths listed in `metadata.search.paths`, at most (the contract's bound). */
export const SEARCH_PATHS_MAX = 100;

// ---- files -----------------------------------------------------------------------------

/**
 * Claude's `structuredPatch` (hunks with the file's own line numbers) as a unified diff. The
 * hunks are the provider's; this only writes them out with headers.
 */
export function patchDiff(path: string, hunks: unknown, created = false): string | undefined {
  const list = arr(hunks);
  if (!list?.length) return undefined;
  const out = [created ? '--- /dev/null' : `--- ${path}`, `+++ ${path}`];
  for (const raw of list) {
    const h = obj(raw);
    const lines = arr(h?.lines);
    const oldStart = int(h?.oldStart);
    const oldLines = int(h?.oldLines);
    const newStart = int(h?.newStart);
    const newLines = int(h?.newLines);
    if (!lines || oldStart === undefined || oldLines === undefined || newStart === undefined || newLines === undefined) return undefined;
    out.push(`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`);
    for (const l of lines) {
      if (typeof l !== 'string') return undefined;
      out.push(l);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The whole file after a list of edits, applied as Claude applies them; undefined when one does not match. */
function applyEdits(original: string, edits: readonly Obj[]): string | undefined {
  let content = original;
  for (const e of edits) {
    const from = text(e.old_string);
    const to = text(e.new_string);
    if (from === undefined || to === undefined) return undefined;
    if (from === '') {
      // An empty old_string writes a new file's content (Claude's own rule for a first edit).
      if (content !== '') return undefined;
      content = to;
      continue;
    }
    if (!content.includes(from)) return undefined;
    content = e.replace_all === true ? content.split(from).join(to) : content.replace(from, () => to);
  }
  return content;
}

const editList = (v: unknown): Obj[] | undefined => {
  const list = arr(v)?.map(obj);
  return list?.length && list.every((e): e is Obj => e !== undefined) ? list : undefined;
};

function editInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const path = str(input.file_path) ?? str(input.path);
  if (!path) return undefined;
  const oldText = text(input.old_string);
  const newText = text(input.new_string);
  // Without both snippets the change is still named (a streamed or malformed input).
  const change = oldText !== undefined && newText !== undefined ? fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText, newText }) : fileChange({ path, operation: 'modify', cwd: ctx.cwd });
  return { files: [change] };
}

/** Edit / MultiEdit result: `structuredPatch` gives the diff with file line numbers; the snippets stay the input's. */
function editResult(structured: Obj, input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  const before = prior?.files?.[0];
  const path = str(structured.filePath) ?? before?.path;
  if (!path) return undefined;
  const abs = resolvedPath(path, ctx.cwd);
  const diff = patchDiff(abs, structured.structuredPatch);
  const original = text(structured.originalFile) ?? text(structured.originalFileContents);
  if (diff) {
    const change = fileChange({ path: abs, operation: 'modify', diff });
    if (before?.oldText !== undefined) change.oldText = before.oldText;
    if (before?.newText !== undefined) change.newText = before.newText;
    return { files: [change] };
  }
  // No patch: the whole file before, and the edits applied to it, are a true diff.
  const edits = editList(structured.edits) ?? editList(input.edits) ?? (text(input.old_string) !== undefined ? [input] : undefined);
  const after = original !== undefined && edits ? applyEdits(original, edits) : undefined;
  if (original !== undefined && after !== undefined) return { files: [fileChange({ path: abs, operation: 'modify', oldText: original, newText: after })] };
  return undefined;
}

/**
 * MultiEdit before its result: one entry for its one path. One edit is an Edit; several are one
 * diff of one hunk per edit, each numbered from its own snippet (the file's numbers come with the
 * result), and no single old or new text (there is none).
 */
function multiEditInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const path = str(input.file_path);
  if (!path) return undefined;
  const edits = editList(input.edits);
  if (!edits) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd })] };
  if (edits.length === 1) return editInput({ file_path: path, ...edits[0] }, ctx);
  const hunks: string[] = [];
  let header: string | undefined;
  for (const e of edits) {
    const from = text(e.old_string);
    const to = text(e.new_string);
    if (from === undefined || to === undefined) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd })] };
    const one = fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText: from, newText: to }).diff;
    if (!one) continue;
    const at = one.indexOf('\n@@');
    header ??= one.slice(0, at + 1);
    hunks.push(one.slice(at + 1));
  }
  if (!header) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd })] };
  return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, diff: header + hunks.join('') })] };
}

function writeInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const path = str(input.file_path) ?? str(input.path);
  if (!path) return undefined;
  // Whether the file existed is known only from the result: until then the write is a modify
  // with the new content and no diff.
  const content = text(input.content);
  return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, ...(content !== undefined ? { newText: content } : {}) })] };
}

function writeResult(structured: Obj, input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  const path = str(structured.filePath) ?? prior?.files?.[0]?.path;
  const content = text(structured.content) ?? text(input.content);
  if (!path || content === undefined) return undefined;
  if (structured.type === 'create') return { files: [fileChange({ path, operation: 'create', cwd: ctx.cwd, oldText: null, newText: content })] };
  const original = text(structured.originalFile);
  if (original !== undefined) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText: original, newText: content })] };
  const diff = patchDiff(resolvedPath(path, ctx.cwd), structured.structuredPatch);
  return diff ? { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, diff, newText: content })] } : undefined;
}

/** NotebookEdit: the cell's source is the snippet (inserted: from nothing); the result may carry the whole notebook. */
function notebookInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const path = str(input.notebook_path);
  if (!path) return undefined;
  const source = text(input.new_source);
  if (input.edit_mode === 'insert' && source !== undefined) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText: '', newText: source })] };
  if (input.edit_mode === 'delete') return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd })] };
  return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, ...(source !== undefined ? { newText: source } : {}) })] };
}

function notebookResult(structured: Obj, input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  const path = str(structured.notebook_path) ?? prior?.files?.[0]?.path;
  if (!path) return undefined;
  const original = text(structured.original_file);
  const updated = text(structured.updated_file);
  if (original !== undefined && updated !== undefined) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText: original, newText: updated })] };
  const oldSource = text(structured.old_source);
  const newSource = text(structured.new_source) ?? text(input.new_source);
  if (oldSource !== undefined && newSource !== undefined) return { files: [fileChange({ path, operation: 'modify', cwd: ctx.cwd, oldText: oldSource, newText: input.edit_mode === 'delete' ? '' : newSource })] };
  return undefined;
}

// ---- command ---------------------------------------------------------------------------

function bashInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const command = str(input.command);
  if (!command?.trim()) return undefined;
  const run: CommandRun = { command };
  if (ctx.cwd) run.cwd = ctx.cwd;
  const description = str(input.description);
  if (description?.trim()) run.description = description;
  if (input.run_in_background === true) run.background = true;
  return { command: run };
}

/**
 * A successful foreground Bash exited 0: Claude Code reports any other status as an error
 * (`Exit code N`), except where it says it read the status otherwise (`returnCodeInterpretation`,
 * e.g. grep's 1 for "no matches"), or the command was interrupted: then the status is not known.
 */
function bashResult(structured: Obj, input: Obj, prior: Substance | undefined): Substance | undefined {
  if (!prior?.command || prior.command.background || input.run_in_background === true) return undefined;
  if (structured.interrupted !== false || structured.backgroundTaskId !== undefined || structured.returnCodeInterpretation !== undefined) return undefined;
  return { command: { ...prior.command, exitCode: 0 } };
}

// ---- search ----------------------------------------------------------------------------

function searchAt(input: Obj, ctx: SubstanceContext): SearchInfo | undefined {
  const pattern = str(input.pattern);
  if (!pattern) return undefined;
  const search: SearchInfo = { pattern };
  const where = str(input.path);
  // Without a path the tool searched the cwd.
  if (where) search.path = resolvedPath(where, ctx.cwd);
  else if (ctx.cwd) search.path = ctx.cwd;
  return search;
}

function foundPaths(search: SearchInfo, structured: Obj, ctx: SubstanceContext, matches: number | undefined): Substance {
  const out: SearchInfo = { ...search };
  const names = arr(structured.filenames)?.filter((f): f is string => typeof f === 'string' && f !== '');
  if (names?.length) out.paths = names.slice(0, SEARCH_PATHS_MAX).map((f) => resolvedPath(f, ctx.cwd));
  if (matches !== undefined && matches >= 0 && Number.isInteger(matches)) out.matches = matches;
  return { search: out };
}

const globInput = (input: Obj, ctx: SubstanceContext): Substance | undefined => {
  const search = searchAt(input, ctx);
  return search ? { search } : undefined;
};

function globResult(structured: Obj, _input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  return prior?.search ? foundPaths(prior.search, structured, ctx, num(structured.totalMatches) ?? num(structured.numFiles)) : undefined;
}

/** Glob's text lines that are not paths: its empty answer and its truncation note. */
const GLOB_NOTES = [/^No files found$/, /^\(Results are truncated\b/];

/** Glob's text result is one path per line (absolute in 2.1.3x and before, relative to the cwd in 2.1.332). */
function globText(text: string, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  if (!prior?.search) return undefined;
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !GLOB_NOTES.some((r) => r.test(l.trim())));
  return lines.length ? foundPaths(prior.search, { filenames: lines }, ctx, undefined) : undefined;
}

function grepResult(structured: Obj, _input: Obj, prior: Substance | undefined, ctx: SubstanceContext): Substance | undefined {
  if (!prior?.search) return undefined;
  // Lines for `content`, matches for `count`, files otherwise: what the mode counted.
  const matches = structured.mode === 'content' ? num(structured.numMatches) ?? num(structured.numLines) : structured.mode === 'count' ? num(structured.numMatches) : num(structured.numFiles);
  return foundPaths(prior.search, structured, ctx, matches);
}

const webSearchInput = (input: Obj): Substance | undefined => (str(input.query)?.trim() ? { search: { query: String(input.query) } } : undefined);
const webFetchInput = (input: Obj): Substance | undefined => (str(input.url)?.trim() ? { search: { path: String(input.url) } } : undefined);

// ---- plan ------------------------------------------------------------------------------

function todoInput(input: Obj): Substance | undefined {
  const todos = arr(input.todos);
  if (!todos) return undefined;
  return { plan: toolPlan(todos.map((t): PlanEntryInput => ({ content: undefined, ...obj(t) }))) };
}

const taskId = (v: unknown): string | undefined => str(v) ?? (num(v) !== undefined ? String(v) : undefined);

function partialPlan(entry: PlanEntryInput): Substance | undefined {
  const plan: ToolPlan = toolPlan([entry], { partial: true });
  return plan.entries.length ? { plan } : undefined;
}

const taskCreateInput = (input: Obj): Substance | undefined => partialPlan({ content: input.subject, status: 'pending', activeForm: input.activeForm });

/** TaskCreate's result names the id the new entry got. */
function taskCreateResult(structured: Obj, input: Obj): Substance | undefined {
  const task = obj(structured.task);
  const id = taskId(task?.id);
  return id ? partialPlan({ content: str(task?.subject) ?? input.subject, status: 'pending', activeForm: input.activeForm, id }) : undefined;
}

/** TaskUpdate names the entry by id; its text is the new subject, else the one it was created with. */
function taskUpdateInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const id = taskId(input.taskId);
  if (!id) return undefined;
  const status = input.status ?? 'pending';
  return partialPlan({ content: str(input.subject) ?? ctx.taskSubject?.(id), status, activeForm: input.activeForm, id });
}

// ---- reads -----------------------------------------------------------------------------

/** Read / NotebookRead: the file, and the line range when the call gave one (`offset` is 1-based). */
function readInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const p = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  if (!p) return undefined;
  const read: NonNullable<Substance['read']> = { path: resolvedPath(p, ctx.cwd) };
  const line = int(input.offset);
  if (line !== undefined && line >= 1) read.line = line;
  const limit = int(input.limit);
  if (limit !== undefined && limit >= 0) read.limit = limit;
  return { read };
}

/** LS: a listing is a search of one directory (OpenCode's list and Codex's listFiles read the same). */
function listInput(input: Obj, ctx: SubstanceContext): Substance | undefined {
  const p = str(input.path);
  return p ? { search: { path: resolvedPath(p, ctx.cwd) } } : undefined;
}

// ---- the table -------------------------------------------------------------------------

const SUBSTANCE: ReadonlyMap<ToolSpec, SubstanceSpec> = new Map<ToolSpec, SubstanceSpec>([
  [TOOL_TABLE.Read!, { input: readInput }],
  [TOOL_TABLE.LS!, { input: listInput }],
  [TOOL_TABLE.NotebookRead!, { input: readInput }],
  [TOOL_TABLE.Edit!, { input: editInput, result: editResult }],
  [TOOL_TABLE.MultiEdit!, { input: multiEditInput, result: editResult }],
  [TOOL_TABLE.Write!, { input: writeInput, result: writeResult }],
  [TOOL_TABLE.NotebookEdit!, { input: notebookInput, result: notebookResult }],
  [TOOL_TABLE.Bash!, { input: bashInput, result: bashResult }],
  [TOOL_TABLE.Glob!, { input: globInput, result: globResult, resultText: globText }],
  [TOOL_TABLE.Grep!, { input: globInput, result: grepResult }],
  [TOOL_TABLE.WebSearch!, { input: webSearchInput }],
  [TOOL_TABLE.web_search!, { input: webSearchInput }],
  [TOOL_TABLE.WebFetch!, { input: webFetchInput }],
  [TOOL_TABLE.web_fetch!, { input: webFetchInput }],
  [TOOL_TABLE.TodoWrite!, { input: todoInput }],
  [TOOL_TABLE.TaskCreate!, { input: taskCreateInput, result: taskCreateResult }],
  [TOOL_TABLE.TaskUpdate!, { input: taskUpdateInput }],
]);

const asObj = (v: unknown): Obj => obj(v) ?? {};

/** The substance the input alone shows; undefined for a tool that has none (or an input that says too little yet). */
export function inputSubstance(spec: ToolSpec | undefined, input: unknown, ctx: SubstanceContext): Substance | undefined {
  const s = spec && SUBSTANCE.get(spec);
  return s?.input(asObj(input), ctx);
}

/** What a successful result adds to (or corrects in) the input's substance; undefined when nothing. */
export function resultSubstance(spec: ToolSpec | undefined, structured: unknown, input: unknown, prior: Substance | undefined, ctx: SubstanceContext, text?: () => string | undefined): Substance | undefined {
  const s = spec && SUBSTANCE.get(spec);
  if (!s) return undefined;
  const o = obj(structured);
  if (o) return s.result?.(o, asObj(input), prior, ctx);
  if ((structured !== undefined && structured !== null) || !s.resultText) return undefined;
  const t = text?.();
  return t ? s.resultText(t, prior, ctx) : undefined;
}

