// NormalizedToolPart lifecycles → AG-UI 1.0 events. Each session is a thread. One run is open at a
// time, as AG-UI's verifier requires of a stream: a run starts at the first event of its session
// and ends when the input moves to another session (or ends), so that every event between a
// RUN_STARTED and its RUN_FINISHED belongs to that thread. The thread's next events open its next
// run (`runId` "<session>#2", …); a call still running at a switch is named pending and ends in a
// later run of its thread. Per call: TOOL_CALL_START, TOOL_CALL_ARGS (the whole input as JSON, once
// it is final) and TOOL_CALL_END (AG-UI: "arguments complete", so at running or at the outcome),
// then TOOL_CALL_RESULT. A call whose children (metadata.parentId) appear while it runs opens a
// subagent lane: SUBAGENT_STARTED, the children with `subagentRunId`, and SUBAGENT_FINISHED /
// SUBAGENT_ERROR before the parent's result. A run in which a call failed ends with a
// MESSAGES_SNAPSHOT that sets the failed tool messages' `error`. The typed substance AG-UI has no
// event for is activity: a call's approval (`toolnorm.approval`, one per call, replaced as it is
// answered) and the thread's plan after a todo call (`toolnorm.plan`, one per thread). What AG-UI
// has no field for goes under `metadata.toolnorm`; docs/outputs.md has the table.
import type { NormalizedToolPart, ToolEvent } from '../contract/index.js';
import type { StreamEncoder, StreamEncoderFactory } from '../pipeline/encoder.js';
import { resultContent } from './content.js';
import { nextPlan, type SessionPlan } from '../acp/plan.js';
import { EventType, type AgUiEvent, type AgUiMessage, type AgUiOptions, type AgUiToolCall } from './types.js';

export { resultContent };
export const PROGRESS_ACTIVITY = 'toolnorm.progress';
export const APPROVAL_ACTIVITY = 'toolnorm.approval';
export const PLAN_ACTIVITY = 'toolnorm.plan';

/** How far a call has been sent. */
const Sent = { Started: 1, ArgsEnded: 2, Done: 3 } as const;
type Sent = (typeof Sent)[keyof typeof Sent];

interface Call {
  sent: Sent;
  name: string;
  title: string;
  lane?: string;
  /** Its TOOL_CALL_END went out when an earlier run ended: START it again before its arguments. */
  reopen?: boolean;
  startMeta: { toolnorm: Record<string, unknown> };
  /** JSON of the approval last sent as activity. */
  approval?: string;
}
interface Lane { name: string; outer?: string }
interface Thread {
  readonly id: string;
  readonly calls: Map<string, Call>;
  /** Subagent lanes open now, outermost first: parent call id → lane. */
  readonly lanes: Map<string, Lane>;
  runs: number;
  runId: string;
  /** A call failed in the current run: restate the messages before it ends. */
  failed: boolean;
  /** The messages a client has built for this thread, call by call (with `toolMessageErrors`). */
  readonly history?: Map<string, { assistant: AgUiMessage & { role: 'assistant' }; tool?: AgUiMessage }>;
  /** The thread's plan, as its todo calls wrote it. */
  plan?: SessionPlan;
}

const time = (at: number | string | undefined): { timestamp?: number } => (typeof at === 'number' && at > 0 ? { timestamp: Math.trunc(at) } : {});

export const resultMessageId = (toolCallId: string): string => `${toolCallId}:result`;
/** The run ids of a thread: the session id, then "<session>#2", "#3", … */
export const runIdOf = (sessionId: string, n: number): string => (n === 1 ? sessionId : `${sessionId}#${n}`);

export class AgUiEncoder implements StreamEncoder {
  private readonly threads = new Map<string, Thread>();
  /** The thread whose run is open. */
  private current: Thread | undefined;
  private readonly keepHistory: boolean;

  constructor(private readonly emit: (e: AgUiEvent) => void, options: AgUiOptions = {}) {
    this.keepHistory = options.toolMessageErrors !== false;
  }

