// The stateful Claude Code reader. One instance reads a whole input (several files for a session
// plus its subagent files) and turns tool activity into ToolEvents; the shared reducer builds the
// parts. Line forms (notes/claude.md):
// - stream-json / Agent SDK messages: system, assistant, user, stream_event, tool_progress, result;
// - on-disk transcripts: the same user/assistant messages with camelCase envelopes, plus
//   progress (agent_progress, bash_progress…) and bookkeeping lines;
// - `agent-<id>.meta.json`: one object linking a subagent file to its Task call.
import type { ToolError, ToolKind, ToolMetadata, TruncationNote } from '../../contract/index.js';
import { EventEmitterFor, parseJsonLine, toEpochMs } from '../shared/emit.js';
import type { Adapter, AdapterOptions, AdapterSink, InputPosition } from '../types.js';
import { BoundedMap, BoundedSet } from './bounded.js';
import { classifyFailure } from './errors.js';
import { normalizeServerName, type McpName } from './mcp-names.js';
import { buildOutput, resultText } from './output.js';
import { SubagentLinks } from './subagents.js';
import { TASK_SUBTYPES, taskFields } from './tasks.js';
import { identify, type ToolSpec } from './tools.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const s = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One tool call, by provider tool-use id (which is also the part id). */
interface Call {
  readonly id: string;
  readonly sessionId: string;
  readonly rawName: string;
  readonly spec?: ToolSpec;
  readonly mcp?: McpName;
  kind: ToolKind;
  title: string;
  /** Kept while the call is open, for title refinement; dropped when it ends. */
  input?: unknown;
  /** The complete input is known (not just streamed fragments). */
  inputFinal: boolean;
  terminal: boolean;
  startedAt: number;
  cwd?: string;
  parentId?: string;
  childSessionId?: string;
  task?: Obj;
  denied?: boolean;
  approval?: Obj;
  /** Characters of `bash_progress.fullOutput` already streamed. */
  streamed?: number;
}

/** What is known about the message a tool_use/tool_result block sits in. */
interface Frame {
  sessionId: string;
  at: number;
  pos: InputPosition;
  parentId?: string;
  agentId?: string;
  cwd?: string;
}

interface SessionInfo {
  cwd?: string;
  mcpServers: Set<string>;
}

interface PartialBlock {
  toolId: string;
  buffer: string;
}

/** Line types that carry no tool activity (transcript bookkeeping, usage, UI state). */
const QUIET_TYPES = new Set([
  'summary', 'file-history-snapshot', 'queue-operation', 'attachment', 'tools-used', 'atis-latch', 'cost-state', 'last-prompt',
  'custom-title', 'agent-name', 'tag', 'mode', 'pr-link', 'rate_limit_event', 'auth_status', 'prompt_suggestion', 'conversation_reset',
  'tool_use_summary', 'keep_alive', 'control_response', 'control_cancel_request', 'result',
]);

const TOOL_USE_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
const NON_BLANK = /\S/;

/** tool_result blocks, and server-tool result blocks (`web_search_tool_result`…). */
function resultBlocks(content: unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const raw of content) {
    const b = obj(raw);
    if (!b || typeof b.type !== 'string') continue;
    if (b.type === 'tool_result' || (b.type.endsWith('_tool_result') && typeof b.tool_use_id === 'string')) out.push(b);
  }
  return out;
}

export class ClaudeReader implements Adapter {
  private readonly out: EventEmitterFor;
  private readonly sessions = new Map<string, SessionInfo>();
  private readonly calls = new BoundedMap<string, Call>(200_000);
  private readonly seen = new BoundedSet<string>(50_000);
  /** Assistant frame uuid → tool calls it made, for frames a later message retracts. */
  private readonly framesCalls = new BoundedMap<string, string[]>(20_000);
  private readonly blocks = new Map<string, PartialBlock>();
  /** Latest `message_start` id per session and parent, for stream events without `api_message_id`. */
  private readonly messageIds = new Map<string, string>();
  private readonly agents = new SubagentLinks();
  /** task_id → tool-use id of the call that runs it, and its description (for BashOutput titles). */
  private readonly taskCalls = new BoundedMap<string, string>(50_000);
  private readonly taskDescriptions = new BoundedMap<string, string>(50_000);
  /** Task info and denials that arrived before their call. */
  private readonly pendingTask = new BoundedMap<string, Obj>(10_000);
  private readonly pendingDenial = new BoundedMap<string, Obj>(10_000);
  private file?: string;
  private fileAgentId?: string;
  private fileIsMeta = false;
  private metaText: string[] = [];
  private currentSession?: string;
  private lastAt?: number;
  /** The line being read and its parsed timestamp (parsed once per line). */
  private curLine?: Obj;
  private curAt?: number;

