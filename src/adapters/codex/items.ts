// THE Codex item table, keyed by item type (camelCase; exec `command_execution` and rollout
// `CommandExecution` resolve to the same row). A row says the name, kind, title, input, metadata,
// output and failure of an item; `itemView`/`itemOutcome` apply the rules every row shares
// (status → error, durationMs → elapsedMs, exit code → metadata.exitCode).
import type { CommandRun, ToolError, ToolKind, ToolMetadata } from '../../contract/index.js';
import { mcpIntentKind, mcpTitle } from '../shared/mcp.js';
import type { ToolOutput } from '../../present/output.js';
import { displayPath, words } from '../../present/titles.js';
import { AGENT_FAILED, SPAWNING_TOOLS, activityTitle, agentStates, agentToolTitle, receiversOf } from './subagents.js';
import { readCallOutput } from './output.js';
import { callArgs, callOutcome, callRef, callView } from './tools.js';
import { FAILURES } from './errors.js';
import { changeToolKind, changesInput, changesOf, changesText, changesTitle, type FileChange } from './changes.js';
import { commandActions } from './commands.js';
import { commandItemTitle, lineTitle } from '../shared/command-title.js';
import { blocksToOutput, mcpResult, type Converted } from './content.js';
import { arr, camel, durationMsOf, get, int, nonEmpty, num, obj, parseMaybeJson, pathOf, statusOf, text, type Obj } from './fields.js';
import { planSteps, planText, planTitle } from './plans.js';
import { commandLine } from '../shared/shell.js';
import type { Outcome, View } from './tracker.js';
import { searchAction, webSearchTitle } from './web-search.js';
import { ownKeysOnly } from '../shared/table.js';
import { changeFiles, commandRun, commandSearch, planOf, proposedPlan, webSearchInfo } from './substance.js';
import { fileChange } from '../../substance/index.js';

export interface ItemCtx {
  /** Session working directory: titles show paths relative to it. */
  cwd?: string;
}

interface ItemRule {
  /** Canonical tool name; defaults to the camelCase item type. */
  name?: (item: Obj) => string;
  kind: ToolKind | ((item: Obj) => ToolKind);
  title: (item: Obj, ctx: ItemCtx) => string;
  input: (item: Obj, ctx: ItemCtx) => unknown;
  metadata?: (item: Obj, ctx: ItemCtx) => ToolMetadata;
  /** Successful output (and truncation notes for dropped image data). */
  output?: (item: Obj, ctx: ItemCtx) => Converted | undefined;
  /** The item's own failure report, beyond its status (an `error` field, `success: false`…). */
  failure?: (item: Obj, ctx: ItemCtx) => ToolError | undefined;
  /** Commands report an exit code; a non-zero one is `exit_nonzero`. */
  exitCode?: boolean;
  /** `metadata.command` of a command item; the outcome adds the exit code. */
  command?: (item: Obj, ctx: ItemCtx) => CommandRun | undefined;
  /** Items with no status that still carry a whole outcome (e.g. a rollout function output). */
  outcome?: (item: Obj, ctx: ItemCtx) => Outcome | undefined;
}

const out = (output: ToolOutput | undefined): Converted => ({ output, truncated: [] });
const argsOf = (item: Obj): unknown => {
  const a = parseMaybeJson(get(item, 'arguments'));
  return a === undefined ? {} : a;
};
const argsObj = (item: Obj): Obj => obj(argsOf(item)) ?? {};

function changes(item: Obj): FileChange[] {
  return changesOf(item.changes);
}

/** Git-style `A hello.txt` lines for a patch with no diff text (exec reports only paths). */
function changeSummary(list: readonly FileChange[], cwd?: string): string {
  const letter = { add: 'A', delete: 'D', update: 'M' } as const;
  return list.map((c) => (c.movePath ? `R ${displayPath(c.path, cwd)} -> ${displayPath(c.movePath, cwd)}` : `${letter[c.kind]} ${displayPath(c.path, cwd)}`)).join('\n');
}

function collabTool(item: Obj): string {
  return camel(nonEmpty(item.tool) ?? 'agent');
}

