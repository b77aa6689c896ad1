// Every OpenCode built-in tool documented in docs/providers/opencode.md#built-in-tools, current and legacy:
// kind, and the action-text title built from its input. Titles read the input, not `state.title`:
// pending calls have no state.title, and OpenCode's own titles are a bare path, a pattern, "" or a
// multi-line patch summary depending on the tool and version.
import type { ToolKind } from '../../contract/index.js';
import { commandTitle, domainOf, usableTitle } from '../../present/titles.js';
import { obj, type Obj } from './part-view.js';
import { ownKeysOnly } from '../shared/table.js';
import { commandItemTitle } from '../shared/command-title.js';
import { resolvedPath } from '../../substance/index.js';

export interface TitleContext {
  /** A path as a person reads it: relative to the session cwd when that is known. */
  path(p: string): string;
  /** The session's directory, when known. */
  readonly cwd?: string;
}

export interface ToolSpec {
  kind: ToolKind;
  /** Action text from the input; undefined when the input does not say enough yet. */
  title?(input: Obj, ctx: TitleContext): string | undefined;
  /** The title while the input says nothing (a pending call has `input: {}`). */
  fallback: string;
  /** Where the tool is documented when it is not in the 1.18.33 binary (SRC or REAL recordings). */
  legacy?: string;
  /** Why the kind is what it is, when that is a judgement call. */
  why?: string;
}

const titled = (v: unknown): string | undefined => usableTitle(v);

/** `domainOf` parses a URL; a call's title is computed on several of its updates. */
const domains = new Map<string, string>();
function domain(url: string): string {
  let d = domains.get(url);
  if (d === undefined) {
    d = domainOf(url);
    if (domains.size >= 256) domains.clear();
    domains.set(url, d);
  }
  return d;
}
const oneLine = (v: unknown, max = 80): string | undefined => (typeof v === 'string' && v.trim() ? commandTitle(v, max) : undefined);
const quoted = (v: unknown) => (titled(v) ? `"${oneLine(v)}"` : undefined);
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** File paths named by an OpenCode / Codex style patch envelope (`*** Add File: p` …). */
export function patchFiles(patchText: unknown): string[] {
  if (typeof patchText !== 'string') return [];
  const files: string[] = [];
  for (const m of patchText.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
    const p = m[1]!.trim();
    if (p && !files.includes(p)) files.push(p);
  }
  return files;
}

function patchTitle(input: Obj, ctx: TitleContext): string | undefined {
  const files = patchFiles(input.patchText ?? input.patch);
  if (files.length === 1) return `Patching ${ctx.path(files[0]!)}`;
  if (files.length > 1) return `Patching ${files.length} files`;
  return undefined;
}

const inPath = (input: Obj, ctx: TitleContext) => {
  const p = titled(input.path);
  if (!p) return '';
  const rel = ctx.path(p);
  return rel === '.' ? '' : ` in ${rel}`;
};

const LSP_VERBS: Record<string, string> = {
  goToDefinition: 'Finding definition',
  findReferences: 'Finding references',
  hover: 'Reading type info',
  documentSymbol: 'Listing symbols',
  workspaceSymbol: 'Searching symbols',
  goToImplementation: 'Finding implementations',
  prepareCallHierarchy: 'Reading call hierarchy',
  incomingCalls: 'Finding callers',
  outgoingCalls: 'Finding callees',
};
ownKeysOnly(LSP_VERBS);

function lspTitle(input: Obj, ctx: TitleContext): string | undefined {
  const op = titled(input.operation);
  if (!op) return undefined;
  const verb = LSP_VERBS[op] ?? `Running LSP ${op}`;
  if (op === 'workspaceSymbol') return titled(input.query) ? `${verb} for "${String(input.query)}"` : verb;
  const file = titled(input.filePath);
  if (!file) return verb;
  const at = op === 'documentSymbol' || typeof input.line !== 'number' ? '' : `:${input.line}${typeof input.character === 'number' ? `:${input.character}` : ''}`;
  return `${verb} in ${ctx.path(file)}${at}`;
}

function todoTitle(input: Obj): string | undefined {
  if (!Array.isArray(input.todos)) return undefined;
  const todos = input.todos.map((t) => obj(t) ?? {});
  const done = todos.filter((t) => t.status === 'completed' || t.status === 'cancelled').length;
  return `Updating todo list (${done}/${todos.length} done)`;
}

function questionTitle(input: Obj): string | undefined {
  if (!Array.isArray(input.questions) || input.questions.length === 0) return undefined;
  if (input.questions.length > 1) return `Asking ${count(input.questions.length, 'question')}`;
  const q = obj(input.questions[0]) ?? {};
  const what = oneLine(q.question) ?? oneLine(q.header);
  return what ? `Asking: ${what}` : 'Asking 1 question';
}