  constructor(sink: AdapterSink, private readonly options: AdapterOptions) {
    this.out = new EventEmitterFor(sink, 'claude');
  }

  beginFile(file: string): void {
    this.file = file;
    const base = file.split(/[\\/]/).pop() ?? file;
    this.fileIsMeta = base.endsWith('.meta.json');
    // `agent-<id>.jsonl` / `agent-<id>.meta.json` (also inside longer names, e.g. renamed copies).
    this.fileAgentId = /(?:^|[^A-Za-z])agent-([A-Za-z0-9_-]+?)(?:\.[A-Za-z.]+)?$/.exec(base)?.[1];
    this.currentSession = undefined;
  }

  endFile(): void {
    if (this.fileIsMeta && this.metaText.length) {
      // A .meta.json may be pretty-printed over several lines: it is read whole.
      const pos = { line: 1, offset: 0, ...(this.file !== undefined ? { file: this.file } : {}) };
      const parsed = parseJsonLine(this.metaText.join('\n'), pos, this.out);
      if (parsed !== undefined) {
        if (obj(parsed)) this.onMeta(obj(parsed)!, pos);
        else this.out.malformed(this.metaText.join('\n'), 'a .meta.json that is not a JSON object', pos);
      }
    }
    this.metaText = [];
    this.file = undefined;
    this.fileAgentId = undefined;
    this.fileIsMeta = false;
  }

  line(text: string, pos: InputPosition): void {
    if (!NON_BLANK.test(text)) return;
    if (this.fileIsMeta) {
      this.metaText.push(text);
      return;
    }
    const parsed = parseJsonLine(text, pos, this.out);
    if (parsed === undefined) return;
    const line = obj(parsed);
    if (!line) {
      this.out.malformed(text, 'not a JSON object', pos);
      return;
    }
    const type = line.type;
    if (typeof type !== 'string') {
      if (typeof line.toolUseId === 'string') this.onMeta(line, pos);
      else this.out.malformed(text, 'a JSON object without "type" is not a Claude Code message', pos);
      return;
    }
    const at = toEpochMs(line.timestamp);
    this.curLine = line;
    this.curAt = at;
    if (at !== undefined) this.lastAt = at;
    switch (type) {
      case 'assistant':
        return this.onAssistant(line, this.frameOf(line, pos));
      case 'user':
        return this.onUser(line, this.frameOf(line, pos));
      case 'system':
        return this.onSystem(line, pos);
      case 'stream_event':
        return this.onStreamEvent(line, pos);
      case 'tool_progress':
        return this.onToolProgress(line, pos);
      case 'progress':
        return this.onProgress(line, pos);
      case 'control_request':
        return this.onControlRequest(line, pos);
      default:
        if (QUIET_TYPES.has(type) || type.startsWith('api-request')) return;
        if ('tool_use_id' in line || 'toolUseID' in line || text.includes('"tool_use"')) {
          this.out.diagnostic('unknown_event', `line ${pos.line}: Claude Code message type "${type}" is not known to this adapter and may carry tool data; it was skipped`, pos, { excerpt: text.slice(0, 200) });
        }
    }
  }

  end(): void {
    for (const [agentId, { ids, dropped }] of this.agents.unlinked()) {
      this.out.diagnostic('unlinked_subagent', `${ids.length + dropped} tool call(s) of subagent ${agentId} could not be linked to the Task call that spawned it; pass the session transcript or agent-${agentId}.meta.json with the subagent file`, undefined, { partId: ids[0] });
    }
  }

  // ---- envelope helpers ------------------------------------------------------------------

  private sessionIdOf(line: Obj): string {
    const id = s(line.session_id) ?? s(line.sessionId) ?? this.currentSession ?? this.options.sessionId ?? this.fallbackSession();
    this.currentSession = id;
    return id;
  }

