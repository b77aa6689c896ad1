// The rollout tool table: Responses API calls by function name (`function_call`,
// `custom_tool_call`, `local_shell_call`). MCP tools are named `mcp__<server>__<tool>` (or carry
// `namespace: "mcp__<server>"`). Each rule says the kind, title and input of a call, and how to read
// its output.
import type { CommandRun, ToolKind, ToolMetadata } from '../../contract/index.js';
import { kindFromName } from '../shared/kinds.js';
import { mcpIntentKind, mcpTitle } from '../shared/mcp.js';
import { splitMcpName } from '../shared/mcp-names.js';
import { displayPath, words } from '../../present/titles.js';
import { commandItemTitle, lineTitle } from '../shared/command-title.js';
import { agentToolTitle } from './subagents.js';
import type { CallOutput } from './output.js';
import { changeToolKind, changesInput, changesText, changesTitle, parsePatch, patchIn } from './changes.js';
import { arr, get, nonEmpty, obj, parseMaybeJson, text, type Obj } from './fields.js';
import { planSteps, planText, planTitle } from './plans.js';
import { commandLine, scriptOf } from '../shared/shell.js';
import type { Outcome, View } from './tracker.js';
import { ownKeysOnly } from '../shared/table.js';
import { resolvedPath } from '../../substance/index.js';
import { exitCodeOf, exitMessage, failure, FAILURES } from './errors.js';
import { commandRun, commandSearch, patchFiles, planOf } from './substance.js';

export interface CallCtx {
  cwd?: string;
}

/** How a call's output turns into an outcome. */
type ResultStyle = 'command' | 'patch' | 'mcp' | 'plain';

interface CallRule {
  kind: ToolKind | ((args: Obj, ctx: CallCtx) => ToolKind);
  title: (args: Obj, ctx: CallCtx) => string;
  /** Input as recorded; defaults to the arguments. */
  input?: (args: Obj, ctx: CallCtx) => unknown;
  metadata?: (args: Obj, ctx: CallCtx) => ToolMetadata;
  /** `metadata.command` of a shell call; the outcome adds the exit code. */
  command?: (args: Obj, ctx: CallCtx) => CommandRun | undefined;
  /** Why the call's input cannot be read (a malformed patch): reported once, when the call starts. */
  problem?: (args: Obj, ctx: CallCtx) => string | undefined;
  result: ResultStyle;
  /** Extra metadata learned from a successful output (e.g. a spawned agent's thread id). */
  fromOutput?: (out: CallOutput) => ToolMetadata | undefined;
}

const dp = (p: unknown, ctx: CallCtx) => (typeof p === 'string' ? displayPath(p, ctx.cwd) : undefined);

/** `{command, cwd, ...rest}` from shell-like arguments, whatever their key names. */
function commandInput(args: Obj, commandKey: string, cwdKey: string): Obj {
  const { [commandKey]: command, [cwdKey]: cwd, ...rest } = args;
  const input: Obj = { command: commandLine(command) ?? command ?? '' };
  if (typeof cwd === 'string') input.cwd = cwd;
  return { ...input, ...rest };
}

// kind, title and input of one call read the same command: unwrap it once.
let lastCommand: { command: unknown; patch: string | undefined } | undefined;

/** A shell call whose script is an `apply_patch` heredoc is a patch (0.40 did patches this way). */
function shellPatch(command: unknown): string | undefined {
  if (lastCommand && lastCommand.command === command && typeof command === 'object') return lastCommand.patch;
  const script = scriptOf(command);
  const patch = script && /^\s*(?:apply_patch|applypatch)\b/.test(script) ? patchIn(script) : undefined;
  lastCommand = { command, patch };
  return patch;
}

/** `metadata.files` of a patch; none for a malformed one (Codex applied none of it). */
function filesMeta(patch: string, cwd: string | undefined): ToolMetadata {
  const { files } = patchFiles(patch, cwd);
  return files.length ? { files } : {};
}