  private thread(sessionId: string): Thread {
    let t = this.threads.get(sessionId);
    if (!t) {
      t = { id: sessionId, calls: new Map(), lanes: new Map(), runs: 0, runId: sessionId, failed: false, ...(this.keepHistory ? { history: new Map() } : {}) };
      this.threads.set(sessionId, t);
    }
    return t;
  }

  /** Opens the thread's run, ending another thread's run first; called only when there is something to send. */
  private enter(t: Thread, at: number | undefined): void {
    if (this.current === t) return;
    if (this.current) this.finishRun(this.current, 'suspended');
    this.startRun(t, at);
  }

  private startRun(t: Thread, at: number | undefined): void {
    t.runs++;
    t.runId = runIdOf(t.id, t.runs);
    t.failed = false;
    this.current = t;
    this.emit({ type: EventType.RUN_STARTED, threadId: t.id, runId: t.runId, ...time(at) });
    // Lanes suspended at the end of the previous run go on, outermost first.
    for (const [id, lane] of t.lanes) this.emit({ type: EventType.SUBAGENT_STARTED, subagentRunId: id, name: lane.name, parentToolCallId: id, ...(lane.outer !== undefined ? { parentSubagentRunId: lane.outer } : {}), ...time(at) });
  }

  /**
   * Ends the thread's run: arguments of open calls end, open lanes end (suspended, or in error at
   * the end of input), failed calls' messages are restated, and open calls are named pending.
   */
  private finishRun(t: Thread, why: 'suspended' | 'end'): void {
    const pending: string[] = [];
    for (const [id, call] of t.calls) {
      if (call.sent === Sent.Done) continue;
      pending.push(id);
      if (call.sent === Sent.Started && !call.reopen) {
        this.emit({ type: EventType.TOOL_CALL_END, toolCallId: id, ...this.inLane(call) });
        if (why === 'suspended') call.reopen = true;
        else call.sent = Sent.ArgsEnded;
      }
    }
    // Innermost first.
    for (const id of [...t.lanes.keys()].reverse()) {
      if (why === 'suspended') this.emit({ type: EventType.SUBAGENT_FINISHED, subagentRunId: id, outcome: { type: 'suspended' } });
      else this.emit({ type: EventType.SUBAGENT_ERROR, subagentRunId: id, message: 'the recording ended before the subagent call finished', code: 'incomplete' });
    }
    if (why === 'end') t.lanes.clear();
    if (t.failed && t.history) this.emit({ type: EventType.MESSAGES_SNAPSHOT, messages: [...t.history.values()].flatMap((h) => (h.tool ? [h.assistant, h.tool] : [h.assistant])) });
    this.emit({ type: EventType.RUN_FINISHED, threadId: t.id, runId: t.runId, outcome: { type: 'success', ...(pending.length ? { pendingToolCallIds: pending } : {}) } });
    if (this.current === t) this.current = undefined;
  }

  /** The lane a new call runs in: its parent's, opened on the first child seen while the parent runs. */
  private laneFor(t: Thread, part: NormalizedToolPart, at: number | undefined): string | undefined {
    const parentId = part.metadata?.parentId;
    if (typeof parentId !== 'string') return undefined;
    if (t.lanes.has(parentId)) return parentId;
    const parent = t.calls.get(parentId);
    if (!parent || parent.sent === Sent.Done) return undefined;
    t.lanes.set(parentId, { name: parent.title, ...(parent.lane !== undefined ? { outer: parent.lane } : {}) });
    this.emit({ type: EventType.SUBAGENT_STARTED, subagentRunId: parentId, name: parent.title, parentToolCallId: parentId, ...(parent.lane !== undefined ? { parentSubagentRunId: parent.lane } : {}), ...time(at) });
    return parentId;
  }

