// The tool calls of one input, by provider tool-use id (which is also the part id): when they
// start, refine, link to their subagent parent, pick up task and permission detail, and end.
// Every state change goes out as a ToolEvent; the shared reducer builds the parts.
import type { ToolApproval, ToolError, ToolKind, ToolMetadata, TruncationNote } from '../../contract/index.js';
import type { EventEmitterFor } from '../shared/emit.js';
import type { InputPosition } from '../types.js';
import { BoundedMap, BoundedSet } from '../../collections/bounded.js';
import { classifyFailure } from './errors.js';
import type { McpName } from '../shared/mcp-names.js';
import { buildOutput, resultText } from './output.js';
import { MAX_WAITING_AGENTS, SubagentLinks } from './subagents.js';
import { taskFields } from './tasks.js';
import { answeredApproval, decidedApproval, deniedApproval, requestedApproval } from './approvals.js';
import { inputSubstance, resultSubstance, type Substance, type SubstanceContext } from './substance.js';
import { identify, type IdentityContext, type ToolSpec } from './tools.js';
import { num, obj, type Obj, str } from '../../fields.js';

/** One tool call, by provider tool-use id (which is also the part id). */
export interface Call {
  readonly id: string;
  readonly sessionId: string;
  readonly rawName: string;
  readonly spec?: ToolSpec;
  mcp?: McpName;
  kind: ToolKind;
  title: string;
  /** The complete input is known (not just streamed fragments). */
  inputFinal: boolean;
  terminal: boolean;
  startedAt: number | undefined;
  cwd?: string;
  parentId?: string;
  childSessionId?: string;
  task?: Obj;
  denied?: boolean;
  /** Where its approval stands: asked (`pending`), or answered (`resolved`, said once). */
  approval?: 'pending' | 'resolved';
  /** The input as given (complete once inputFinal), for what its result adds to its substance. */
  input: unknown;
  /** What the input showed it would do (metadata.files / command / search / plan). */
  substance?: Substance;
  /** Characters of `bash_progress.fullOutput` already streamed. */
  streamed?: number;
}

/** What is known about the message a tool_use/tool_result block sits in. */
export interface Frame {
  sessionId: string;
  at: number | undefined;
  pos: InputPosition;
  parentId?: string;
  agentId?: string;
  cwd?: string;
}

export interface SessionView {
  cwd?: string;
  mcpServers: ReadonlySet<string>;
}

/**
 * Assistant frames remembered for retraction, with the calls each made. `supersedes` and refusal
 * fallbacks withdraw frames just sent, so a ring of recent frames is enough: recording one costs no
 * hashing, and the rare retraction scans it.
 */
const RECENT_FRAMES = 1024;
/**
 * Calls remembered: the last 5k–10k (docs/robustness.md). A result, progress line or task note
 * comes within its turn, far inside this; a larger window only made memory grow further into
 * the input before it levelled off.
 */
export const CALLS_KEPT = 5_000;
/** Ids of calls forgotten while open, remembered far longer (an id costs a set entry, a call much more). */
export const FORGOTTEN_KEPT = 100_000;

