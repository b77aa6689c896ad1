// The substance of another agent's call (docs/providers/acp.md, "What a call did"), from what
// ACP shows: `diff` content → metadata.files, `locations` of a file-changing call → files no diff
// names, the command and its exit → metadata.command, a search's pattern or query →
// metadata.search, a to-do list → metadata.plan, a read's one location → metadata.read. Our own frames carry their metadata whole in
// `_meta.toolnorm` and never come here.
import type { CommandRun, FileChange, FileOperation, FileRead, SearchInfo, ToolKind, ToolMetadata, ToolPlan } from '../../contract/index.js';
import { fileChange, toolPlan } from '../../substance/index.js';
import { diffStats } from '../../substance/diff.js';
import { scriptOf } from '../shared/shell.js';
import { arr, nonEmpty, obj, type Obj } from '../../fields.js';
import type { TerminalState } from './extensions.js';

/** What a merged call shows, as partOf has read it. */
export interface Shown {
  kind: ToolKind;
  /** The ACP kind the agent sent. */
  acpKind?: string;
  title?: string;
  input: unknown;
  /** Non-text content of every frame (diffs, terminals), in order. */
  blocks: readonly unknown[];
  locations?: readonly unknown[];
  terminal?: TerminalState;
  exitCode?: number | null;
  /** What the agent says the command is for (AIR `commandTitle`), when the title is something else. */
  description?: string;
}

/** v2 `DiffChange.operation` → FileOperation (`copy` makes a new file; unknown operations are kept only in metadata.acp). */
const V2_OPERATION: Readonly<Record<string, FileOperation>> = { add: 'create', modify: 'modify', delete: 'delete', move: 'rename', copy: 'create' };
/** ACP kinds whose `locations` are the files the call changes. */
const LOCATION_OPERATION: Readonly<Record<string, FileOperation>> = { edit: 'modify', delete: 'delete', move: 'rename' };

/** The `diff --git` section of a multi-file patch that is about `path` (the whole text when it has one section). */
function sectionOf(patch: string, path: string, only: boolean): string | undefined {
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.trim());
  if (sections.length <= 1) return only ? patch : sections.find((s) => s.includes(path));
  return sections.find((s) => (s.split('\n', 1)[0] ?? '').includes(path));
}

/** One diff content item (v1 `{path, oldText, newText}`, v2 `{changes, patch}`) as file changes. */
function changesOf(item: Obj): FileChange[] {
  const changes = arr(item.changes);
  if (changes) {
    const patch = obj(item.patch);
    const text = typeof patch?.text === 'string' ? patch.text : undefined;
    return changes.flatMap((c) => {
      const change = obj(c);
      const path = nonEmpty(change?.path);
      const op = typeof change?.operation === 'string' && Object.hasOwn(V2_OPERATION, change.operation) ? V2_OPERATION[change.operation] : undefined;
      if (!path || !op) return [];
      const from = change!.operation === 'move' ? nonEmpty(change!.oldPath) : undefined;
      const diff = text === undefined ? undefined : sectionOf(text, path, changes.length === 1);
      return [fileChange({ path, operation: op, ...(from ? { from } : {}), ...(diff ? { diff } : {}) })];
    });
  }
  const path = nonEmpty(item.path);
  if (!path || typeof item.newText !== 'string') return [];
  const oldText = typeof item.oldText === 'string' ? item.oldText : null;
  return [fileChange({ path, operation: oldText === null ? 'create' : 'modify', oldText, newText: item.newText })];
}

/** One entry per path, in order: a second diff of the same file (MultiEdit's) adds its hunks. */
function addChange(files: FileChange[], next: FileChange): void {
  const at = files.findIndex((f) => f.path === next.path);
  if (at < 0) {
    files.push(next);
    return;
  }
  const prev = files[at]!;
  if (prev.diff === undefined || next.diff === undefined || prev.diff === next.diff) return;
  const { oldText: _o, newText: _n, ...rest } = prev;
  const diff = prev.diff + next.diff;
  files[at] = { ...rest, diff, stats: diffStats(diff) };
}

