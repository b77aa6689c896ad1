// The stateful Claude Code reader. One instance reads a whole input (several files for a session
// plus its subagent files) and turns tool activity into ToolEvents; the shared reducer builds the
// parts. Line forms (docs/providers/claude.md#line-forms):
// - stream-json / Agent SDK messages: system, assistant, user, stream_event, tool_progress, result;
// - on-disk transcripts: the same user/assistant messages with camelCase envelopes, plus
//   progress (agent_progress, bash_progress…) and bookkeeping lines;
// - `agent-<id>.meta.json`: one object linking a subagent file to its Task call.
import { EventEmitterFor, parseJsonLine } from '../shared/emit.js';
import { durationField, timeField, toEpochMs } from '../shared/time.js';
import type { Adapter, AdapterOptions, AdapterSink, InputPosition } from '../types.js';
import { CallTracker, type Frame } from './calls.js';
import { normalizeServerName } from '../shared/mcp-names.js';
import { resultText } from './output.js';
import type { SubagentLinks } from './subagents.js';
import { TASK_SUBTYPES } from './tasks.js';
import { parseBounded } from '../../events/depth.js';
import { BoundedMap } from '../../collections/bounded.js';
import { obj, type Obj, str } from '../../fields.js';

interface SessionInfo {
  /** The session id as first seen: frames, calls and events all use this one string. */
  readonly id: string;
  cwd?: string;
  /** Shared and empty until the session names a server (most never do): a Set per session was most of its cost. */
  mcpServers: ReadonlySet<string>;
}

interface PartialBlock {
  toolId: string;
  buffer: string;
}

/** Line types that carry no tool activity (transcript bookkeeping, usage, UI state). */
const QUIET_TYPES = new Set([
  'summary', 'file-history-snapshot', 'queue-operation', 'attachment', 'tools-used', 'atis-latch', 'cost-state', 'last-prompt',
  'custom-title', 'agent-name', 'tag', 'mode', 'pr-link', 'rate_limit_event', 'auth_status', 'prompt_suggestion', 'conversation_reset',
  'tool_use_summary', 'keep_alive', 'control_cancel_request',
]);