export class CallTracker {
  readonly agents = new SubagentLinks();
  /**
   * The last 5k–10k calls (CALLS_KEPT). Enough for any result, progress or task note to find its call (they
   * come within a turn), and for a repeated frame to find its calls known; memory stays flat.
   */
  private readonly calls = new BoundedMap<string, Call>(CALLS_KEPT, (id, call) => {
    if (call.terminal) return;
    this.forgotten.add(id);
    this.out.diagnostic('evicted_call', `call ${id} of session ${call.sessionId} was still open when more than ${CALLS_KEPT} newer calls had come; it is forgotten, its part keeps its last known state, and a result for it later is reported as late`, undefined, { partId: id });
  });
  /** Calls forgotten while still open, so their result is reported as late, not as never announced. */
  private readonly forgotten = new BoundedSet<string>(FORGOTTEN_KEPT);
  /** Recent assistant frames and the calls each made, a ring (see RECENT_FRAMES). */
  private readonly recentFrames: ({ uuid: string; ids: string[] } | undefined)[] = new Array<undefined>(RECENT_FRAMES).fill(undefined);
  private recentAt = 0;
  /** Diagnostics already reported per frame uuid, so a repeated frame does not report twice. */
  private readonly reported = new BoundedSet<string>(10_000);
  /** task_id → tool-use id of the call that runs it, and its description (for BashOutput titles). */
  private readonly taskCalls = new BoundedMap<string, string>(10_000);
  private readonly taskDescriptions = new BoundedMap<string, string>(10_000);
  /** Task info and denials that arrived before their call. */
  private readonly pendingTask = new BoundedMap<string, Obj>(10_000);
  private readonly pendingDenial = new BoundedMap<string, ToolApproval>(10_000);
  private readonly pendingRequest = new BoundedMap<string, ToolApproval>(10_000);
  /** control_request id → tool-use id, to match the host's control_response. */
  private readonly requests = new BoundedMap<string, string>(10_000);
  /** Task* entry subjects by session and task id: TaskUpdate names only the id. */
  private readonly taskSubjects = new BoundedMap<string, string>(10_000);

  constructor(private readonly out: EventEmitterFor, private readonly sessionOf: (sessionId: string) => SessionView) {}

  get(id: string): Call | undefined {
    return this.calls.get(id);
  }

  /** False when `what` was already reported for the frame `uuid` (a repeated frame). */
  firstReport(uuid: string | undefined, what: string): boolean {
    return uuid === undefined || this.reported.add(`${uuid}\u0000${what}`);
  }

  private readonly taskDescription = (id: string): string | undefined => this.taskDescriptions.get(id);

  private titleContext(sessionId: string, cwd: string | undefined, mcpMetaTool: string | undefined): IdentityContext {
    const info = this.sessionOf(sessionId);
    return { cwd: cwd ?? info.cwd, mcpServers: info.mcpServers, taskDescription: this.taskDescription, mcpMetaTool };
  }

  private substanceContext(sessionId: string, cwd: string | undefined): SubstanceContext {
    return { cwd: cwd ?? this.sessionOf(sessionId).cwd, taskSubject: (id) => this.taskSubjects.get(`${sessionId}\u0000${id}`) };
  }

  /** The input's substance, remembered on the call; a TaskCreate/TaskUpdate subject is remembered for later updates. */
  private inputSubstance(call: Call, input: unknown): Substance | undefined {
    const substance = inputSubstance(call.spec, input, this.substanceContext(call.sessionId, call.cwd));
    call.substance = substance;
    return substance;
  }

  private rememberSubjects(call: Call, plan: Substance['plan']): void {
    if (!plan?.partial) return;
    for (const e of plan.entries) if (e.id) this.taskSubjects.set(`${call.sessionId}\u0000${e.id}`, e.content);
  }

  private env(call: Call, at: number | undefined, pos?: InputPosition) {
    return { sessionId: call.sessionId, partId: call.id, at, pos };
  }