  private fallbackSession(): string {
    const base = (this.file ?? '-').split(/[\\/]/).pop() ?? '-';
    const stem = base === '-' || base === '' ? 'stdin' : base.replace(/\.(jsonl|json|ndjson|txt)$/i, '');
    return `claude-${stem}`;
  }

  private session(id: string): SessionInfo {
    let info = this.sessions.get(id);
    if (!info) {
      info = { cwd: this.options.cwd, mcpServers: new Set(this.options.mcpServers ?? []) };
      this.sessions.set(id, info);
    }
    return info;
  }

  /** Event time: the line's timestamp, else the last one seen (stream-json system lines have none), else the clock. */
  private timeOf(line: Obj | undefined): number {
    const at = line === this.curLine ? this.curAt : toEpochMs(line?.timestamp);
    if (at !== undefined) return at;
    return this.lastAt ?? this.options.clock?.() ?? 0;
  }

  private frameOf(line: Obj, pos: InputPosition, nested?: { parentId: string; agentId?: string; message: Obj }): Frame {
    const sessionId = this.sessionIdOf(line);
    const info = this.session(sessionId);
    const lineCwd = s(line.cwd);
    if (lineCwd) info.cwd = lineCwd;
    const source = nested?.message ?? line;
    const frame: Frame = { sessionId, at: this.timeOf(source), pos, cwd: info.cwd };
    if (nested) {
      frame.parentId = nested.parentId;
      if (nested.agentId) frame.agentId = nested.agentId;
      return frame;
    }
    const agentId = s(line.agent_id) ?? s(line.agentId) ?? (line.isSidechain === true ? this.fileAgentId : undefined);
    if (agentId) frame.agentId = agentId;
    const parentToolUse = s(line.parent_tool_use_id);
    if (parentToolUse) {
      frame.parentId = parentToolUse;
    } else if (line.isSidechain === true) {
      frame.parentId = this.sidechainParent(line, agentId);
    }
    return frame;
  }

  /** The Task part a transcript sidechain line belongs to, when it can be known yet. */
  private sidechainParent(line: Obj, agentId: string | undefined): string | undefined {
    if (agentId) {
      const linked = this.agents.taskOf(agentId);
      if (linked) return linked;
    }
    const uuid = s(line.uuid);
    const parentUuid = s(line.parentUuid);
    const viaChain = this.agents.sidechainTask(uuid, parentUuid);
    if (viaChain) return viaChain;
    // A sidechain starts with a user line holding the Task's prompt.
    if (!parentUuid && line.type === 'user') {
      const text = resultText(obj(line.message)?.content);
      const taskId = text ? this.agents.matchPrompt(text) : undefined;
      if (taskId) {
        if (uuid) this.agents.startSidechain(uuid, taskId);
        if (agentId) this.linkAgent(agentId, taskId);
        return taskId;
      }
    }
    return undefined;
  }

  private ctxFor(call: { cwd?: string }, sessionId: string) {
    const info = this.session(sessionId);
    return {
      cwd: call.cwd ?? info.cwd,
      mcpServers: info.mcpServers,
      taskDescription: (id: string) => this.taskDescriptions.get(id),
    };
  }

  private env(call: Call | { id: string; sessionId: string }, at: number, pos?: InputPosition) {
    return { sessionId: call.sessionId, partId: call.id, at, ...(pos ? { pos } : {}) };
  }

  // ---- starting calls --------------------------------------------------------------------

  private onAssistant(line: Obj, frame: Frame, uuid = s(line.uuid)): void {
    if (uuid && !this.seen.add(uuid)) return;
    if (Array.isArray(line.supersedes)) this.retract(line.supersedes, frame.at, frame.pos, 'superseded by a later assistant message');
    const content = obj(line.message)?.content;
    if (!Array.isArray(content)) return;
    let metaTools: Map<string, string> | undefined;
    if (Array.isArray(line.tool_use_meta)) {
      metaTools = new Map();
      for (const m of line.tool_use_meta) if (s(obj(m)?.id) && s(obj(m)?.tool_name)) metaTools.set(String(obj(m)!.id), String(obj(m)!.tool_name));
    }
    for (const raw of content) {
      const block = obj(raw);
      if (!block || !TOOL_USE_BLOCKS.has(String(block.type))) continue;
      const id = s(block.id);
      if (!id) {
        this.out.diagnostic('invalid_tool_use', `line ${frame.pos.line}: a ${String(block.type)} block without an id was skipped`, frame.pos);
        continue;
      }
      this.startCall(id, s(block.name) ?? 'unknown', block.input ?? {}, String(block.type), frame, { final: true, metaTool: metaTools?.get(id) });
      if (uuid) {
        const ids = this.framesCalls.get(uuid);
        if (ids) ids.push(id);
        else this.framesCalls.set(uuid, [id]);
      }
    }
  }