const TOOL_USE_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
const isToolUseBlock = (b: unknown): boolean => !!b && typeof b === 'object' && TOOL_USE_BLOCKS.has((b as Obj).type as string);
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
  /** Bounded like the calls (docs/robustness.md): the 10k–20k most recently started sessions and streamed blocks. */
  /**
   * Sessions seen lately: the last 2k–4k (docs/robustness.md). A session's lines come together in
   * a file, and even interleaved streams rarely run thousands at once; an older session's cwd
   * and MCP servers are no longer used for titles.
   */
  private readonly sessions = new BoundedMap<string, SessionInfo>(2_000);
  /** The MCP servers every session starts with (--mcp-servers), one shared set. */
  private readonly defaultServers: ReadonlySet<string>;
  private readonly blocks = new BoundedMap<string, PartialBlock>(10_000);
  /** Latest `message_start` id per session and parent, for stream events without `api_message_id`. */
  private readonly messageIds = new BoundedMap<string, string>(10_000);
  private file?: string;
  private fileAgentId?: string;
  private fileIsMeta = false;
  private metaText: string[] = [];
  private currentSession?: string;
  private lastAt?: number;
  /** The line being read and its parsed timestamp (parsed once per line). */
  private curLine?: Obj;
  private curAt?: number;

  /** How each message type that can carry tool activity is read. */
  private readonly handlers = new Map<string, (line: Obj, pos: InputPosition) => void>([
    ['assistant', (l, p) => this.onAssistant(l, this.frameOf(l, p))],
    ['user', (l, p) => this.onUser(l, this.frameOf(l, p))],
    ['system', (l, p) => this.onSystem(l, p)],
    ['stream_event', (l, p) => this.onStreamEvent(l, p)],
    ['tool_progress', (l, p) => this.onToolProgress(l, p)],
    ['progress', (l, p) => this.onProgress(l, p)],
    ['control_request', (l, p) => this.onControlRequest(l, p)],
    ['control_response', (l, p) => this.onControlResponse(l, p)],
    ['result', (l, p) => this.onResult(l, p)],
  ]);
  private readonly tracker: CallTracker;
  private readonly agents: SubagentLinks;

  constructor(sink: AdapterSink, private readonly options: AdapterOptions) {
    this.out = new EventEmitterFor(sink, 'claude');
    this.defaultServers = new Set(options.mcpServers ?? []);
    this.tracker = new CallTracker(this.out, (id) => this.session(id));
    this.agents = this.tracker.agents;
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
    // Nearly every line starts with `{`: the regex only runs for the rest.
    if (text.charCodeAt(0) !== 123 && !NON_BLANK.test(text)) return;
    if (this.fileIsMeta) {
      this.metaText.push(text);
      return;
    }
    const parsed = parseJsonLine(text, pos, this.out);
    if (parsed === undefined) return;
    this.message(parsed, pos, text);
  }

  /** An already-parsed message (an Agent SDK `SDKMessage`), as its JSON line would be read. */
  value(parsed: unknown, pos: InputPosition): void {
    this.message(parsed, pos, undefined);
  }

  /** `text` is the line as read; for objects given directly it is serialized only if a diagnostic quotes it. */
  private message(parsed: unknown, pos: InputPosition, raw: string | undefined): void {
    const textOf = () => (raw ??= JSON.stringify(parsed) ?? String(parsed));
    const line = obj(parsed);
    if (!line) {
      this.out.malformed(textOf(), 'not a JSON object', pos);
      return;
    }
    const type = line.type;
    if (typeof type !== 'string') {
      if (typeof line.toolUseId === 'string') this.onMeta(line, pos);
      else this.out.malformed(textOf(), 'a JSON object without "type" is not a Claude Code message', pos);
      return;
    }
    const at = timeField(this.out, 'timestamp', line.timestamp, 'auto', pos);
    this.curLine = line;
    this.curAt = at;
    if (at !== undefined) this.lastAt = at;
    const handler = this.handlers.get(type);
    if (handler) return handler(line, pos);
    if (QUIET_TYPES.has(type) || type.startsWith('api-request')) return;
    if ('tool_use_id' in line || 'toolUseID' in line || textOf().includes('"tool_use"')) {
      this.out.diagnostic('unknown_event', `line ${pos.line}: Claude Code message type "${type}" is not known to this adapter and may carry tool data; it was skipped`, pos, { excerpt: textOf().slice(0, 200) });
    } else this.out.unrecognized(pos);
  }

  end(): void {
    for (const [agentId, { ids, dropped }] of this.agents.unlinked()) {
      this.out.diagnostic('unlinked_subagent', `${ids.length + dropped} tool call(s) of subagent ${agentId} could not be linked to the Task call that spawned it; pass the session transcript or agent-${agentId}.meta.json with the subagent file`, undefined, { partId: ids[0] });
    }
  }

  // ---- envelope helpers ------------------------------------------------------------------

  private sessionIdOf(line: Obj): string {
    const raw = str(line.session_id) ?? str(line.sessionId);
    const id = raw === undefined ? (this.currentSession ?? this.options.sessionId ?? this.fallbackSession()) : this.canonical(raw);
    this.currentSession = id;
    return id;
  }

  /**
   * Every line brings the session id as a new string. Calls, events and the pipeline's maps keep
   * the first one instead: a remembered call holds no copy of its own, and lookups by session id
   * find an already-hashed key.
   */
  private canonical(raw: string): string {
    const current = this.currentSession;
    return current !== undefined && raw === current ? current : this.session(raw).id;
  }

  private fallbackSession(): string {
    const base = (this.file ?? '-').split(/[\\/]/).pop() ?? '-';
    const stem = base === '-' || base === '' ? 'stdin' : base.replace(/\.(jsonl|json|ndjson|txt)$/i, '');
    return `claude-${stem}`;
  }

  private session(id: string): SessionInfo {
    let info = this.sessions.get(id);
    if (!info) {
      info = { id, cwd: this.options.cwd, mcpServers: this.defaultServers };
      this.sessions.set(id, info);
    }
    return info;
  }

  /** Event time: the line's timestamp, else the last one seen (stream-json system lines have none), else the clock. */
  private timeOf(line: Obj | undefined): number | undefined {
    const at = line === this.curLine ? this.curAt : toEpochMs(line?.timestamp);
    if (at !== undefined) return at;
    return this.lastAt ?? this.options.clock?.();
  }

  private frameOf(line: Obj, pos: InputPosition, nested?: { parentId: string; agentId?: string; timestamp: unknown }): Frame {
    const sessionId = this.sessionIdOf(line);
    const info = this.session(sessionId);
    const lineCwd = str(line.cwd);
    // Kept when unchanged, so the calls of a session share one cwd string too.
    if (lineCwd && lineCwd !== info.cwd) info.cwd = lineCwd;
    const at = nested ? (timeField(this.out, 'data.message.timestamp', nested.timestamp, 'auto', pos) ?? this.timeOf(undefined)) : this.timeOf(line);
    // Every field present from the start: frames then share one hidden class.
    const frame: Frame = { sessionId, at, pos, cwd: info.cwd, parentId: undefined, agentId: undefined };
    if (nested) {
      frame.parentId = nested.parentId;
      if (nested.agentId) frame.agentId = nested.agentId;
      return frame;
    }
    const agentId = str(line.agent_id) ?? str(line.agentId) ?? (line.isSidechain === true ? this.fileAgentId : undefined);
    if (agentId) frame.agentId = agentId;
    const parentToolUse = str(line.parent_tool_use_id);
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
    const uuid = str(line.uuid);
    const parentUuid = str(line.parentUuid);
    const viaChain = this.agents.sidechainTask(uuid, parentUuid);
    if (viaChain) return viaChain;
    // A sidechain starts with a user line holding the Task's prompt.
    if (!parentUuid && line.type === 'user') {
      const text = resultText(obj(line.message)?.content);
      const taskId = text ? this.agents.matchPrompt(text) : undefined;
      if (taskId) {
        if (uuid) this.agents.startSidechain(uuid, taskId);
        if (agentId) this.tracker.linkAgent(agentId, taskId, this.timeOf(line));
        return taskId;
      }
    }
    return undefined;
  }

  // ---- starting calls --------------------------------------------------------------------

  private onAssistant(line: Obj, frame: Frame, uuid = str(line.uuid)): void {
    const content = obj(line.message)?.content;
    const hasTools = Array.isArray(content) && content.some(isToolUseBlock);
    if (!hasTools && !Array.isArray(line.supersedes)) return;
    // A repeated frame (same uuid) changes nothing: its calls are known, complete-input and
    // parented already, and retraction is idempotent. Only its diagnostics are de-duplicated
    // (`CallTracker.firstReport`), so the uuid set stays small: hashing every frame's uuid was
    // ~2% of the run.
    if (Array.isArray(line.supersedes)) this.tracker.retract(line.supersedes, frame.at, frame.pos, 'superseded by a later assistant message');
    if (!hasTools) return;
    let metaTools: Map<string, string> | undefined;
    if (Array.isArray(line.tool_use_meta)) {
      metaTools = new Map();
      for (const m of line.tool_use_meta) if (str(obj(m)?.id) && str(obj(m)?.tool_name)) metaTools.set(String(obj(m)!.id), String(obj(m)!.tool_name));
    }
    for (const raw of content) {
      if (!isToolUseBlock(raw)) continue;
      const block = raw as Obj;
      const id = str(block.id);
      if (!id) {
        if (!this.tracker.firstReport(uuid, 'invalid_tool_use')) continue;
        this.out.diagnostic('invalid_tool_use', `line ${frame.pos.line}: a ${String(block.type)} block without an id was skipped`, frame.pos);
        continue;
      }
      this.tracker.start(id, str(block.name) ?? 'unknown', block.input ?? {}, String(block.type), frame, { final: true, metaTool: metaTools?.get(id), ...(uuid ? { frameUuid: uuid } : {}) });
    }
  }

  // ---- results ---------------------------------------------------------------------------

  private onUser(line: Obj, frame: Frame, uuid = str(line.uuid)): void {
    const content = obj(line.message)?.content;
    if (!Array.isArray(content)) return;
    const results = resultBlocks(content);
    if (results.length === 0) return;
    // A repeated frame's results find their call terminal already; see onAssistant.
    // The structured result and permission fields sit on the line; they belong to its one result.
    const single = results.length === 1;
    const structured = single ? (line.tool_use_result !== undefined ? line.tool_use_result : line.toolUseResult) : undefined;
    let metaById: Map<string, Obj> | undefined;
    if (Array.isArray(line.tool_result_meta)) {
      metaById = new Map();
      for (const m of line.tool_result_meta) if (str(obj(m)?.id)) metaById.set(String(obj(m)!.id), obj(m)!);
    }
    for (const block of results) {
      const id = str(block.tool_use_id);
      if (!id) {
        if (!this.tracker.firstReport(uuid, 'orphan_result')) continue;
        this.out.diagnostic('orphan_result', `line ${frame.pos.line}: a tool_result without tool_use_id was skipped`, frame.pos);
        continue;
      }
      const meta = metaById?.get(id);
      const decisions = [meta?.permission_decision, single ? line.permissionDecision : undefined];
      const denialKind = str(meta?.non_execution_kind) ?? (single ? str(line.toolDenialKind) : undefined);
      const denied = denialKind === 'user-rejected' || decisions.some((d) => obj(d)?.decision === 'reject' || obj(d)?.decision === 'deny');
      this.tracker.finish(id, block, structured, { decisions, denialKind, denied }, frame, uuid);
    }
  }

  // ---- system messages -------------------------------------------------------------------

  private onSystem(line: Obj, pos: InputPosition): void {
    const subtype = str(line.subtype) ?? '';
    const sessionId = this.sessionIdOf(line);
    if (subtype === 'init') {
      const info = this.session(sessionId);
      if (str(line.cwd) && line.cwd !== info.cwd) info.cwd = String(line.cwd);
      if (Array.isArray(line.mcp_servers)) {
        const names = line.mcp_servers.map((m) => str(obj(m)?.name)).filter((n): n is string => n !== undefined);
        if (names.length) info.mcpServers = new Set([...info.mcpServers, ...names.map(normalizeServerName)]);
      }
      return;
    }
    if (TASK_SUBTYPES.has(subtype)) return this.tracker.task(subtype, line, this.timeOf(line), pos);
    if (subtype === 'permission_denied') return this.tracker.deny(line, this.timeOf(line), pos);
    if ((subtype === 'model_refusal_fallback' || subtype === 'model_refusal_no_fallback') && Array.isArray(line.retracted_message_uuids)) {
      return this.tracker.retract(line.retracted_message_uuids, this.timeOf(line), pos, 'retracted after a model refusal');
    }
    if (typeof line.tool_use_id === 'string' && subtype !== 'informational') {
      this.out.diagnostic('unknown_event', `line ${pos.line}: system/${subtype} names tool call ${line.tool_use_id} but is not known to this adapter; it was skipped`, pos, { partId: line.tool_use_id });
    }
  }

  private onControlRequest(line: Obj, pos: InputPosition): void {
    const request = obj(line.request);
    if (request?.subtype === 'can_use_tool') this.tracker.approvalRequested(request, str(line.request_id), this.timeOf(line), pos);
  }

  /** The host's answer: `{response: {subtype: 'success', request_id, response: {behavior, message?}}}`. */
  private onControlResponse(line: Obj, pos: InputPosition): void {
    const response = obj(line.response);
    const requestId = str(response?.request_id);
    const answer = obj(response?.response);
    if (requestId && answer && response?.subtype === 'success') this.tracker.approvalAnswered(requestId, answer, this.timeOf(line), pos);
  }

  /** The turn's end: only its `permission_denials[]` concern tool calls. */
  private onResult(line: Obj, pos: InputPosition): void {
    if (Array.isArray(line.permission_denials) && line.permission_denials.length) this.tracker.denials(line.permission_denials, this.timeOf(line), pos);
  }

  // ---- streaming and progress ------------------------------------------------------------

  private onStreamEvent(line: Obj, pos: InputPosition): void {
    const event = obj(line.event);
    if (!event) return;
    const sessionId = this.sessionIdOf(line);
    const scope = `${sessionId}\u0000${str(line.parent_tool_use_id) ?? ''}`;
    if (event.type === 'message_start') {
      const id = str(obj(event.message)?.id);
      if (id) this.messageIds.set(scope, id);
      return;
    }
    const messageId = str(line.api_message_id) ?? this.messageIds.get(scope) ?? '';
    const key = `${scope}\u0000${messageId}\u0000${String(event.index)}`;
    if (event.type === 'content_block_start') {
      const block = obj(event.content_block);
      if (!block || !TOOL_USE_BLOCKS.has(String(block.type)) || !str(block.id)) return;
      const frame = this.frameOf(line, pos);
      const id = String(block.id);
      const input = obj(block.input) && Object.keys(obj(block.input)!).length ? block.input : {};
      this.tracker.start(id, str(block.name) ?? 'unknown', input, String(block.type), frame, { final: false });
      this.blocks.set(key, { toolId: id, buffer: '' });
      return;
    }
    const pending = this.blocks.get(key);
    if (!pending) return;
    const call = this.tracker.get(pending.toolId);
    if (event.type === 'content_block_delta') {
      const delta = obj(event.delta);
      if (delta?.type !== 'input_json_delta' || typeof delta.partial_json !== 'string' || !delta.partial_json) return;
      pending.buffer += delta.partial_json;
      if (call) this.tracker.inputDelta(call, delta.partial_json, this.timeOf(line), pos);
      return;
    }
    if (event.type === 'content_block_stop') {
      this.blocks.delete(key);
      // The complete assistant frame normally precedes this; without it, the fragments are the input.
      if (call && !call.terminal && !call.inputFinal && pending.buffer) {
        try {
          this.tracker.refine(call, parseBounded(pending.buffer), this.timeOf(line), pos);
        } catch {
          this.out.diagnostic('partial_input', `line ${pos.line}: the streamed input of ${call.id} is not valid JSON; the part keeps the fragments`, pos, { partId: call.id });
        }
      }
    }
  }

  private onToolProgress(line: Obj, pos: InputPosition): void {
    const toolUseId = str(line.tool_use_id);
    const parent = str(line.parent_tool_use_id);
    // Heartbeats use a synthetic id `<T>-heartbeat-<n>` and put the tool's own id T in
    // parent_tool_use_id (it is not a subagent parent there).
    const heartbeat = line.heartbeat === true || (!!toolUseId && !!parent && toolUseId.startsWith(`${parent}-heartbeat`));
    const target = heartbeat ? parent : toolUseId;
    if (!target) return;
    const call = this.tracker.get(target);
    if (!call) {
      this.out.diagnostic('unknown_part', `line ${pos.line}: tool_progress for ${target}, whose tool_use is not in the input; skipped`, pos, { partId: target });
      return;
    }
    if (call.terminal) return;
    const elapsedMs = durationField(this.out, 'elapsed_time_seconds', line.elapsed_time_seconds, 's', pos, target);
    const seconds = line.elapsed_time_seconds as number;
    const body: { message?: string; elapsedMs?: number } = {};
    if (elapsedMs !== undefined) {
      body.elapsedMs = elapsedMs;
      body.message = `${heartbeat ? 'Still running' : 'Running'} after ${seconds} s`;
    }
    // stream-json progress lines carry no timestamp; the elapsed time places them exactly.
    const at = this.curAt ?? (body.elapsedMs !== undefined && call.startedAt !== undefined ? toEpochMs(call.startedAt + body.elapsedMs, 'ms') : undefined) ?? this.timeOf(line);
    this.tracker.progress(call, body, at, pos);
  }

  /** Transcript `progress` lines: subagent messages, streamed Bash output, waits. */
  private onProgress(line: Obj, pos: InputPosition): void {
    const data = obj(line.data);
    const parentToolUse = str(line.parentToolUseID);
    if (!data || !parentToolUse) return;
    switch (data.type) {
      case 'hook_progress':
        return;
      case 'agent_progress': {
        const agentId = str(data.agentId);
        if (agentId) this.tracker.linkAgent(agentId, parentToolUse, this.timeOf(line), pos);
        const message = obj(data.message);
        const inner = obj(message?.message);
        if (!message || !inner) return;
        // The nested message is read as it is: copying it with the outer session and time spliced in
        // made V8 re-shape every parsed message's hidden class (a `timestamp` field rewritten), over
        // a thousand times per 100 MB. The frame carries both instead.
        const frame = this.frameOf(line, pos, { parentId: parentToolUse, agentId, timestamp: message.timestamp });
        if (message.type === 'assistant') this.onAssistant(message, frame, str(message.uuid));
        else if (message.type === 'user') this.onUser(message, frame, str(message.uuid));
        return;
      }
      default: {
        const call = this.tracker.get(parentToolUse);
        if (!call || call.terminal) return;
        const body: { message?: string; outputDelta?: string; elapsedMs?: number } = {};
        if (data.type === 'bash_progress') {
          const full = typeof data.fullOutput === 'string' ? data.fullOutput : undefined;
          const seen = call.streamed ?? 0;
          if (full !== undefined && full.length > seen) {
            body.outputDelta = full.slice(seen);
            call.streamed = full.length;
          }
          const elapsedMs = durationField(this.out, 'data.elapsedTimeSeconds', data.elapsedTimeSeconds, 's', pos, parentToolUse);
          if (elapsedMs !== undefined) body.elapsedMs = elapsedMs;
        } else if (data.type === 'waiting_for_task' && str(data.taskDescription)) {
          body.message = `Waiting for ${String(data.taskDescription)}`;
        } else if (str(data.message)) {
          body.message = String(data.message);
        }
        this.tracker.progress(call, body, this.timeOf(line), pos);
      }
    }
  }

  /** `agent-<id>.meta.json`: `{agentType, description, toolUseId, …}`. */
  private onMeta(line: Obj, pos: InputPosition): void {
    const toolUseId = str(line.toolUseId);
    const agentId = this.fileAgentId ?? str(line.agentId);
    if (!toolUseId || !agentId) {
      this.out.diagnostic('unknown_event', `line ${pos.line}: subagent metadata without ${toolUseId ? 'an agent id (name the file agent-<id>.meta.json)' : 'toolUseId'}; it links nothing`, pos);
      return;
    }
    this.tracker.linkAgent(agentId, toolUseId, this.timeOf(undefined), pos);
  }
}

