// The one declarative table of Claude Code tools: kind and title per tool, current and legacy
// names alike (docs/providers/claude.md#tool-names and #title-sources). A tool renamed across versions is one entry with aliases,
// so Task/Agent, KillBash/KillShell/TaskStop, BashOutput/TaskOutput and SlashCommand/Skill always
// look the same. `name` stays the explicit tool name the model emitted.
import type { ToolKind } from '../../contract/index.js';
import { kindFromName } from '../shared/kinds.js';
import { mcpIntentKind, mcpTitle } from '../shared/mcp.js';
import { capitalize, commandTitle, domainOf, usableTitle, words } from '../../present/titles.js';
import { isMcpName, splitMcpName, wholeMcpName, type McpName } from '../shared/mcp-names.js';
import { relPath } from './paths.js';
import { commandItemTitle } from '../shared/command-title.js';
import { num, str } from '../../fields.js';

export type Input = Record<string, unknown>;

export interface TitleContext {
  cwd?: string;
  /** Description of a background task (Bash `run_in_background`, agents) by task id, when seen. */
  taskDescription?(taskId: string): string | undefined;
}

export interface ToolSpec {
  kind: ToolKind;
  /** Action text from the input; undefined when the input does not say enough (yet). */
  title?(input: Input, ctx: TitleContext): string | undefined;
  /** Action text when `title` has nothing, e.g. while the input is still streaming. */
  fallback: string;
  /** Other names of the same tool (older or newer Claude Code versions). */
  aliases?: readonly string[];
  /** A shell tool: `Exit code N` results are `exit_nonzero` with `metadata.exitCode`. */
  shell?: boolean;
  /** The person-readable result is the structured result's text content (subagent reports). */
  textFromStructuredContent?: boolean;
}

const path = (input: Input, ctx: TitleContext, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const p = str(input[k]);
    if (p) return relPath(p, ctx.cwd);
  }
  return undefined;
};
const clip = (text: string, max = 80): string => commandTitle(text, max);
const quoted = (v: unknown) => (str(v) ? `"${clip(String(v), 60)}"` : undefined);

function readRange(input: Input): string {
  const offset = num(input.offset);
  const limit = num(input.limit);
  if (str(input.pages)) return ` (pages ${String(input.pages)})`;
  if (offset !== undefined && limit !== undefined) return ` (lines ${offset}–${offset + limit - 1})`;
  if (offset !== undefined) return ` (from line ${offset})`;
  if (limit !== undefined) return ` (first ${limit} lines)`;
  return '';
}

function backgroundRef(input: Input, ctx: TitleContext): string | undefined {
  const id = str(input.bash_id) ?? str(input.task_id) ?? str(input.shell_id) ?? str(input.taskId);
  if (!id) return undefined;
  const description = ctx.taskDescription?.(id);
  return description ? `"${clip(description, 60)}"` : id;
}

function todoTitle(input: Input): string | undefined {
  if (!Array.isArray(input.todos)) return undefined;
  const todos = input.todos as { status?: unknown }[];
  const done = todos.filter((t) => t && t.status === 'completed').length;
  return `Updating todo list (${done}/${todos.length} done)`;
}

function questionTitle(input: Input): string | undefined {
  if (!Array.isArray(input.questions) || input.questions.length === 0) return str(input.question) ? `Asking: ${clip(String(input.question))}` : undefined;
  if (input.questions.length > 1) return `Asking ${input.questions.length} questions`;
  const q = input.questions[0] as Input | undefined;
  const text = str(q?.question) ?? str(q?.header);
  return text ? `Asking: ${clip(text)}` : undefined;
}

function notebookTitle(input: Input, ctx: TitleContext): string | undefined {
  const p = path(input, ctx, 'notebook_path');
  if (!p) return undefined;
  const cell = str(input.cell_id);
  if (input.edit_mode === 'insert') return `Inserting cell in ${p}`;
  if (input.edit_mode === 'delete') return `Deleting cell${cell ? ` ${cell}` : ''} in ${p}`;
  return `Editing cell${cell ? ` ${cell}` : ''} in ${p}`;
}