/** A patch's problem as a diagnostic message. */
function patchProblem(patch: string, cwd: string | undefined): string | undefined {
  const p = patchFiles(patch, cwd).problem;
  return p && `apply_patch input is malformed at line ${p.line} of the patch (${p.message}); Codex applies no part of such a patch, so the call has no metadata.files`;
}

function shellRule(commandKey: string, cwdKey: string): CallRule {
  // A patch runs in the call's workdir, else the session's cwd.
  const cwdOf = (a: Obj, ctx: CallCtx) => (typeof a[cwdKey] === 'string' && a[cwdKey] !== '' ? (a[cwdKey] as string) : ctx.cwd);
  return {
    kind: (a) => {
      const patch = shellPatch(a[commandKey]);
      return patch ? changeToolKind(parsePatch(patch, false)) : 'bash';
    },
    title: (a, ctx) => {
      const patch = shellPatch(a[commandKey]);
      if (patch) return changesTitle(parsePatch(patch, false), ctx.cwd);
      return commandItemTitle(a[commandKey], ctx.cwd ?? (typeof a[cwdKey] === 'string' ? (a[cwdKey] as string) : undefined));
    },
    input: (a) => commandInput(a, commandKey, cwdKey),
    command: (a, ctx) => (shellPatch(a[commandKey]) ? undefined : commandRun(a[commandKey], cwdOf(a, ctx))),
    metadata: (a, ctx) => {
      const patch = shellPatch(a[commandKey]);
      if (patch) return filesMeta(patch, cwdOf(a, ctx));
      const search = commandSearch(a[commandKey], cwdOf(a, ctx));
      return search ? { search } : {};
    },
    problem: (a, ctx) => {
      const patch = shellPatch(a[commandKey]);
      return patch ? patchProblem(patch, cwdOf(a, ctx)) : undefined;
    },
    result: 'command',
  };
}

const patchRule: CallRule = {
  kind: (a) => changeToolKind(parsePatch(text(a.input) ?? '', false)),
  title: (a, ctx) => changesTitle(parsePatch(text(a.input) ?? '', false), ctx.cwd),
  input: (a) => ({ patch: text(a.input) ?? '', changes: changesInput(parsePatch(text(a.input) ?? '', false)) }),
  metadata: (a, ctx) => filesMeta(text(a.input) ?? '', ctx.cwd),
  problem: (a, ctx) => patchProblem(text(a.input) ?? '', ctx.cwd),
  result: 'patch',
};

function agentRule(tool: string): CallRule {
  return {
    kind: 'subagent',
    title: (a) => {
      const ids = arr(a.ids) ?? (a.id !== undefined ? [a.id] : []);
      return agentToolTitle(tool, text(a.message) ?? text(a.prompt), ids.length);
    },
    result: 'plain',
    fromOutput: (out) => {
      const j = obj(out.json);
      const child = j && (nonEmpty(get(j, 'agentId')) ?? nonEmpty(get(j, 'threadId')));
      return child && tool === 'spawnAgent' ? { childSessionId: child } : undefined;
    },
  };
}