export const ITEMS: Record<string, ItemRule> = {
  commandExecution: {
    kind: 'bash',
    // Action paths are shown relative to the session cwd, else to the directory the command ran in.
    title: (i, ctx) => commandItemTitle(i.command, ctx.cwd ?? pathOf(i.cwd)),
    input: (i) => {
      const input: Obj = { command: commandLine(i.command) ?? '' };
      const cwd = pathOf(i.cwd);
      if (cwd) input.cwd = cwd;
      return input;
    },
    command: (i, ctx) => commandRun(i.command, pathOf(i.cwd) ?? ctx.cwd),
    metadata: (i, ctx) => {
      const m: ToolMetadata = {};
      const search = commandSearch(i.command, pathOf(i.cwd) ?? ctx.cwd);
      if (search) m.search = search;
      const actions = commandActions(i);
      if (actions?.length) m.commandActions = actions;
      const pid = get(i, 'processId');
      if (pid !== undefined) m.processId = pid;
      const source = nonEmpty(i.source);
      if (source) m.source = camel(source);
      return m;
    },
    output: (i) => {
      const o = text(get(i, 'aggregatedOutput')) ?? text(get(i, 'formattedOutput'));
      return out(o !== undefined ? { text: o } : undefined);
    },
    failure: (i) => {
      // A failed command with no exit code (it never started): its output says why.
      const o = nonEmpty(get(i, 'aggregatedOutput'));
      return statusOf(i) === 'failed' && o ? FAILURES.toolError(o.trim()) : undefined;
    },
    exitCode: true,
  },
  fileChange: {
    kind: (i) => changeToolKind(changes(i)),
    title: (i, ctx) => changesTitle(changes(i), ctx.cwd),
    input: (i) => ({ changes: changesInput(changes(i)) }),
    // No changes listed (a v2 approval request names none): the files are not known yet.
    metadata: (i, ctx) => {
      const files = changeFiles(changes(i), ctx.cwd);
      return files.length ? { files } : {};
    },
    output: (i, ctx) => {
      const list = changes(i);
      const body = changesText(list, ctx.cwd) ?? nonEmpty(i.stdout) ?? (list.length ? changeSummary(list, ctx.cwd) : undefined);
      return out({ ...(body !== undefined ? { text: body } : {}), structured: { changes: changesInput(list) } });
    },
    failure: (i) => {
      if (statusOf(i) !== 'failed') return undefined;
      const msg = nonEmpty(i.stderr) ?? nonEmpty(obj(i.error)?.message);
      return msg ? FAILURES.toolError(msg.trim()) : undefined;
    },
  },
  mcpToolCall: {
    name: (i) => nonEmpty(i.tool) ?? 'mcpToolCall',
    kind: (i) => mcpIntentKind(text(i.server) ?? '', text(i.tool) ?? ''),
    title: (i) => mcpTitle(text(i.server) ?? 'mcp', text(i.tool) ?? 'tool', argsOf(i)),
    input: argsOf,
    metadata: (i) => {
      const server = nonEmpty(i.server);
      const tool = nonEmpty(i.tool);
      return server && tool ? { mcp: { server, tool } } : {};
    },
    output: (i) => {
      const r = get(i, 'result');
      if (r === undefined) return undefined;
      // Rollout McpToolCallEnd writes a Rust Result: {"Ok": CallToolResult} | {"Err": "…"}.
      const ok = obj(r)?.Ok;
      return mcpResult(ok ?? r);
    },
    failure: (i) => {
      const e = get(i, 'error');
      const msg = nonEmpty(obj(e)?.message) ?? nonEmpty(e) ?? nonEmpty(obj(get(i, 'result'))?.Err);
      if (msg) return FAILURES.toolError(msg);
      const r = get(i, 'result');
      const res = mcpResult(obj(r)?.Ok ?? r);
      // exec and app-server 0.171 drop `isError` from the result and report it as status failed.
      return res.isError || statusOf(i) === 'failed' ? FAILURES.toolError(res.output?.text?.trim() || `${text(i.tool) ?? 'MCP tool'} reported an error`) : undefined;
    },
  },
  dynamicToolCall: {
    name: (i) => nonEmpty(i.tool) ?? 'dynamicToolCall',
    kind: (i) => mcpIntentKind(text(i.namespace) ?? '', text(i.tool) ?? ''),
    title: (i) => mcpTitle(nonEmpty(i.namespace) ?? 'client tool', text(i.tool) ?? 'tool', argsOf(i)),
    input: argsOf,
    metadata: (i) => (nonEmpty(i.namespace) ? { namespace: i.namespace } : {}),
    output: (i) => {
      const items = arr(get(i, 'contentItems'));
      return items ? blocksToOutput(items, '/output/content') : undefined;
    },
    failure: (i) => {
      if (i.success !== false) return undefined;
      const items = arr(get(i, 'contentItems'));
      const msg = items ? blocksToOutput(items, '/output/content').output?.text : undefined;
      return FAILURES.toolError(msg?.trim() || `${text(i.tool) ?? 'tool'} failed`);
    },
  },
  webSearch: {
    kind: 'web_search',
    title: (i) => webSearchTitle(i),
    input: (i) => {
      const action = searchAction(get(i, 'action'));
      return { query: text(i.query) ?? '', ...(action ? { action } : {}) };
    },
    metadata: (i) => {
      const action = searchAction(get(i, 'action'));
      const search = webSearchInfo(action, nonEmpty(i.query));
      return { ...(action ? { action: { ...action } } : {}), ...(search ? { search } : {}) };
    },
    output: (i) => {
      const results = arr(i.results);
      if (!results?.length) return undefined;
      const lines = results.map((r) => {
        const o = obj(r);
        return o ? [nonEmpty(o.title), nonEmpty(o.url), nonEmpty(o.snippet)].filter(Boolean).join('\n') : String(r);
      });
      return out({ text: lines.join('\n\n'), structured: results });
    },
  },
  todoList: {
    kind: 'todo',
    title: (i) => planTitle(planSteps(i.items)),
    input: (i) => ({ items: arr(i.items) ?? [] }),
    metadata: (i) => ({ plan: planOf(planSteps(i.items)) }),
    output: (i) => out({ text: planText(planSteps(i.items)) }),
  },
  plan: {
    kind: 'todo',
    title: () => 'Writing a plan',
    input: () => ({}),
    metadata: (i) => {
      const plan = proposedPlan(text(i.text));
      return plan ? { plan } : {};
    },
    output: (i) => out(text(i.text) !== undefined ? { text: text(i.text)! } : undefined),
  },
  // App-server `turn/plan/updated` (the `update_plan` tool has no item there): one part per turn,
  // id `<turnId>/plan`, completed when the turn ends, like exec's `todo_list`.
  turnPlan: {
    name: () => 'update_plan',
    kind: 'todo',
    title: (i) => planTitle(planSteps(i.plan)),
    input: (i) => ({ plan: arr(i.plan) ?? [], ...(nonEmpty(i.explanation) ? { explanation: i.explanation } : {}) }),
    metadata: (i) => ({ plan: planOf(planSteps(i.plan), nonEmpty(i.explanation)) }),
    output: (i) => out({ text: planText(planSteps(i.plan), nonEmpty(i.explanation)) }),
  },
  // Server request `item/tool/requestUserInput`: the agent asks the user; the client's answer is
  // the output.
  requestUserInput: {
    kind: 'question',
    title: (i) => {
      const q = obj(arr(i.questions)?.[0]);
      const question = nonEmpty(q?.question) ?? nonEmpty(q?.header);
      return question ? `Asking: ${lineTitle(question, 80)}` : 'Asking the user';
    },
    input: (i) => ({ questions: arr(i.questions) ?? [] }),
    output: (i) => (i.answers !== undefined ? out({ structured: i.answers }) : undefined),
  },
  collabAgentToolCall: {
    name: collabTool,
    kind: 'subagent',
    title: (i) => agentToolTitle(collabTool(i), nonEmpty(i.prompt), receiversOf(i).length),
    input: (i) => {
      const input: Obj = { tool: collabTool(i) };
      for (const k of ['prompt', 'model', 'reasoningEffort'] as const) {
        const v = nonEmpty(get(i, k));
        if (v) input[k] = v;
      }
      const receivers = receiversOf(i);
      if (receivers.length) input.receiverThreadIds = receivers;
      return input;
    },
    metadata: (i) => {
      const m: ToolMetadata = {};
      const receivers = receiversOf(i);
      if (SPAWNING_TOOLS.has(collabTool(i)) && receivers.length) m.childSessionId = receivers[0]!;
      if (receivers.length) m.receiverThreadIds = receivers;
      const sender = nonEmpty(get(i, 'senderThreadId'));
      if (sender) m.senderThreadId = sender;
      const states = agentStates(i);
      if (states && Object.keys(states).length) m.task = { agentsStates: states };
      return m;
    },
    output: (i) => {
      const states = agentStates(i);
      if (!states) return undefined;
      const messages = Object.values(states).map((s) => s.message).filter((m): m is string => !!m);
      return out({ ...(messages.length ? { text: messages.join('\n\n') } : {}), structured: { agentsStates: states } });
    },
    failure: (i) => {
      const states = agentStates(i) ?? {};
      const failed = Object.entries(states).filter(([, s]) => s.status && AGENT_FAILED.has(s.status));
      if (!failed.length) return undefined;
      return FAILURES.toolError(failed.map(([id, s]) => `agent ${id} ${s.status}${s.message ? `: ${s.message}` : ''}`).join('\n'));
    },
  },
  subAgentActivity: {
    kind: 'subagent',
    title: (i) => activityTitle(text(i.kind), nonEmpty(get(i, 'agentPath'))),
    input: (i) => {
      const input: Obj = {};
      for (const k of ['kind', 'agentPath', 'agentThreadId', 'model', 'reasoningEffort'] as const) {
        const v = nonEmpty(get(i, k));
        if (v) input[k] = v;
      }
      return input;
    },
    metadata: (i) => {
      const child = nonEmpty(get(i, 'agentThreadId'));
      return child ? { childSessionId: child } : {};
    },
  },
  imageView: {
    kind: 'file_read',
    title: (i, ctx) => (nonEmpty(i.path) ? `Viewing ${displayPath(String(i.path), ctx.cwd)}` : 'Viewing an image'),
    input: (i) => ({ path: text(i.path) ?? '' }),
  },
  imageGeneration: {
    kind: 'file_write',
    title: (i) => {
      const p = nonEmpty(get(i, 'revisedPrompt'));
      return p ? `Generating image: ${lineTitle(p, 60)}` : 'Generating an image';
    },
    input: (i) => (nonEmpty(get(i, 'revisedPrompt')) ? { revisedPrompt: get(i, 'revisedPrompt') } : {}),
    // The image is a file only once Codex saved it (`savedPath`).
    metadata: (i, ctx) => {
      const saved = nonEmpty(get(i, 'savedPath'));
      return saved ? { files: [fileChange({ path: saved, cwd: ctx.cwd, operation: 'create' })] } : {};
    },
    output: (i) => {
      const data = nonEmpty(i.result);
      const saved = nonEmpty(get(i, 'savedPath'));
      const blocks = data ? [{ type: 'image', mimeType: 'image/png', data }] : [];
      return blocksToOutput(blocks, '/output/content', saved ? { savedPath: saved } : undefined);
    },
    failure: (i) => {
      const f = obj(i.failure);
      return f ? FAILURES.toolError(`Image generation failed: ${text(f.type) ?? 'unknown reason'}`, f) : undefined;
    },
  },
  sleep: {
    kind: 'bash',
    title: (i) => {
      const ms = num(get(i, 'durationMs'));
      return ms !== undefined ? `Waiting ${ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`}` : 'Waiting';
    },
    input: (i) => (num(get(i, 'durationMs')) !== undefined ? { durationMs: get(i, 'durationMs') } : {}),
  },
  // An app-server item that reports a function call's output (tools with no item of their own):
  // the rollout call table names it.
  functionCallOutput: {
    name: (i) => callRef(text(i.name) ?? 'function', nonEmpty(i.namespace)).name,
    kind: (i) => callView(callRef(text(i.name) ?? 'function', nonEmpty(i.namespace)), {}, {}, 'functionCallOutput').kind,
    title: (i, ctx) => callView(callRef(text(i.name) ?? 'function', nonEmpty(i.namespace)), {}, ctx, 'functionCallOutput').title,
    input: () => ({}),
    outcome: (i, ctx) => {
      const ref = callRef(text(i.name) ?? 'function', nonEmpty(i.namespace));
      return callOutcome(ref, callArgs(undefined, false), readCallOutput(i.output), ctx);
    },
  },
};
ownKeysOnly(ITEMS);

/** Item types that are not tool calls: they make no part and no diagnostic. */
export const NON_TOOL = new Set([
  'userMessage', 'agentMessage', 'reasoning', 'hookPrompt', 'error', 'contextCompaction', 'enteredReviewMode',
  'exitedReviewMode', 'compacted', 'message', 'warning',
]);

const ALIASES: Record<string, string> = {
  collabToolCall: 'collabAgentToolCall',
  collabAgentSpawn: 'collabAgentToolCall',
  todo: 'todoList',
  imageViewToolCall: 'imageView',
  viewImageToolCall: 'imageView',
  webSearchCall: 'webSearch',
  imageGenerationCall: 'imageGeneration',
};
ownKeysOnly(ALIASES);

/** The row key for a raw item type in any casing. */
export function itemType(raw: string): string {
  const c = camel(raw);
  return ALIASES[c] ?? c;
}

/** Looks like a tool call we have no row for: worth a part of kind `unknown` rather than a drop. */
export function looksLikeTool(item: Obj): boolean {
  return ['status', 'arguments', 'tool', 'callId', 'call_id', 'command'].some((k) => item[k] !== undefined);
}

const fallbackRule = (type: string): ItemRule => ({
  name: () => type,
  kind: 'unknown',
  title: () => `Running ${words(type) || type}`,
  input: (i) => (get(i, 'arguments') !== undefined ? argsOf(i) : {}),
});

export function ruleOf(type: string): ItemRule | undefined {
  return ITEMS[type];
}

export function unknownRule(type: string): ItemRule {
  return fallbackRule(type);
}

export type { ItemRule };

/** The part view of an item. `extra` adds adapter-known metadata (approval, parent links). */
export function itemView(rule: ItemRule, type: string, rawType: string, item: Obj, ctx: ItemCtx, extra?: ToolMetadata): View {
  const command = rule.command?.(item, ctx);
  const metadata: ToolMetadata = { provider: 'codex', rawType, ...(ctx.cwd ? { cwd: ctx.cwd } : {}), ...(command ? { command } : {}), ...rule.metadata?.(item, ctx), ...extra };
  const title = rule.title(item, ctx).trim();
  const name = rule.name?.(item) ?? type;
  return {
    name,
    kind: typeof rule.kind === 'function' ? rule.kind(item) : rule.kind,
    title: title || `Running ${words(name) || name}`,
    input: rule.input(item, ctx),
    metadata,
  };
}

export interface OutcomeHints {
  /** The user said no to the call's approval: `cancelled` when the answer also stopped the turn. */
  refused?: 'declined' | 'cancelled';
}

/** The terminal outcome of a completed item. */
export function itemOutcome(rule: ItemRule, item: Obj, ctx: ItemCtx, title: string, hints: OutcomeHints = {}): Outcome {
  const own = rule.outcome?.(item, ctx);
  if (own) return own;
  const status = statusOf(item);
  const elapsedMs = durationMsOf(item);
  const meta: ToolMetadata = {};
  const exitCode = rule.exitCode ? int(get(item, 'exitCode')) : undefined;
  if (exitCode !== undefined) {
    meta.exitCode = exitCode;
    const command = rule.command?.(item, ctx);
    if (command) meta.command = { ...command, exitCode };
  }
  const base = { ...(elapsedMs !== undefined ? { elapsedMs } : {}), metadata: meta };
  if (status === 'declined' || (status === 'failed' && hints.refused)) {
    const cancelled = hints.refused === 'cancelled';
    return { ok: false, error: FAILURES.denied(title, cancelled), ...base };
  }
  if (status === 'interrupted' || status === 'inProgress' || status === 'incomplete') {
    return { ok: false, error: FAILURES.interrupted(title), ...base };
  }
  if (exitCode !== undefined && exitCode !== 0) {
    const body = rule.output?.(item, ctx)?.output?.text;
    return { ok: false, error: FAILURES.exit(exitCode, body), ...base };
  }
  const reported = rule.failure?.(item, ctx);
  if (reported || status === 'failed') {
    return { ok: false, error: reported ?? FAILURES.failed(title), ...base };
  }
  const converted = rule.output?.(item, ctx);
  if (converted?.truncated.length) meta.truncated = converted.truncated;
  return { ok: true, ...(converted?.output !== undefined ? { output: converted.output } : {}), ...base };
}