function toolSearchTitle(input: Input): string | undefined {
  const q = str(input.query);
  if (!q) return undefined;
  if (q.startsWith('select:')) return `Loading tool ${clip(q.slice('select:'.length).split(',').join(', '), 60)}`;
  return `Searching tools for ${quoted(q)}`;
}

/** Every Claude Code tool named in docs/providers/claude.md#tool-names, plus the Messages-API server tools. */
export const TOOL_TABLE: Readonly<Record<string, ToolSpec>> = {
  // Shell and shell management → bash.
  // The command makes the title, by the one rule every provider shares; the model's description goes to metadata.command.
  Bash: { kind: 'bash', shell: true, aliases: ['PowerShell'], fallback: 'Running command', title: (i, c) => (str(i.command)?.trim() ? commandItemTitle(i.command, c.cwd) : undefined) },
  BashOutput: { kind: 'bash', aliases: ['TaskOutput'], fallback: 'Reading background output', title: (i, c) => { const r = backgroundRef(i, c); return r ? `Reading output of ${r}` : undefined; } },
  KillBash: { kind: 'bash', aliases: ['KillShell', 'TaskStop'], fallback: 'Stopping background task', title: (i, c) => { const r = backgroundRef(i, c); return r ? `Stopping ${r}` : undefined; } },
  Monitor: { kind: 'bash', shell: true, fallback: 'Monitoring command', title: (i) => usableTitle(i.description) ?? (str(i.command) ? `Monitoring ${clip(String(i.command), 60)}` : undefined) },
  EnterWorktree: { kind: 'bash', fallback: 'Entering worktree', title: (i, c) => { const t = str(i.name) ?? path(i, c, 'path'); return t ? `Entering worktree ${t}` : undefined; } },
  ExitWorktree: { kind: 'bash', fallback: 'Leaving worktree' },

  // Reading, listing and searching the workspace → file_read.
  Read: { kind: 'file_read', fallback: 'Reading file', title: (i, c) => { const p = path(i, c, 'file_path', 'path'); return p ? `Reading ${p}${readRange(i)}` : undefined; } },
  NotebookRead: { kind: 'file_read', fallback: 'Reading notebook', title: (i, c) => { const p = path(i, c, 'notebook_path'); return p ? `Reading ${p}` : undefined; } },
  LS: { kind: 'file_read', fallback: 'Listing directory', title: (i, c) => { const p = path(i, c, 'path'); return p ? `Listing ${p}` : undefined; } },
  Glob: { kind: 'file_read', fallback: 'Finding files', title: (i, c) => { const p = str(i.pattern); if (!p) return undefined; const dir = path(i, c, 'path'); return `Finding ${clip(p, 60)}${dir && dir !== '.' ? ` in ${dir}` : ''}`; } },
  Grep: {
    kind: 'file_read', fallback: 'Searching files',
    title: (i, c) => {
      const q = quoted(i.pattern);
      if (!q) return undefined;
      const dir = path(i, c, 'path');
      const filter = str(i.glob) ?? str(i.type);
      return `Searching for ${q}${dir && dir !== '.' ? ` in ${dir}` : ''}${filter ? ` (${filter})` : ''}`;
    },
  },
  // ToolSearch and Skill load definitions or instructions into the context: nearest intent is a read.
  ToolSearch: { kind: 'file_read', aliases: ['MCPSearch'], fallback: 'Searching tools', title: toolSearchTitle },
  Skill: { kind: 'file_read', aliases: ['SlashCommand'], fallback: 'Loading skill', title: (i) => { const s = str(i.skill); if (s) return `Loading skill ${s}${str(i.args) ? ` ${clip(String(i.args), 40)}` : ''}`; const cmd = str(i.command); return cmd ? `Running ${clip(cmd, 60)}` : undefined; } },

  // Creating or overwriting a file → file_write; editing → file_edit.
  Write: { kind: 'file_write', fallback: 'Writing file', title: (i, c) => { const p = path(i, c, 'file_path', 'path'); return p ? `Writing ${p}` : undefined; } },
  Edit: { kind: 'file_edit', fallback: 'Editing file', title: (i, c) => { const p = path(i, c, 'file_path', 'path'); return p ? `Editing ${p}` : undefined; } },
  MultiEdit: { kind: 'file_edit', fallback: 'Editing file', title: (i, c) => { const p = path(i, c, 'file_path'); if (!p) return undefined; const n = Array.isArray(i.edits) ? i.edits.length : 0; return n > 1 ? `Editing ${p} (${n} edits)` : `Editing ${p}`; } },
  NotebookEdit: { kind: 'file_edit', fallback: 'Editing notebook', title: notebookTitle },

  // The web → web_search.
  WebFetch: { kind: 'web_search', fallback: 'Fetching web page', title: (i) => (str(i.url) ? `Fetching ${domainOf(String(i.url))}` : undefined) },
  WebSearch: { kind: 'web_search', fallback: 'Searching the web', title: (i) => (str(i.query) ? `Searching ${clip(String(i.query))}` : undefined) },

  // Subagents and agent coordination → subagent.
  Task: { kind: 'subagent', aliases: ['Agent'], fallback: 'Running subagent', textFromStructuredContent: true, title: (i) => usableTitle(i.description) ?? (str(i.subagent_type) ? `Running ${String(i.subagent_type)} agent` : undefined) },
  SendMessage: { kind: 'subagent', fallback: 'Sending message to agent', title: (i) => { const to = str(i.to) ?? str(i.recipient) ?? str(i.agent_id) ?? str(i.agentId); return to ? `Sending message to ${to}` : undefined; } },
  ListAgents: { kind: 'subagent', fallback: 'Listing agents' },
  Workflow: { kind: 'subagent', fallback: 'Running workflow', title: (i) => { const t = usableTitle(i.title) ?? usableTitle(i.name) ?? usableTitle(i.description); return t ? `Running workflow ${t}` : undefined; } },
  ReportFindings: { kind: 'subagent', fallback: 'Reporting findings' },

  // Todo lists, task lists and scheduled prompts → todo.
  TodoWrite: { kind: 'todo', fallback: 'Updating todo list', title: todoTitle },
  TaskCreate: { kind: 'todo', fallback: 'Creating task', title: (i) => (str(i.subject) ? `Creating task ${clip(String(i.subject), 60)}` : undefined) },
  TaskUpdate: { kind: 'todo', fallback: 'Updating task', title: (i) => { const id = str(i.taskId) ?? (num(i.taskId) !== undefined ? String(i.taskId) : undefined); if (!id) return undefined; return str(i.status) ? `Marking task ${id} ${String(i.status).replace(/_/g, ' ')}` : `Updating task ${id}`; } },
  TaskGet: { kind: 'todo', fallback: 'Reading task', title: (i) => { const id = str(i.taskId) ?? (num(i.taskId) !== undefined ? String(i.taskId) : undefined); return id ? `Reading task ${id}` : undefined; } },
  TaskList: { kind: 'todo', fallback: 'Listing tasks' },
  CronCreate: { kind: 'todo', fallback: 'Scheduling prompt', title: (i) => (str(i.cron) ? `Scheduling prompt (${String(i.cron)})` : undefined) },
  CronDelete: { kind: 'todo', fallback: 'Deleting scheduled prompt', title: (i) => { const id = str(i.id) ?? str(i.cronId); return id ? `Deleting scheduled prompt ${id}` : undefined; } },
  CronList: { kind: 'todo', fallback: 'Listing scheduled prompts' },
  ScheduleWakeup: { kind: 'todo', fallback: 'Scheduling wake-up', title: (i) => (num(i.delaySeconds) !== undefined ? `Scheduling wake-up in ${String(i.delaySeconds)} s` : undefined) },

  // Asking the user and plan approval → question.
  AskUserQuestion: { kind: 'question', fallback: 'Asking for input', title: questionTitle },
  ExitPlanMode: { kind: 'question', fallback: 'Presenting plan for approval' },
  EnterPlanMode: { kind: 'question', fallback: 'Entering plan mode' },

  // MCP resources → mcp.
  ListMcpResourcesTool: { kind: 'mcp', fallback: 'Listing MCP resources', title: (i) => (str(i.server) ? `Listing MCP resources of ${String(i.server)}` : undefined) },
  ReadMcpResourceTool: { kind: 'mcp', fallback: 'Reading MCP resource', title: (i) => (str(i.uri) ? `Reading MCP resource ${clip(String(i.uri), 60)}` : undefined) },
  ReadMcpResourceDirTool: { kind: 'mcp', fallback: 'Listing MCP resource directory', title: (i) => (str(i.uri) ? `Listing MCP resource ${clip(String(i.uri), 60)}` : undefined) },

  // Messages-API server tools (`server_tool_use` blocks), same intents.
  web_search: { kind: 'web_search', fallback: 'Searching the web', title: (i) => (str(i.query) ? `Searching ${clip(String(i.query))}` : undefined) },
  web_fetch: { kind: 'web_search', fallback: 'Fetching web page', title: (i) => (str(i.url) ? `Fetching ${domainOf(String(i.url))}` : undefined) },
  code_execution: { kind: 'bash', fallback: 'Running code', title: (i) => (str(i.command) ? clip(String(i.command)) : undefined) },
  bash_code_execution: { kind: 'bash', fallback: 'Running command', title: (i) => (str(i.command) ? clip(String(i.command)) : undefined) },
  text_editor_code_execution: { kind: 'file_edit', fallback: 'Editing file', title: (i, c) => { const p = path(i, c, 'path'); return p ? `Editing ${p}` : undefined; } },
  tool_search_tool_regex: { kind: 'file_read', fallback: 'Searching tools', title: (i) => (str(i.query) ?? str(i.pattern) ? `Searching tools for ${quoted(str(i.query) ?? str(i.pattern))}` : undefined) },
  tool_search_tool_bm25: { kind: 'file_read', fallback: 'Searching tools', title: (i) => (str(i.query) ? `Searching tools for ${quoted(i.query)}` : undefined) },
};