  private start(t: Thread, part: NormalizedToolPart, at: number | undefined): Call {
    const lane = this.laneFor(t, part, at);
    const toolnorm: Record<string, unknown> = { kind: part.kind, title: part.title };
    // A parent AG-UI cannot show as a lane (not running here, or in another session) is still named.
    if (typeof part.metadata?.parentId === 'string' && lane === undefined) toolnorm.parentId = part.metadata.parentId;
    const call: Call = { sent: Sent.Started, name: part.name, title: part.title, startMeta: { toolnorm }, ...(lane !== undefined ? { lane } : {}) };
    t.calls.set(part.id, call);
    this.emit({ type: EventType.TOOL_CALL_START, toolCallId: part.id, toolCallName: part.name, ...this.inLane(call), ...time(at), metadata: call.startMeta });
    // The assistant message a client makes for a START without parentMessageId: id = the call's.
    const toolCall: AgUiToolCall = { id: part.id, type: 'function', function: { name: part.name, arguments: '' }, metadata: call.startMeta };
    t.history?.set(part.id, { assistant: { id: part.id, role: 'assistant', toolCalls: [toolCall], ...this.inLane(call) } });
    return call;
  }

  /** A call whose END went out in an earlier run starts again in this one (clients apply START idempotently). */
  private resume(part: NormalizedToolPart, call: Call, at: number | undefined): void {
    if (!call.reopen) return;
    call.reopen = false;
    this.emit({ type: EventType.TOOL_CALL_START, toolCallId: part.id, toolCallName: call.name, ...this.inLane(call), ...time(at), metadata: call.startMeta });
  }

  private inLane(call: Call): { subagentRunId?: string } {
    return call.lane !== undefined ? { subagentRunId: call.lane } : {};
  }

  private endArgs(t: Thread, part: NormalizedToolPart, call: Call, at: number | undefined): void {
    if (call.sent >= Sent.ArgsEnded) return;
    this.resume(part, call, at);
    const delta = JSON.stringify(part.input ?? null);
    this.emit({ type: EventType.TOOL_CALL_ARGS, toolCallId: part.id, delta, ...this.inLane(call) });
    this.emit({ type: EventType.TOOL_CALL_END, toolCallId: part.id, ...this.inLane(call), ...time(at) });
    const h = t.history?.get(part.id);
    if (h) h.assistant.toolCalls[0]!.function.arguments = delta;
    call.sent = Sent.ArgsEnded;
  }

  private closeLane(t: Thread, part: NormalizedToolPart, at: number | undefined): void {
    if (!t.lanes.has(part.id)) return;
    t.lanes.delete(part.id);
    if (part.state === 'error') this.emit({ type: EventType.SUBAGENT_ERROR, subagentRunId: part.id, message: part.error.message, ...(part.error.code ? { code: part.error.code } : {}), ...time(at) });
    else this.emit({ type: EventType.SUBAGENT_FINISHED, subagentRunId: part.id, outcome: { type: 'success' }, ...time(at) });
  }