/** Known function names. Anything else is looked up as MCP, then falls back to `unknown`. */
export const CALLS: Record<string, CallRule> = {
  shell: shellRule('command', 'workdir'),
  'container.exec': shellRule('command', 'workdir'),
  local_shell: shellRule('command', 'working_directory'),
  shell_command: shellRule('command', 'workdir'),
  exec_command: shellRule('cmd', 'workdir'),
  write_stdin: {
    kind: 'bash',
    title: (a) => {
      const id = a.session_id ?? a.sessionId;
      const who = id !== undefined ? `session ${String(id)}` : 'a running command';
      return text(a.chars) ? `Writing to ${who}` : `Waiting for ${who}`;
    },
    result: 'command',
  },
  apply_patch: patchRule,
  update_plan: {
    kind: 'todo',
    title: (a) => planTitle(planSteps(a.plan)),
    metadata: (a) => ({ plan: planOf(planSteps(a.plan), nonEmpty(a.explanation)) }),
    result: 'plain',
  },
  view_image: {
    kind: 'file_read',
    title: (a, ctx) => `Viewing ${dp(a.path, ctx) ?? 'an image'}`,
    result: 'plain',
  },
  read_file: {
    kind: 'file_read',
    title: (a, ctx) => `Reading ${dp(a.file_path ?? a.path, ctx) ?? 'a file'}`,
    result: 'plain',
  },
  list_dir: {
    kind: 'file_read',
    title: (a, ctx) => `Listing ${dp(a.dir_path ?? a.path, ctx) ?? 'files'}`,
    result: 'plain',
  },
  grep_files: {
    kind: 'file_read',
    title: (a, ctx) => {
      const p = dp(a.path, ctx);
      const q = nonEmpty(a.pattern);
      return q ? `Searching for "${q}"${p ? ` in ${p}` : ''}` : 'Searching files';
    },
    metadata: (a, ctx) => {
      const pattern = nonEmpty(a.pattern);
      const path = nonEmpty(a.path);
      const search = { ...(pattern ? { pattern } : {}), ...(path ? { path: resolvedPath(path, ctx.cwd) } : {}) };
      return Object.keys(search).length ? { search } : {};
    },
    result: 'plain',
  },
  request_user_input: {
    kind: 'question',
    title: (a) => {
      const q = obj(arr(a.questions)?.[0]);
      const question = nonEmpty(q?.question) ?? nonEmpty(a.question);
      return question ? `Asking: ${lineTitle(question, 80)}` : 'Asking the user';
    },
    result: 'plain',
  },
  spawn_agent: agentRule('spawnAgent'),
  send_input: agentRule('sendInput'),
  send_message: agentRule('sendMessage'),
  followup_task: agentRule('followupTask'),
  wait: agentRule('wait'),
  wait_agent: agentRule('wait'),
  close_agent: agentRule('closeAgent'),
  resume_agent: agentRule('resumeAgent'),
  interrupt_agent: agentRule('interruptAgent'),
  list_agents: agentRule('listAgents'),
  tool_search: {
    kind: 'file_read',
    title: (a) => (nonEmpty(a.query) ? `Searching tools for "${String(a.query)}"` : 'Searching tools'),
    metadata: (a) => (nonEmpty(a.query) ? { search: { query: nonEmpty(a.query)! } } : {}),
    result: 'plain',
  },
};
ownKeysOnly(CALLS);

/** The kind a function name implies before its arguments are seen (a shell call is `bash`). */
export function nameKind(name: string): ToolKind | undefined {
  const rule = Object.hasOwn(CALLS, name) ? CALLS[name] : undefined;
  if (!rule) return undefined;
  return typeof rule.kind === 'function' ? rule.kind({}, {}) : rule.kind;
}

export interface CallRef {
  /** Canonical name: the function name, or the MCP tool name. */
  name: string;
  rule: CallRule;
  mcp?: { server: string; tool: string };
}

/** `mcp__<server>__<tool>`, or a `namespace` of `mcp__<server>` with the tool as name. */
export function mcpRef(name: string, namespace?: string): { server: string; tool: string } | undefined {
  if (namespace?.startsWith('mcp__')) {
    const server = namespace.slice(5).replace(/__$/, '');
    const tool = name.startsWith(`${namespace}__`) ? name.slice(namespace.length + 2) : name;
    return server && tool ? { server, tool } : undefined;
  }
  return splitMcpName(name);
}

function mcpRule(server: string, tool: string): CallRule {
  return {
    kind: () => mcpIntentKind(server, tool),
    title: (a) => mcpTitle(server, tool, a),
    metadata: () => ({ mcp: { server, tool } }),
    result: 'mcp',
  };
}

const unknownRule = (name: string): CallRule => ({
  kind: kindFromName(name),
  title: () => `Running ${words(name) || name}`,
  result: 'plain',
});