  /** A tool_use block (or a streamed content_block_start): the part starts, or an open one is refined. */
  start(id: string, rawName: string, input: unknown, blockType: string, frame: Frame, how: { final: boolean; metaTool?: string; frameUuid?: string }): void {
    const existing = this.calls.get(id);
    if (existing) {
      if (!existing.terminal && how.final && !existing.inputFinal) this.refine(existing, input, frame.at, frame.pos, how.metaTool);
      if (!existing.parentId && frame.parentId && frame.parentId !== id) this.setParent(existing, frame.parentId, frame.at);
      return;
    }
    const identity = identify(rawName, input, this.titleContext(frame.sessionId, frame.cwd, how.metaTool));
    // Every field present from the start, in one order: calls then share one hidden class, so the
    // many reads of call fields stay monomorphic (and optimized code is not thrown away when a
    // later call grows a field).
    const call: Call = {
      id, sessionId: frame.sessionId, rawName, spec: identity.spec, mcp: identity.mcp, kind: identity.kind, title: identity.title, inputFinal: how.final,
      terminal: false, startedAt: frame.at, cwd: frame.cwd || undefined, parentId: undefined, childSessionId: undefined, task: undefined, denied: undefined,
      approval: undefined, input, substance: undefined, streamed: undefined,
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
          const dropped = this.agents.wait(frame.agentId, id);
          if (dropped) this.out.diagnostic('unlinked_subagent', `${dropped.ids.length + dropped.dropped} tool call(s) of subagent ${dropped.agentId} could not be linked to the Task call that spawned it: more than ${MAX_WAITING_AGENTS} subagents were waiting for theirs, and this one waited longest`, frame.pos, { partId: dropped.ids[0] });
        }
      }
    }
    const task = this.pendingTask.get(id);
    if (task) {
      this.pendingTask.delete(id);
      call.task = task;
      metadata.task = task;
      if (task.type === 'local_agent' && str(task.taskId)) call.childSessionId = metadata.childSessionId = String(task.taskId);
    }
    const substance = this.inputSubstance(call, input);
    if (substance) Object.assign(metadata, substance);
    this.calls.set(id, call);
    if (how.frameUuid) {
      const last = this.recentFrames[(this.recentAt + RECENT_FRAMES - 1) % RECENT_FRAMES];
      if (last?.uuid === how.frameUuid) last.ids.push(id);
      else {
        this.recentFrames[this.recentAt] = { uuid: how.frameUuid, ids: [id] };
        this.recentAt = (this.recentAt + 1) % RECENT_FRAMES;
      }
    }
    if (call.kind === 'subagent') this.agents.rememberTask(id, obj(input)?.prompt);
    this.out.emit('tool.started', this.env(call, frame.at, frame.pos), { name: identity.name, kind: identity.kind, title: identity.title, input, metadata });
    this.rememberSubjects(call, substance?.plan);
    // Permission traffic seen before its call (the host's prompt, a denial) follows its start.
    const request = this.pendingRequest.get(id);
    if (request) {
      this.pendingRequest.delete(id);
      call.approval = 'pending';
      this.out.emit('tool.approval.requested', this.env(call, frame.at, frame.pos), { approval: request });
    }
    const denial = this.pendingDenial.get(id);
    if (denial) {
      this.pendingDenial.delete(id);
      this.resolve(call, denial, frame.at, frame.pos);
    }
  }

  /** The approval was answered: said once per call (later forms repeat the same decision). */
  private resolve(call: Call, approval: ToolApproval, at: number | undefined, pos?: InputPosition): void {
    if (approval.state === 'denied') call.denied = true;
    if (call.approval === 'resolved') return;
    call.approval = 'resolved';
    this.out.emit('tool.approval.resolved', this.env(call, at, pos), { approval });
  }

  /** The complete input arrived (after streamed fragments): new input, and a better title. */
  refine(call: Call, input: unknown, at: number | undefined, pos?: InputPosition, metaTool?: string): void {
    call.inputFinal = true;
    call.input = input;
    const identity = identify(call.rawName, input, this.titleContext(call.sessionId, call.cwd, metaTool));
    const body: { input: unknown; title?: string; name?: string; metadata?: ToolMetadata } = { input };
    const substance = this.inputSubstance(call, input);
    if (substance) body.metadata = { ...substance };
    this.rememberSubjects(call, substance?.plan);
    if (identity.title !== call.title) {
      call.title = identity.title;
      body.title = identity.title;
    }
    // The complete frame's tool_use_meta can split an MCP name differently than the stream could.
    if (identity.mcp && (identity.mcp.server !== call.mcp?.server || identity.mcp.tool !== call.mcp?.tool)) {
      call.mcp = identity.mcp;
      body.name = identity.name;
      body.metadata = { ...body.metadata, mcp: identity.mcp };
    }
    if (call.kind === 'subagent') this.agents.rememberTask(call.id, obj(input)?.prompt);
    this.out.emit('tool.updated', this.env(call, at, pos), body);
  }

  private setParent(call: Call, parentId: string, at: number | undefined, pos?: InputPosition): void {
    call.parentId = parentId;
    this.out.emit('tool.updated', this.env(call, at, pos), { metadata: { parentId } });
  }

  /** Links an agent to its Task call; calls of that agent seen before the link get their parent now. */
  private adoptChildren(agentId: string, taskId: string, at: number | undefined, pos?: InputPosition): void {
    for (const childId of this.agents.link(agentId, taskId)) {
      const child = this.calls.get(childId);
      if (child && !child.parentId && childId !== taskId) this.setParent(child, taskId, at, pos);
    }
  }

  /** A subagent's Task call became known: it gets childSessionId, the agent's calls their parentId. */
  linkAgent(agentId: string, taskId: string, at: number | undefined, pos?: InputPosition): void {
    this.adoptChildren(agentId, taskId, at, pos);
    const task = this.calls.get(taskId);
    if (task && task.childSessionId !== agentId) {
      task.childSessionId = agentId;
      this.out.emit('tool.updated', this.env(task, at, pos), { metadata: { childSessionId: agentId } });
    }
  }

  /** A tool_result block: the part completes or fails. */
  finish(id: string, block: Obj, structured: unknown, permission: { decisions: readonly unknown[]; denialKind?: string; denied: boolean }, frame: Frame, frameUuid?: string): void {
    const call = this.calls.get(id);
    if (!call) {
      if (!this.firstReport(frameUuid, id)) return; // the same orphan result in a repeated frame
      if (this.forgotten.has(id)) {
        this.out.diagnostic('late_result', `line ${frame.pos.line}: tool_result for ${id} arrived after its call was forgotten while still open (more than ${CALLS_KEPT} newer calls); the result is reported here and not applied`, frame.pos, { partId: id });
        return;
      }
      this.out.diagnostic('orphan_result', `line ${frame.pos.line}: tool_result for ${id}, whose tool_use is not in the input; no part was made for it`, frame.pos, { partId: id });
      return;
    }
    if (call.terminal) return; // the same result seen again (a subagent file and its agent_progress copy)
    call.terminal = true;
    // Bodies are built field by field (no spreads of optional pieces, no key counting): this runs
    // once per call, and most calls have no metadata to add.
    let metadata: ToolMetadata | undefined;
    const decided = decidedApproval(permission.decisions, frame.at, permission.denialKind);
    if (decided) this.resolve(call, decided, frame.at, frame.pos);
    const env = this.env(call, frame.at, frame.pos);
    const elapsed = elapsedOf(structured) ?? (frame.at !== undefined && call.startedAt !== undefined && frame.at >= call.startedAt ? frame.at - call.startedAt : undefined);

    const serverError = serverToolError(block);
    if (block.is_error === true || serverError) {
      let error: ToolError;
      if (serverError) {
        error = { message: serverError, code: 'tool_error' };
      } else {
        const c = classifyFailure({ text: resultText(block.content), structured, denied: call.denied === true || permission.denied, shell: call.spec?.shell === true });
        error = c.error;
        // A denial known only from its text (no decision on the line) is still an answered approval:
        // a person's when the text says so or one was asked, else Claude's own checks (policy).
        if (error.code === 'denied' && call.approval !== 'resolved') {
          const byUser = call.approval === 'pending' || USER_DENIAL.test(error.message);
          this.resolve(call, deniedApproval({ message: error.message }, frame.at, byUser), frame.at, frame.pos);
        }
        if (c.exitCode !== undefined) {
          (metadata ??= {}).exitCode = c.exitCode;
          if (call.substance?.command) metadata.command = { ...call.substance.command, exitCode: c.exitCode };
        }
      }
      const failed: { error: ToolError; elapsedMs?: number; metadata?: ToolMetadata } = { error };
      if (elapsed !== undefined) failed.elapsedMs = elapsed;
      if (metadata) failed.metadata = metadata;
      this.out.emit('tool.failed', env, failed);
      return;
    }
    const more = resultSubstance(call.spec, structured, call.input, call.substance, this.substanceContext(call.sessionId, call.cwd), () => resultText(block.content));
    if (more) {
      metadata = Object.assign(metadata ?? {}, more);
      this.rememberSubjects(call, more.plan);
    }
    const { output, notes } = buildOutput({ content: block.content, structured, textFromStructuredContent: call.spec?.textFromStructuredContent === true });
    if (notes.length) (metadata ??= {}).truncated = notes as TruncationNote[];
    // A background shell's id, for the titles of the calls that read or stop it (BashOutput,
    // KillShell): transcripts carry no task_started, the Bash result names the id.
    const backgroundId = call.spec?.shell ? str(obj(structured)?.backgroundTaskId) ?? backgroundIdIn(block.content) : undefined;
    if (backgroundId && !this.taskDescriptions.get(backgroundId)) this.taskDescriptions.set(backgroundId, call.substance?.command?.description ?? call.title);
    const agentId = str(obj(structured)?.agentId);
    if (call.kind === 'subagent' && agentId) {
      if (call.childSessionId !== agentId) {
        call.childSessionId = agentId;
        (metadata ??= {}).childSessionId = agentId;
      }
      // Calls of this agent read before its Task's result (a subagent file given first) link now.
      this.adoptChildren(agentId, call.id, frame.at, frame.pos);
    }
    const completed: { output: unknown; elapsedMs?: number; metadata?: ToolMetadata } = { output };
    if (elapsed !== undefined) completed.elapsedMs = elapsed;
    if (metadata) completed.metadata = metadata;
    this.out.emit('tool.completed', env, completed);
  }

  /** `system/task_*`: enriches metadata.task of the call that runs the task; no state change. */
  task(subtype: string, line: Obj, at: number | undefined, pos: InputPosition): void {
    const taskId = str(line.task_id);
    const toolId = str(line.tool_use_id) ?? (taskId ? this.taskCalls.get(taskId) : undefined);
    if (!toolId) {
      // A task with no tool call (e.g. a workflow step): nothing to attach it to.
      return;
    }
    if (taskId) this.taskCalls.set(taskId, toolId);
    if (taskId && str(line.description) && subtype === 'task_started') this.taskDescriptions.set(taskId, String(line.description));
    const fields = taskFields(subtype, line);
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
    // A background command's status comes only with its notification: `… completed (exit code N)`.
    const background = call.substance?.command;
    const exit = background?.background && subtype === 'task_notification' ? BACKGROUND_EXIT.exec(str(line.summary) ?? '') : null;
    if (background && exit) metadata.command = call.substance!.command = { ...background, exitCode: Number(exit[1]) };
    this.out.emit('tool.updated', this.env(call, at, pos), { metadata });
  }

  /** `system/permission_denied` (or a result's `permission_denials[]` entry): the call is denied, whatever its result text says. */
  deny(line: Obj, at: number | undefined, pos: InputPosition): void {
    const id = str(line.tool_use_id);
    if (!id) return;
    const call = this.calls.get(id);
    if (!call) {
      if (!this.pendingDenial.get(id)) this.pendingDenial.set(id, deniedApproval(line, at, this.pendingRequest.get(id) !== undefined));
      return;
    }
    this.resolve(call, deniedApproval(line, at, call.approval === 'pending'), at, pos);
  }

  /** `result.permission_denials[]`: denials the run reports at its end; a call left open by one ends denied. */
  denials(list: readonly unknown[], at: number | undefined, pos: InputPosition): void {
    for (const raw of list) {
      const d = obj(raw);
      const id = str(d?.tool_use_id);
      const call = id ? this.calls.get(id) : undefined;
      if (!d || !call) continue;
      // An ended call said its denial with its failure; a resolution now would come after its
      // part was printed. One still open ends here, denied.
      if (call.terminal) continue;
      this.resolve(call, deniedApproval(d, at, call.approval === 'pending'), at, pos);
      call.terminal = true;
      this.out.emit('tool.failed', this.env(call, at, pos), { error: { message: `Permission to use ${call.rawName} was denied`, code: 'denied' } });
    }
  }

  /** SDK `control_request` `can_use_tool`: the host is asked for permission; the call waits. */
  approvalRequested(request: Obj, requestId: string | undefined, at: number | undefined, pos: InputPosition): void {
    const id = str(request.tool_use_id);
    if (!id) return;
    if (requestId) this.requests.set(requestId, id);
    const approval = requestedApproval(request, requestId, at);
    const call = this.calls.get(id);
    if (!call) {
      this.pendingRequest.set(id, approval);
      return;
    }
    if (call.terminal || call.approval) return;
    call.approval = 'pending';
    this.out.emit('tool.approval.requested', this.env(call, at, pos), { approval });
  }

  /** The host's `control_response` to a `can_use_tool` request, when the recording has that side. */
  approvalAnswered(requestId: string, answer: Obj, at: number | undefined, pos: InputPosition): void {
    const id = this.requests.get(requestId);
    const call = id ? this.calls.get(id) : undefined;
    const approval = answeredApproval(answer, requestId, at);
    if (!call || !approval) return;
    this.requests.delete(requestId);
    this.resolve(call, approval, at, pos);
  }

  /** Assistant frames withdrawn by the harness (`supersedes`, refusal fallbacks): their open calls never run. */
  retract(uuids: unknown[], at: number | undefined, pos: InputPosition, why: string): void {
    for (const u of uuids) {
      const frame = typeof u === 'string' ? this.recentFrames.find((f) => f?.uuid === u) : undefined;
      for (const id of frame?.ids ?? []) {
        const call = this.calls.get(id);
        if (!call || call.terminal) continue;
        call.terminal = true;
        this.out.emit('tool.failed', this.env(call, at, pos), { error: { message: `The call was withdrawn before it ran: its message was ${why}`, code: 'cancelled' } });
      }
    }
  }

  /** Streamed input fragment of a call whose complete input is not known yet. */
  inputDelta(call: Call, delta: string, at: number | undefined, pos: InputPosition): void {
    if (!call.terminal && !call.inputFinal) this.out.emit('tool.input.delta', this.env(call, at, pos), { delta });
  }

  /** The call is running (tool_progress, bash_progress, waits). */
  progress(call: Call, body: { message?: string; outputDelta?: string; elapsedMs?: number }, at: number | undefined, pos: InputPosition): void {
    if (!call.terminal) this.out.emit('tool.progress', this.env(call, at, pos), body);
  }
}

/** The end of a background command's notification summary (2.1.332). */
const BACKGROUND_EXIT = /\(exit code (-?\d+)\)\s*$/;

/** Denial texts that name a person's answer (the rest are rules, modes and Claude's checks). */
const USER_DENIAL = /^The user doesn't want to|^User rejected tool use/;

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

/** `Command running in background with ID: <id>.` (2.1.332 Bash result text). */
function backgroundIdIn(content: unknown): string | undefined {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (typeof obj(b)?.text === 'string' ? String(obj(b)!.text) : '')).join('\n') : '';
  return /^Command running in background with ID: ([A-Za-z0-9_-]+)/.exec(text.slice(0, 200))?.[1];
}