  /** Assistant frames withdrawn by the harness (`supersedes`, refusal fallbacks): their open calls never run. */
  private retract(uuids: unknown[], at: number, pos: InputPosition, why: string): void {
    for (const u of uuids) {
      for (const id of (typeof u === 'string' && this.framesCalls.get(u)) || []) {
        const call = this.calls.get(id);
        if (!call || call.terminal) continue;
        call.terminal = true;
        call.input = undefined;
        this.out.emit('tool.failed', this.env(call, at, pos), { error: { message: `The call was withdrawn before it ran: its message was ${why}`, code: 'cancelled' } });
      }
    }
  }

  private startCall(id: string, rawName: string, input: unknown, blockType: string, frame: Frame, how: { final: boolean; metaTool?: string }): void {
    const existing = this.calls.get(id);
    if (existing) {
      if (!existing.terminal && how.final && !existing.inputFinal) this.refineInput(existing, input, frame.at, frame.pos);
      if (!existing.parentId && frame.parentId && frame.parentId !== id) this.setParent(existing, frame.parentId, frame.at);
      return;
    }
    const info = this.session(frame.sessionId);
    const identity = identify(rawName, input, { cwd: frame.cwd, mcpServers: info.mcpServers, mcpMetaTool: how.metaTool, taskDescription: (t) => this.taskDescriptions.get(t) });
    const call: Call = {
      id, sessionId: frame.sessionId, rawName, kind: identity.kind, title: identity.title, input, inputFinal: how.final, terminal: false, startedAt: frame.at,
      ...(identity.spec ? { spec: identity.spec } : {}), ...(identity.mcp ? { mcp: identity.mcp } : {}), ...(frame.cwd ? { cwd: frame.cwd } : {}),
    };
    const metadata: ToolMetadata = { provider: 'claude', rawType: `${blockType}:${rawName}` };
    if (frame.cwd) metadata.cwd = frame.cwd;
    if (identity.mcp) metadata.mcp = identity.mcp;
    if (frame.parentId && frame.parentId !== id) {
      call.parentId = frame.parentId;
      metadata.parentId = frame.parentId;
    }
    if (frame.agentId) {
      metadata.agentId = frame.agentId;
      if (!call.parentId) {
        const taskId = this.agents.taskOf(frame.agentId);
        if (taskId) {
          call.parentId = taskId;
          metadata.parentId = taskId;
        } else {
          this.agents.wait(frame.agentId, id);
        }
      }
    }
    const task = this.pendingTask.get(id);
    if (task) {
      this.pendingTask.delete(id);
      call.task = task;
      metadata.task = task;
      if (task.type === 'local_agent' && s(task.taskId)) call.childSessionId = metadata.childSessionId = String(task.taskId);
    }
    const denial = this.pendingDenial.get(id);
    if (denial) {
      this.pendingDenial.delete(id);
      call.denied = true;
      call.approval = denial;
      metadata.approval = denial;
    }
    this.calls.set(id, call);
    if (call.kind === 'subagent') this.agents.rememberTask(id, obj(input)?.prompt);
    this.out.emit('tool.started', this.env(call, frame.at, frame.pos), { name: identity.name, kind: identity.kind, title: identity.title, input, metadata });
  }

  /** The complete input arrived (after streamed fragments): new input, and a better title. */
  private refineInput(call: Call, input: unknown, at: number, pos?: InputPosition): void {
    call.input = input;
    call.inputFinal = true;
    const identity = identify(call.rawName, input, this.ctxFor(call, call.sessionId));
    const body: { input: unknown; title?: string } = { input };
    if (identity.title !== call.title) {
      call.title = identity.title;
      body.title = identity.title;
    }
    if (call.kind === 'subagent') this.agents.rememberTask(call.id, obj(input)?.prompt);
    this.out.emit('tool.updated', this.env(call, at, pos), body);
  }