function filesOf(s: Shown): FileChange[] | undefined {
  const files: FileChange[] = [];
  for (const b of s.blocks) if (obj(b)?.type === 'diff') for (const c of changesOf(obj(b)!)) addChange(files, c);
  const op = s.acpKind && Object.hasOwn(LOCATION_OPERATION, s.acpKind) ? LOCATION_OPERATION[s.acpKind] : s.kind === 'file_edit' || s.kind === 'file_write' ? 'modify' : undefined;
  const paths = (s.locations ?? []).map((l) => nonEmpty(obj(l)?.path)).filter((p): p is string => !!p);
  if (op === 'rename' && paths.length === 2 && !files.length) files.push(fileChange({ path: paths[1]!, from: paths[0]!, operation: 'rename' }));
  else if (op) for (const path of paths) if (!files.some((f) => f.path === path || f.from === path)) files.push(fileChange({ path, operation: op === 'rename' ? 'modify' : op }));
  return files.length ? files : undefined;
}

/** The command: the input's, else the terminal's, else the title (claude-agent-acp and codex-acp title a command with its command line). */
function commandOf(s: Shown): CommandRun | undefined {
  const input = obj(s.input);
  const command = scriptOf(input?.command) ?? scriptOf(input?.cmd) ?? nonEmpty(s.terminal?.command) ?? (s.acpKind === 'execute' ? nonEmpty(s.title) : undefined);
  if (!command?.trim()) return undefined;
  const run: CommandRun = { command };
  const cwd = nonEmpty(input?.cwd) ?? nonEmpty(s.terminal?.cwd);
  if (cwd) run.cwd = cwd;
  if (s.exitCode !== undefined) run.exitCode = s.exitCode;
  const description = nonEmpty(input?.description) ?? s.description;
  if (description && description !== command) run.description = description;
  if (input?.run_in_background === true) run.background = true;
  return run;
}

function searchOf(s: Shown): SearchInfo | undefined {
  const input = obj(s.input);
  const pattern = nonEmpty(input?.pattern);
  const query = nonEmpty(input?.query);
  if (s.acpKind !== 'search' || (!pattern && !query)) return undefined;
  const search: SearchInfo = {};
  if (query) search.query = query;
  if (pattern) search.pattern = pattern;
  const path = nonEmpty(input?.path);
  if (path) search.path = path;
  const paths = (s.locations ?? []).map((l) => nonEmpty(obj(l)?.path)).filter((p): p is string => !!p).slice(0, 100);
  if (paths.length) search.paths = paths;
  return search;
}

/** A to-do call's list (`todos`, as Claude's TodoWrite and OpenCode's todowrite write it). */
function planOf(s: Shown): ToolPlan | undefined {
  const todos = arr(obj(s.input)?.todos);
  return s.kind === 'todo' && todos ? toolPlan(todos.map((t) => obj(t) ?? { content: undefined }) as { content: unknown }[]) : undefined;
}

/** A read's one location (ACP `read` kind): the file, and the line when the agent gave one. */
function readOf(s: Shown): FileRead | undefined {
  if (s.acpKind !== 'read' || s.locations?.length !== 1) return undefined;
  const loc = obj(s.locations[0]);
  const path = nonEmpty(loc?.path);
  if (!path) return undefined;
  const line = loc?.line;
  return typeof line === 'number' && Number.isInteger(line) && line >= 1 ? { path, line } : { path };
}

/** The typed substance keys of another agent's call. */
export function substanceOf(s: Shown): Pick<ToolMetadata, 'files' | 'command' | 'search' | 'plan' | 'read'> {
  const out: Pick<ToolMetadata, 'files' | 'command' | 'search' | 'plan' | 'read'> = {};
  const read = readOf(s);
  if (read) out.read = read;
  const files = filesOf(s);
  if (files) out.files = files;
  const command = s.kind === 'bash' ? commandOf(s) : undefined;
  if (command) out.command = command;
  const search = searchOf(s);
  if (search) out.search = search;
  const plan = planOf(s);
  if (plan) out.plan = plan;
  return out;
}
