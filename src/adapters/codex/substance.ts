// The typed substance of Codex calls (docs/contract.md#substance), in every form: the command a
// shell call ran, what a search looked for, the files a patch changed and the plan an update
// wrote. Built with the shared builders of src/substance, so Codex says it the way every provider does.
import type { CommandRun, FileChange as ContractFileChange, SearchInfo, ToolPlan } from '../../contract/index.js';
import { absolutePath, applyPatchFiles, fileChange, resolvedPath, toolPlan, type PatchProblem } from '../../substance/index.js';
import { parseCommand } from '../shared/command-parse.js';
import { scriptOf } from '../shared/shell.js';
import type { FileChange } from './changes.js';
import type { PlanStep } from './plans.js';
import type { SearchAction } from './web-search.js';

/** `metadata.command`: the script without its `bash -lc` wrapper, where it ran, how it ended. */
export function commandRun(command: unknown, cwd?: string, exitCode?: number | null): CommandRun | undefined {
  const script = scriptOf(command)?.trim();
  if (!script) return undefined;
  const run: CommandRun = { command: script };
  if (cwd) run.cwd = cwd;
  if (exitCode === null || (exitCode !== undefined && Number.isInteger(exitCode))) run.exitCode = exitCode;
  return run;
}

/**
 * `metadata.search` of a command the shared parser reads as a search (`rg -n foo src`): what it
 * matched (a regular expression, so `pattern`) and where (absolute when the cwd is known).
 * Undefined when no action of the command is a search.
 */
export function commandSearch(command: unknown, cwd?: string): SearchInfo | undefined {
  const script = scriptOf(command);
  const search = script ? parseCommand(script)?.find((a) => a.type === 'search') : undefined;
  if (!search) return undefined;
  const info: SearchInfo = {};
  if (search.query) info.pattern = search.query;
  if (search.path) info.path = resolvedPath(search.path, cwd);
  else if (cwd && absolutePath(cwd)) info.path = cwd;
  return Object.keys(info).length ? info : undefined;
}

/** `metadata.search` of a web search: the query, or the page (as `path`) and what was looked for on it. */
export function webSearchInfo(action: SearchAction | undefined, itemQuery: string | undefined): SearchInfo | undefined {
  const info: SearchInfo = {};
  const query = action?.query ?? action?.queries?.[0] ?? itemQuery;
  if (action?.type === 'openPage' || action?.type === 'findInPage') {
    if (action.url) info.path = action.url;
    if (action.pattern) info.pattern = action.pattern;
    if (!action.url && query) info.query = query;
  } else if (query) {
    info.query = query;
  }
  return Object.keys(info).length ? info : undefined;
}

/** A diff the provider gave without file headers (app-server `unified_diff` starts at `@@`) gets them. */
function withHeaders(diff: string, from: string, to: string): string {
  return /^--- /m.test(diff.slice(0, diff.indexOf('@@') === -1 ? diff.length : diff.indexOf('@@'))) ? diff : `--- ${from}\n+++ ${to}\n${diff}`;
}

/**
 * `metadata.files` of a fileChange item (exec, app-server, rollout events). Codex gives an added
 * file's content, a deleted file's old content and an update's unified diff in the same field.
 */
export function changeFiles(changes: readonly FileChange[], cwd?: string): ContractFileChange[] {
  return changes.map((c) => {
    const path = resolvedPath(c.path, cwd);
    switch (c.kind) {
      case 'add':
        return fileChange({ path, operation: 'create', ...(c.diff !== undefined ? { newText: c.diff } : {}) });
      case 'delete':
        return fileChange({ path, operation: 'delete', ...(c.diff !== undefined ? { oldText: c.diff } : {}) });
      default: {
        const to = c.movePath ? resolvedPath(c.movePath, cwd) : path;
        const diff = c.diff !== undefined && c.diff.includes('@@') ? withHeaders(c.diff, path, to) : undefined;
        return fileChange({ path: to, operation: c.movePath ? 'rename' : 'modify', ...(c.movePath ? { from: path } : {}), ...(diff ? { diff } : {}) });
      }
    }
  });
}

// A patch is read on every sighting of its call (view, outcome): parse each text once.
let lastPatch: { patch: string; cwd: string | undefined; files: ContractFileChange[]; problem?: PatchProblem } | undefined;

/** `metadata.files` of an `apply_patch` envelope, and the problem when it is malformed (then no files). */
export function patchFiles(patch: string, cwd?: string): { files: ContractFileChange[]; problem?: PatchProblem } {
  if (lastPatch?.patch === patch && lastPatch.cwd === cwd) return lastPatch;
  const r = applyPatchFiles(patch, cwd);
  lastPatch = { patch, cwd, ...r };
  return r;
}

/**
 * `metadata.plan` of a `plan` item: the plan Codex proposes (plan mode) is markdown text, so its
 * list items are the entries, all pending (none has run); text with no list is one entry.
 */
export function proposedPlan(text: string | undefined): ToolPlan | undefined {
  if (!text?.trim()) return undefined;
  const items = [...text.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]+)?(.+)$/gm)].map((m) => m[1]!.trim());
  return toolPlan((items.length ? items : [text.trim()]).map((content) => ({ content, status: 'pending' })));
}

const STEP_STATUS: Record<PlanStep['status'], string> = { pending: 'pending', inProgress: 'in_progress', completed: 'completed' };

/** `metadata.plan` of an update_plan call, a turn plan or a to-do list. */
export function planOf(steps: readonly PlanStep[], explanation?: string): ToolPlan {
  return toolPlan(steps.map((s) => ({ content: s.step, status: STEP_STATUS[s.status] })), explanation ? { explanation } : {});
}