  private setParent(call: Call, parentId: string, at: number, pos?: InputPosition): void {
    call.parentId = parentId;
    this.out.emit('tool.updated', this.env(call, at, pos), { metadata: { parentId } });
  }

  /** Links an agent to its Task call; calls of that agent seen before the link get their parent now. */
  private adoptChildren(agentId: string, taskId: string, at: number, pos?: InputPosition): void {
    for (const childId of this.agents.link(agentId, taskId)) {
      const child = this.calls.get(childId);
      if (child && !child.parentId && childId !== taskId) this.setParent(child, taskId, at, pos);
    }
  }

  private linkAgent(agentId: string, taskId: string, at = this.timeOf(undefined), pos?: InputPosition): void {
    this.adoptChildren(agentId, taskId, at, pos);
    const task = this.calls.get(taskId);
    if (task && task.childSessionId !== agentId) {
      task.childSessionId = agentId;
      this.out.emit('tool.updated', this.env(task, at, pos), { metadata: { childSessionId: agentId } });
    }
  }

  // ---- results ---------------------------------------------------------------------------

  private onUser(line: Obj, frame: Frame, uuid = s(line.uuid)): void {
    if (uuid && !this.seen.add(uuid)) return;
    const content = obj(line.message)?.content;
    if (!Array.isArray(content)) return;
    const results = resultBlocks(content);
    if (results.length === 0) return;
    // The structured result and permission fields sit on the line; they belong to its one result.
    const single = results.length === 1;
    const structured = single ? (line.tool_use_result !== undefined ? line.tool_use_result : line.toolUseResult) : undefined;
    let metaById: Map<string, Obj> | undefined;
    if (Array.isArray(line.tool_result_meta)) {
      metaById = new Map();
      for (const m of line.tool_result_meta) if (s(obj(m)?.id)) metaById.set(String(obj(m)!.id), obj(m)!);
    }
    for (const block of results) {
      const id = s(block.tool_use_id);
      if (!id) {
        this.out.diagnostic('orphan_result', `line ${frame.pos.line}: a tool_result without tool_use_id was skipped`, frame.pos);
        continue;
      }
      const meta = metaById?.get(id);
      const approval = approvalOf(meta?.permission_decision, single ? line.permissionDecision : undefined);
      const denied = meta?.non_execution_kind === 'user-rejected' || (single && typeof line.toolDenialKind === 'string') || approval?.decision === 'reject' || approval?.decision === 'deny';
      this.finishCall(id, block, structured, { approval, denied }, frame);
    }
  }

  private finishCall(id: string, block: Obj, structured: unknown, permission: { approval?: Obj; denied: boolean }, frame: Frame): void {
    const call = this.calls.get(id);
    if (!call) {
      this.out.diagnostic('orphan_result', `line ${frame.pos.line}: tool_result for ${id}, whose tool_use is not in the input; no part was made for it`, frame.pos, { partId: id });
      return;
    }
    if (call.terminal) return; // the same result seen again (a subagent file and its agent_progress copy)
    call.terminal = true;
    call.input = undefined;
    const metadata: ToolMetadata = {};
    const approval = { ...(call.approval ?? {}), ...(permission.approval ?? {}) };
    if (Object.keys(approval).length) metadata.approval = approval;
    const env = this.env(call, frame.at, frame.pos);
    const elapsed = elapsedOf(structured) ?? (frame.at >= call.startedAt && call.startedAt > 0 ? frame.at - call.startedAt : undefined);
    const timing = elapsed !== undefined ? { elapsedMs: elapsed } : {};

    const serverError = serverToolError(block);
    if (block.is_error === true || serverError) {
      let error: ToolError;
      if (serverError) {
        error = { message: serverError, code: 'tool_error' };
      } else {
        const c = classifyFailure({ text: resultText(block.content), structured, denied: call.denied === true || permission.denied, shell: call.spec?.shell === true });
        error = c.error;
        if (c.exitCode !== undefined) metadata.exitCode = c.exitCode;
      }
      this.out.emit('tool.failed', env, { error, ...timing, ...(Object.keys(metadata).length ? { metadata } : {}) });
      return;
    }
    const { output, notes } = buildOutput({ content: block.content, structured, textFromStructuredContent: call.spec?.textFromStructuredContent === true });
    if (notes.length) metadata.truncated = notes as TruncationNote[];
    const agentId = s(obj(structured)?.agentId);
    if (call.kind === 'subagent' && agentId) {
      if (call.childSessionId !== agentId) {
        call.childSessionId = agentId;
        metadata.childSessionId = agentId;
      }
      // Calls of this agent read before its Task's result (a subagent file given first) link now.
      this.adoptChildren(agentId, call.id, frame.at, frame.pos);
    }
    this.out.emit('tool.completed', env, { output, ...timing, ...(Object.keys(metadata).length ? { metadata } : {}) });
  }