export function callRef(name: string, namespace?: string): CallRef {
  const known = CALLS[name];
  if (known) return { name, rule: known };
  const mcp = mcpRef(name, namespace);
  if (mcp) return { name: mcp.tool, rule: mcpRule(mcp.server, mcp.tool), mcp };
  return { name, rule: unknownRule(name) };
}

/** Arguments as an object: JSON arguments parsed, a raw custom-tool input under `input`. */
export function callArgs(raw: unknown, custom: boolean): Obj {
  if (custom) return { input: typeof raw === 'string' ? raw : JSON.stringify(raw ?? '') };
  const parsed = parseMaybeJson(raw);
  const o = obj(parsed);
  if (o) return o;
  return parsed === undefined || parsed === '' ? {} : { arguments: parsed };
}

export function callView(ref: CallRef, args: Obj, ctx: CallCtx, rawType: string): View {
  const { rule } = ref;
  const command = rule.command?.(args, ctx);
  const metadata: ToolMetadata = { provider: 'codex', rawType, ...(ctx.cwd ? { cwd: ctx.cwd } : {}), ...(command ? { command } : {}), ...rule.metadata?.(args, ctx) };
  return {
    name: ref.name,
    kind: typeof rule.kind === 'function' ? rule.kind(args, ctx) : rule.kind,
    title: rule.title(args, ctx) || `Running ${words(ref.name) || ref.name}`,
    input: rule.input ? rule.input(args, ctx) : args,
    metadata,
  };
}


/** The outcome of a call from its output, by the rule's result style. */
export function callOutcome(ref: CallRef, args: Obj, out: CallOutput, ctx: CallCtx): Outcome {
  const meta: ToolMetadata = {};
  if (out.exitCode !== undefined) {
    meta.exitCode = out.exitCode;
    const command = ref.rule.command?.(args, ctx);
    if (command) meta.command = { ...command, exitCode: out.exitCode };
  }
  if (out.truncated.length) meta.truncated = out.truncated;
  if (out.processSession !== undefined) meta.processSession = out.processSession;
  const elapsed = out.elapsedMs !== undefined ? { elapsedMs: out.elapsedMs } : {};
  const body = out.text;
  if (out.denied) return { ok: false, error: FAILURES.rejected(body?.trim()), metadata: meta, ...elapsed };
  if (out.failure) return { ok: false, error: failure(body?.trim() || `${ref.name} failed`, out.failure), metadata: meta, ...elapsed };
  const style = ref.rule.result;
  if (style === 'command' || style === 'patch') {
    if (out.exitCode !== undefined && out.exitCode !== 0) {
      const error = style === 'patch'
        ? FAILURES.toolError(body?.trim() || exitMessage(out.exitCode, undefined))
        : failure(exitMessage(out.exitCode, body), exitCodeOf(out.exitCode, body));
      return { ok: false, error, metadata: meta, ...elapsed };
    }
  }
  if (out.success === false) return { ok: false, error: FAILURES.toolError(body?.trim() || `${ref.name} failed`), metadata: meta, ...elapsed };
  if (ref.rule.kind === 'todo' && ref.name === 'update_plan') {
    const steps = planSteps(args.plan);
    return { ok: true, output: { text: planText(steps, text(args.explanation)), structured: { result: body } }, metadata: meta, ...elapsed };
  }
  let output: unknown = out.output ?? (body !== undefined ? { text: body } : undefined);
  if (style === 'patch') {
    const changes = parsePatch(text(args.input) ?? '');
    const diff = changesText(changes, ctx.cwd) ?? body;
    output = { ...(diff !== undefined ? { text: diff } : {}), structured: { changes: changesInput(changes), ...(body !== undefined ? { result: body } : {}) } };
  }
  const learned = ref.rule.fromOutput?.(out);
  if (learned) Object.assign(meta, learned);
  return { ok: true, ...(output !== undefined ? { output } : {}), metadata: meta, ...elapsed };
}