/** The table. Keys are OpenCode tool ids exactly as they appear in `part.tool`. */
export const TOOL_TABLE: Readonly<Record<string, ToolSpec>> = {
  bash: {
    kind: 'bash',
    // One rule for every provider's commands (src/adapters/shared/command-title.ts): `cat
    // README.md` is `Reading README.md` here as in Codex and Claude. The model's description
    // goes to metadata.command.description, not into the title.
    title: (i, c) => (typeof i.command === 'string' && i.command.trim() ? commandItemTitle(i.command, titled(i.workdir) ? resolvedPath(String(i.workdir), c.cwd) : c.cwd) : undefined),
    fallback: 'Running a shell command',
  },
  read: { kind: 'file_read', title: (i, c) => (titled(i.filePath) ? `Reading ${c.path(String(i.filePath))}` : undefined), fallback: 'Reading a file' },
  write: { kind: 'file_write', title: (i, c) => (titled(i.filePath) ? `Writing ${c.path(String(i.filePath))}` : undefined), fallback: 'Writing a file' },
  edit: { kind: 'file_edit', title: (i, c) => (titled(i.filePath) ? `Editing ${c.path(String(i.filePath))}` : undefined), fallback: 'Editing a file' },
  multiedit: {
    kind: 'file_edit',
    title: (i, c) => {
      if (!titled(i.filePath)) return undefined;
      const n = Array.isArray(i.edits) ? i.edits.length : 0;
      return `Editing ${c.path(String(i.filePath))}${n > 1 ? ` (${n} edits)` : ''}`;
    },
    fallback: 'Editing a file',
    legacy: 'SRC',
  },
  apply_patch: { kind: 'file_edit', title: patchTitle, fallback: 'Applying a patch' },
  patch: { kind: 'file_edit', title: patchTitle, fallback: 'Applying a patch', legacy: 'SRC' },
  glob: { kind: 'file_read', title: (i, c) => (titled(i.pattern) ? `Finding files matching ${quoted(i.pattern)}${inPath(i, c)}` : undefined), fallback: 'Finding files' },
  grep: {
    kind: 'file_read',
    title: (i, c) => (titled(i.pattern) ? `Searching for ${quoted(i.pattern)}${inPath(i, c)}${titled(i.include) ? ` (${String(i.include)})` : ''}` : undefined),
    fallback: 'Searching files',
  },
  list: {
    kind: 'file_read',
    title: (i, c) => {
      const where = inPath(i, c);
      return where ? `Listing files${where}` : undefined;
    },
    fallback: 'Listing files',
    legacy: 'SRC',
  },
  codesearch: {
    kind: 'file_read',
    title: (i) => (titled(i.query) ? `Searching code for ${quoted(i.query)}` : undefined),
    fallback: 'Searching code',
    legacy: 'SRC',
    why: 'code search is a read-only search (adapter conventions: grep / glob / code search → file_read)',
  },
  lsp: { kind: 'file_read', title: lspTitle, fallback: 'Querying the language server', why: 'LSP queries read code without changing it' },
  task: {
    kind: 'subagent',
    // The spec's golden example: a task with a description is titled with exactly that description.
    title: (i) => titled(i.description) ?? (titled(i.subagent_type) ? `Running ${String(i.subagent_type)} agent` : undefined),
    fallback: 'Running a subagent',
  },
  batch: {
    kind: 'subagent',
    title: (i) => (Array.isArray(i.tool_calls) && i.tool_calls.length ? `Running ${count(i.tool_calls.length, 'tool')} in parallel` : undefined),
    fallback: 'Running tools in parallel',
    legacy: 'SRC',
    why: 'batch delegates work to other tool calls (each its own part), the nearest intent is a subagent',
  },
  webfetch: { kind: 'web_search', title: (i) => (titled(i.url) ? `Fetching ${domain(String(i.url))}` : undefined), fallback: 'Fetching a web page' },
  websearch: { kind: 'web_search', title: (i) => (titled(i.query) ? `Searching ${oneLine(i.query)}` : undefined), fallback: 'Searching the web' },
  todowrite: { kind: 'todo', title: todoTitle, fallback: 'Updating todo list' },
  todoread: { kind: 'todo', fallback: 'Reading todo list', legacy: 'REAL' },
  question: { kind: 'question', title: questionTitle, fallback: 'Asking the user' },
  plan_exit: { kind: 'question', fallback: 'Switching to build agent', why: 'leaving plan mode asks the user to approve the plan' },
  plan_enter: { kind: 'question', fallback: 'Switching to plan agent', why: 'the plan-mode counterpart of plan_exit (named in session permissions)' },
  skill: {
    kind: 'file_read',
    title: (i) => (titled(i.name) ? `Loading skill ${String(i.name)}` : undefined),
    fallback: 'Loading a skill',
    why: 'a skill loads instruction files into the context',
  },
  execute: {
    kind: 'bash',
    title: (i) => titled(i.description),
    fallback: 'Running code',
    why: 'code mode runs a program, the same intent as a shell command',
  },
  reload_config: {
    kind: 'bash',
    fallback: 'Reloading configuration',
    legacy: 'SRC',
    why: 'runtime management, the nearest intent is shell management',
  },
  invalid: {
    kind: 'unknown',
    title: (i) => (titled(i.tool) ? `Calling unavailable tool ${String(i.tool)}` : undefined),
    fallback: 'Calling an unavailable tool',
    why: 'OpenCode routes calls to tools that do not exist here; the adapter names the call after the tool the model asked for',
  },
};

/** Table lookup by OpenCode tool id (exact, then lower-cased: OpenCode repairs the case itself). */
export function toolSpec(tool: string): ToolSpec | undefined {
  return Object.hasOwn(TOOL_TABLE, tool) ? TOOL_TABLE[tool] : Object.hasOwn(TOOL_TABLE, tool.toLowerCase()) ? TOOL_TABLE[tool.toLowerCase()] : undefined;
}

/** The title of a table tool for an input: action text, never empty. */
export function specTitle(spec: ToolSpec, input: unknown, ctx: TitleContext): string {
  const t = spec.title?.(obj(input) ?? {}, ctx);
  return t && t.trim() ? t.trim() : spec.fallback;
}

export const runningTitle = (name: string) => `Running ${name}`;