  // ---- system messages -------------------------------------------------------------------

  private onSystem(line: Obj, pos: InputPosition): void {
    const subtype = s(line.subtype) ?? '';
    const sessionId = this.sessionIdOf(line);
    if (subtype === 'init') {
      const info = this.session(sessionId);
      if (s(line.cwd)) info.cwd = String(line.cwd);
      if (Array.isArray(line.mcp_servers)) for (const m of line.mcp_servers) if (s(obj(m)?.name)) info.mcpServers.add(normalizeServerName(String(obj(m)!.name)));
      return;
    }
    if (TASK_SUBTYPES.has(subtype)) return this.onTask(subtype, line, pos);
    if (subtype === 'permission_denied') return this.onPermissionDenied(line, pos);
    if ((subtype === 'model_refusal_fallback' || subtype === 'model_refusal_no_fallback') && Array.isArray(line.retracted_message_uuids)) {
      return this.retract(line.retracted_message_uuids, this.timeOf(line), pos, 'retracted after a model refusal');
    }
    if (typeof line.tool_use_id === 'string' && subtype !== 'informational') {
      this.out.diagnostic('unknown_event', `line ${pos.line}: system/${subtype} names tool call ${line.tool_use_id} but is not known to this adapter; it was skipped`, pos, { partId: line.tool_use_id });
    }
  }

  private onTask(subtype: string, line: Obj, pos: InputPosition): void {
    const taskId = s(line.task_id);
    const toolId = s(line.tool_use_id) ?? (taskId ? this.taskCalls.get(taskId) : undefined);
    if (!toolId) {
      // A task with no tool call (e.g. a workflow step): nothing to attach it to.
      return;
    }
    if (taskId) this.taskCalls.set(taskId, toolId);
    if (taskId && s(line.description) && subtype === 'task_started') this.taskDescriptions.set(taskId, String(line.description));
    const fields = taskFields(subtype, line);
    const at = this.timeOf(line);
    const call = this.calls.get(toolId);
    if (!call) {
      this.pendingTask.set(toolId, { ...(this.pendingTask.get(toolId) ?? {}), ...fields });
      return;
    }
    call.task = { ...(call.task ?? {}), ...fields };
    const metadata: ToolMetadata = { task: call.task };
    if (subtype === 'task_started' && line.task_type === 'local_agent' && taskId) {
      if (call.childSessionId !== taskId) {
        call.childSessionId = taskId;
        metadata.childSessionId = taskId;
      }
      this.adoptChildren(taskId, toolId, at, pos);
    }
    this.out.emit('tool.updated', this.env(call, at, pos), { metadata });
  }

  private onPermissionDenied(line: Obj, pos: InputPosition): void {
    const id = s(line.tool_use_id);
    if (!id) return;
    const approval: Obj = { decision: 'deny' };
    if (s(line.message)) approval.message = line.message;
    if (s(line.decision_reason_type)) approval.reasonType = line.decision_reason_type;
    if (s(line.decision_reason)) approval.reason = line.decision_reason;
    const call = this.calls.get(id);
    if (!call) {
      this.pendingDenial.set(id, approval);
      return;
    }
    call.denied = true;
    call.approval = { ...(call.approval ?? {}), ...approval };
    if (!call.terminal) this.out.emit('tool.updated', this.env(call, this.timeOf(line), pos), { metadata: { approval: call.approval } });
  }