  /** The call's approval as activity, whenever it changes (a request, then its answer). */
  private approvalActivity(part: NormalizedToolPart, call: Call, at: number | undefined): void {
    const approval = part.metadata?.approval;
    if (!approval) return;
    const json = JSON.stringify(approval);
    if (json === call.approval) return;
    call.approval = json;
    this.emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId: `${part.id}:approval`, activityType: APPROVAL_ACTIVITY, content: { toolCallId: part.id, ...approval }, replace: true, ...this.inLane(call), ...time(at) });
  }

  /** The thread's whole plan as activity after a call that wrote one (a failed call wrote none). */
  private planActivity(t: Thread, part: NormalizedToolPart, call: Call, at: number | undefined): void {
    const plan = part.metadata?.plan;
    if (!plan || part.state === 'error') return;
    const next = nextPlan(t.plan, part.id, plan);
    if (!next) return;
    const json = JSON.stringify([next.entries, plan.explanation]);
    t.plan = { ...next, sent: json };
    if (json === next.sent) return;
    const content = { toolCallId: part.id, entries: next.entries, ...(plan.explanation ? { explanation: plan.explanation } : {}) };
    this.emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId: `${t.id}:plan`, activityType: PLAN_ACTIVITY, content, replace: true, ...this.inLane(call), ...time(at) });
  }

  private outcome(t: Thread, part: NormalizedToolPart, call: Call): void {
    const at = part.timing?.completedAt as number | undefined;
    this.endArgs(t, part, call, at);
    this.closeLane(t, part, at);
    const toolnorm: Record<string, unknown> = { state: part.state };
    if (part.timing) toolnorm.timing = part.timing;
    if (part.metadata) toolnorm.metadata = part.metadata;
    if (part.state === 'error') toolnorm.error = part.error;
    const content = resultContent(part);
    this.approvalActivity(part, call, at);
    this.emit({ type: EventType.TOOL_CALL_RESULT, messageId: resultMessageId(part.id), toolCallId: part.id, content, role: 'tool', ...this.inLane(call), ...time(at), metadata: { toolnorm } });
    this.planActivity(t, part, call, at);
    const h = t.history?.get(part.id);
    if (h) h.tool = { id: resultMessageId(part.id), role: 'tool', toolCallId: part.id, content, ...this.inLane(call), metadata: { toolnorm }, ...(part.state === 'error' ? { error: part.error.message } : {}) };
    if (part.state === 'error') t.failed = true;
    call.sent = Sent.Done;
  }

  change(sessionId: string, e: ToolEvent, part: () => NormalizedToolPart): void {
    const t = this.thread(sessionId);
    let call = t.calls.get(e.partId);
    if (call?.sent === Sent.Done) return;
    // Only these send anything now (the others change a part whose later events send it).
    const sends = !call || e.type === 'tool.completed' || e.type === 'tool.failed' || e.type === 'tool.approval.requested' || e.type === 'tool.approval.resolved' || (e.type === 'tool.progress' && (call.sent === Sent.Started || e.message !== undefined || e.elapsedMs !== undefined));
    if (!sends) return;
    this.enter(t, e.at);
    if (!call) call = this.start(t, part(), e.at);
    switch (e.type) {
      case 'tool.progress': {
        if (call.sent === Sent.Started) this.endArgs(t, part(), call, e.at);
        if (e.message !== undefined || e.elapsedMs !== undefined) {
          const content: Record<string, unknown> = { toolCallId: e.partId };
          if (e.message !== undefined) content.message = e.message;
          if (e.elapsedMs !== undefined) content.elapsedMs = e.elapsedMs;
          this.emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId: `${e.partId}:progress`, activityType: PROGRESS_ACTIVITY, content, replace: true, ...this.inLane(call), ...time(e.at) });
        }
        break;
      }
      case 'tool.completed':
      case 'tool.failed':
        this.outcome(t, part(), call);
        break;
      case 'tool.approval.requested':
      case 'tool.approval.resolved':
        this.approvalActivity(part(), call, e.at);
        break;
    }
  }

  final(sessionId: string, part: NormalizedToolPart): void {
    const t = this.thread(sessionId);
    let call = t.calls.get(part.id);
    const at = part.timing?.startedAt as number | undefined;
    // Nothing to send for a call already done, or one whose arguments ended and that is still running.
    const sends = !call || (call.sent !== Sent.Done && (part.state === 'complete' || part.state === 'error' || (part.state === 'running' && call.sent === Sent.Started) || (part.metadata?.approval !== undefined && JSON.stringify(part.metadata.approval) !== call.approval)));
    if (sends) this.enter(t, at);
    if (!call) call = this.start(t, part, at);
    if (sends && call.sent !== Sent.Done) {
      if (part.state === 'complete' || part.state === 'error') this.outcome(t, part, call);
      else {
        if (part.state === 'running') this.endArgs(t, part, call, undefined);
        this.approvalActivity(part, call, undefined);
      }
    }
    // Kept while its children may still come: the subagent lane needs the parent's state.
    if (call.sent === Sent.Done) t.calls.delete(part.id);
  }

  end(): void {
    if (this.current) this.finishRun(this.current, 'end');
    this.threads.clear();
  }
}

/** Pipeline encoder for `--to ag-ui`. */
export const agUiEncoder = (options: AgUiOptions = {}): StreamEncoderFactory => (sinks) => new AgUiEncoder((e) => sinks.output(e), options);

/** The AG-UI events of finished parts (e.g. from `collect`), in order. */
export function agUiEventsOf(sessions: Iterable<[string, readonly NormalizedToolPart[]]>, options: AgUiOptions = {}): AgUiEvent[] {
  const out: AgUiEvent[] = [];
  const enc = new AgUiEncoder((e) => out.push(e), options);
  for (const [sid, parts] of sessions) for (const p of parts) enc.final(sid, p);
  enc.end();
  return out;
}