const BY_NAME: ReadonlyMap<string, ToolSpec> = new Map(
  Object.entries(TOOL_TABLE).flatMap(([name, spec]) => [[name, spec] as const, ...(spec.aliases ?? []).map((a) => [a, spec] as const)]),
);

/** Every tool name the table knows, aliases included. */
export const KNOWN_TOOL_NAMES: readonly string[] = [...BY_NAME.keys()];

export const specOf = (name: string): ToolSpec | undefined => BY_NAME.get(name);

export interface ToolIdentity {
  name: string;
  kind: ToolKind;
  title: string;
  mcp?: McpName;
  spec?: ToolSpec;
}

export interface IdentityContext extends TitleContext {
  mcpServers?: Iterable<string>;
  /** `tool_use_meta[].tool_name` for this call, when the frame had one. */
  mcpMetaTool?: string;
}

const asInput = (input: unknown): Input => (input && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : {});

/** Name, kind and title of one call. Never throws; never returns an empty or raw-name title. */
export function identify(rawName: string, input: unknown, ctx: IdentityContext): ToolIdentity {
  const args = asInput(input);
  // Checked here first: most calls are not MCP, and the split (a scan of the known servers) then stays cold.
  const mcp = isMcpName(rawName) ? splitMcpName(rawName, ctx.mcpServers, ctx.mcpMetaTool) ?? wholeMcpName(rawName) : undefined;
  if (mcp) return { name: mcp.tool, kind: mcpIntentKind(mcp.server, mcp.tool), title: mcpTitle(mcp.server, mcp.tool, args), mcp };
  const spec = BY_NAME.get(rawName);
  if (!spec) {
    const readable = capitalize(words(rawName)) || 'tool';
    return { name: rawName || 'unknown', kind: kindFromName(rawName), title: `Running ${readable}` };
  }
  let title: string | undefined;
  try {
    title = spec.title?.(args, ctx);
  } catch {
    title = undefined;
  }
  title = title?.trim();
  return { name: rawName, kind: spec.kind, title: title && title !== rawName ? title : spec.fallback, spec };
}