  private onControlRequest(line: Obj, pos: InputPosition): void {
    const request = obj(line.request);
    if (request?.subtype !== 'can_use_tool') return;
    const id = s(request.tool_use_id);
    const call = id ? this.calls.get(id) : undefined;
    if (!call || call.terminal) return;
    const approval: Obj = { ...(call.approval ?? {}), requested: true };
    if (s(request.decision_reason)) approval.reason = request.decision_reason;
    if (s(request.blocked_path)) approval.blockedPath = request.blocked_path;
    call.approval = approval;
    this.out.emit('tool.updated', this.env(call, this.timeOf(line), pos), { metadata: { approval } });
  }

  // ---- streaming and progress ------------------------------------------------------------

  private onStreamEvent(line: Obj, pos: InputPosition): void {
    const event = obj(line.event);
    if (!event) return;
    const sessionId = this.sessionIdOf(line);
    const scope = `${sessionId}\u0000${s(line.parent_tool_use_id) ?? ''}`;
    if (event.type === 'message_start') {
      const id = s(obj(event.message)?.id);
      if (id) this.messageIds.set(scope, id);
      return;
    }
    const messageId = s(line.api_message_id) ?? this.messageIds.get(scope) ?? '';
    const key = `${scope}\u0000${messageId}\u0000${String(event.index)}`;
    if (event.type === 'content_block_start') {
      const block = obj(event.content_block);
      if (!block || !TOOL_USE_BLOCKS.has(String(block.type)) || !s(block.id)) return;
      const frame = this.frameOf(line, pos);
      const id = String(block.id);
      const input = obj(block.input) && Object.keys(obj(block.input)!).length ? block.input : {};
      this.startCall(id, s(block.name) ?? 'unknown', input, String(block.type), frame, { final: false });
      this.blocks.set(key, { toolId: id, buffer: '' });
      return;
    }
    const pending = this.blocks.get(key);
    if (!pending) return;
    const call = this.calls.get(pending.toolId);
    if (event.type === 'content_block_delta') {
      const delta = obj(event.delta);
      if (delta?.type !== 'input_json_delta' || typeof delta.partial_json !== 'string' || !delta.partial_json) return;
      pending.buffer += delta.partial_json;
      if (call && !call.terminal && !call.inputFinal) this.out.emit('tool.input.delta', this.env(call, this.timeOf(line), pos), { delta: delta.partial_json });
      return;
    }
    if (event.type === 'content_block_stop') {
      this.blocks.delete(key);
      // The complete assistant frame normally precedes this; without it, the fragments are the input.
      if (call && !call.terminal && !call.inputFinal && pending.buffer) {
        try {
          this.refineInput(call, JSON.parse(pending.buffer), this.timeOf(line), pos);
        } catch {
          this.out.diagnostic('partial_input', `line ${pos.line}: the streamed input of ${call.id} is not valid JSON; the part keeps the fragments`, pos, { partId: call.id });
        }
      }
    }
  }

  private onToolProgress(line: Obj, pos: InputPosition): void {
    const toolUseId = s(line.tool_use_id);
    const parent = s(line.parent_tool_use_id);
    // Heartbeats use a synthetic id `<T>-heartbeat-<n>` and put the tool's own id T in
    // parent_tool_use_id (it is not a subagent parent there).
    const heartbeat = line.heartbeat === true || (!!toolUseId && !!parent && toolUseId.startsWith(`${parent}-heartbeat`));
    const target = heartbeat ? parent : toolUseId;
    if (!target) return;
    const call = this.calls.get(target);
    if (!call) {
      this.out.diagnostic('unknown_part', `line ${pos.line}: tool_progress for ${target}, whose tool_use is not in the input; skipped`, pos, { partId: target });
      return;
    }
    if (call.terminal) return;
    const seconds = num(line.elapsed_time_seconds);
    const body: { message?: string; elapsedMs?: number } = {};
    if (seconds !== undefined) {
      body.elapsedMs = Math.round(seconds * 1000);
      body.message = `${heartbeat ? 'Still running' : 'Running'} after ${seconds} s`;
    }
    // stream-json progress lines carry no timestamp; the elapsed time places them exactly.
    const at = toEpochMs(line.timestamp) ?? (body.elapsedMs !== undefined && call.startedAt > 0 ? call.startedAt + body.elapsedMs : this.timeOf(line));
    this.out.emit('tool.progress', this.env(call, at, pos), body);
  }

  /** Transcript `progress` lines: subagent messages, streamed Bash output, waits. */
  private onProgress(line: Obj, pos: InputPosition): void {
    const data = obj(line.data);
    const parentToolUse = s(line.parentToolUseID);
    if (!data || !parentToolUse) return;
    switch (data.type) {
      case 'hook_progress':
        return;
      case 'agent_progress': {
        const agentId = s(data.agentId);
        if (agentId) this.linkAgent(agentId, parentToolUse, this.timeOf(line), pos);
        const message = obj(data.message);
        const inner = obj(message?.message);
        if (!message || !inner) return;
        const nested: Obj = { ...message, session_id: line.sessionId, timestamp: message.timestamp ?? line.timestamp };
        const frame = this.frameOf(line, pos, { parentId: parentToolUse, ...(agentId ? { agentId } : {}), message: nested });
        if (message.type === 'assistant') this.onAssistant(nested, frame, s(message.uuid));
        else if (message.type === 'user') this.onUser(nested, frame, s(message.uuid));
        return;
      }
      default: {
        const call = this.calls.get(parentToolUse);
        if (!call || call.terminal) return;
        const body: { message?: string; outputDelta?: string; elapsedMs?: number } = {};
        if (data.type === 'bash_progress') {
          const full = typeof data.fullOutput === 'string' ? data.fullOutput : undefined;
          const seen = call.streamed ?? 0;
          if (full !== undefined && full.length > seen) {
            body.outputDelta = full.slice(seen);
            call.streamed = full.length;
          }
          const secs = num(data.elapsedTimeSeconds);
          if (secs !== undefined) body.elapsedMs = Math.round(secs * 1000);
        } else if (data.type === 'waiting_for_task' && s(data.taskDescription)) {
          body.message = `Waiting for ${String(data.taskDescription)}`;
        } else if (s(data.message)) {
          body.message = String(data.message);
        }
        this.out.emit('tool.progress', this.env(call, this.timeOf(line), pos), body);
      }
    }
  }

  /** `agent-<id>.meta.json`: `{agentType, description, toolUseId, …}`. */
  private onMeta(line: Obj, pos: InputPosition): void {
    const toolUseId = s(line.toolUseId);
    const agentId = this.fileAgentId ?? s(line.agentId);
    if (!toolUseId || !agentId) {
      this.out.diagnostic('unknown_event', `line ${pos.line}: subagent metadata without ${toolUseId ? 'an agent id (name the file agent-<id>.meta.json)' : 'toolUseId'}; it links nothing`, pos);
      return;
    }
    this.linkAgent(agentId, toolUseId, this.timeOf(undefined), pos);
  }
}

/** `permission_decision` (stream-json) / `permissionDecision` (transcript) → metadata.approval. */
function approvalOf(...decisions: unknown[]): Obj | undefined {
  for (const d of decisions) {
    const o = obj(d);
    if (!o || !s(o.decision)) continue;
    const out: Obj = { decision: o.decision };
    if (s(o.source)) out.source = o.source;
    const reasonType = s(o.reason_type) ?? s(o.reasonType);
    if (reasonType) out.reasonType = reasonType;
    if (s(o.ruleSource)) out.ruleSource = o.ruleSource;
    return out;
  }
  return undefined;
}

/** Provider-reported duration in a structured result (Task, Glob, WebFetch, WebSearch). */
function elapsedOf(structured: unknown): number | undefined {
  const o = obj(structured);
  if (!o) return undefined;
  const ms = num(o.totalDurationMs) ?? num(o.durationMs);
  if (ms !== undefined && ms >= 0) return ms;
  const secs = num(o.durationSeconds);
  return secs !== undefined && secs >= 0 ? Math.round(secs * 1000) : undefined;
}

/** Server-tool result blocks (`web_search_tool_result`…) signal failure in their content. */
function serverToolError(block: Obj): string | undefined {
  if (block.type === 'tool_result') return undefined;
  const content = obj(block.content);
  if (content && typeof content.type === 'string' && content.type.endsWith('_error')) return `${content.type}: ${String(content.error_code ?? 'unknown error')}`;
  return undefined;
}
