// NormalizedToolPart lifecycles → AG-UI 1.0 events. Per session (AG-UI thread): RUN_STARTED, then
// for each call TOOL_CALL_START, TOOL_CALL_ARGS (the whole input as JSON, once it is final) and
// TOOL_CALL_END (AG-UI: "arguments complete", so at running or at the outcome), then
// TOOL_CALL_RESULT; RUN_FINISHED at the end. A call whose children (metadata.parentId) appear
// while it runs opens a subagent lane: SUBAGENT_STARTED, the children with `subagentRunId`, and
// SUBAGENT_FINISHED/SUBAGENT_ERROR before the parent's result. What AG-UI has no field for goes
// under `metadata.toolnorm`; docs/outputs.md has the table.
import { outputText } from '../acp/content.js';
import type { NormalizedToolPart, ToolEvent } from '../contract/index.js';
import type { StreamEncoder, StreamEncoderFactory } from '../pipeline/encoder.js';
import type { AgUiEvent } from './types.js';

export const PROGRESS_ACTIVITY = 'toolnorm.progress';

/** How far a call has been sent. */
const Sent = { Started: 1, ArgsEnded: 2, Done: 3 } as const;
type Sent = (typeof Sent)[keyof typeof Sent];

interface Call { sent: Sent; title: string; lane?: string }
interface Thread {
  readonly id: string;
  readonly calls: Map<string, Call>;
  /** Subagent lanes open now: parent call id → its own lane. */
  readonly lanes: Map<string, string | undefined>;
}

const time = (at: number | string | undefined): { timestamp?: number } => (typeof at === 'number' && at > 0 ? { timestamp: Math.trunc(at) } : {});

/** The text of a result: AG-UI's TOOL_CALL_RESULT carries text only. */
export function resultContent(part: NormalizedToolPart): string {
  if (part.state === 'error') return part.error.message;
  if (part.state === 'complete') return outputText(part.output) ?? '';
  return '';
}

export const resultMessageId = (toolCallId: string): string => `${toolCallId}:result`;

export class AgUiEncoder implements StreamEncoder {
  private readonly threads = new Map<string, Thread>();

  constructor(private readonly emit: (e: AgUiEvent) => void) {}

  private thread(sessionId: string, at?: number): Thread {
    let t = this.threads.get(sessionId);
    if (!t) {
      t = { id: sessionId, calls: new Map(), lanes: new Map() };
      this.threads.set(sessionId, t);
      this.emit({ type: 'RUN_STARTED', threadId: sessionId, runId: sessionId, ...time(at) });
    }
    return t;
  }

  /** The lane a new call runs in: its parent's, opened on the first child seen while the parent runs. */
  private laneFor(t: Thread, part: NormalizedToolPart, at: number | undefined): string | undefined {
    const parentId = part.metadata?.parentId;
    if (typeof parentId !== 'string') return undefined;
    if (t.lanes.has(parentId)) return parentId;
    const parent = t.calls.get(parentId);
    if (!parent || parent.sent === Sent.Done) return undefined;
    t.lanes.set(parentId, parent.lane);
    this.emit({ type: 'SUBAGENT_STARTED', subagentRunId: parentId, name: parent.title, parentToolCallId: parentId, ...(parent.lane !== undefined ? { parentSubagentRunId: parent.lane } : {}), ...time(at) });
    return parentId;
  }

  private start(t: Thread, part: NormalizedToolPart, at: number | undefined): Call {
    const lane = this.laneFor(t, part, at);
    const call: Call = { sent: Sent.Started, title: part.title, ...(lane !== undefined ? { lane } : {}) };
    t.calls.set(part.id, call);
    const toolnorm: Record<string, unknown> = { kind: part.kind, title: part.title };
    // A parent AG-UI cannot show as a lane (not running here, or in another session) is still named.
    if (typeof part.metadata?.parentId === 'string' && lane === undefined) toolnorm.parentId = part.metadata.parentId;
    this.emit({ type: 'TOOL_CALL_START', toolCallId: part.id, toolCallName: part.name, ...this.inLane(call), ...time(at), metadata: { toolnorm } });
    return call;
  }

  private inLane(call: Call): { subagentRunId?: string } {
    return call.lane !== undefined ? { subagentRunId: call.lane } : {};
  }

  private endArgs(part: NormalizedToolPart, call: Call, at: number | undefined): void {
    if (call.sent >= Sent.ArgsEnded) return;
    this.emit({ type: 'TOOL_CALL_ARGS', toolCallId: part.id, delta: JSON.stringify(part.input ?? null), ...this.inLane(call) });
    this.emit({ type: 'TOOL_CALL_END', toolCallId: part.id, ...this.inLane(call), ...time(at) });
    call.sent = Sent.ArgsEnded;
  }

  private closeLane(t: Thread, part: NormalizedToolPart, at: number | undefined): void {
    if (!t.lanes.has(part.id)) return;
    t.lanes.delete(part.id);
    if (part.state === 'error') this.emit({ type: 'SUBAGENT_ERROR', subagentRunId: part.id, message: part.error.message, ...(part.error.code ? { code: part.error.code } : {}), ...time(at) });
    else this.emit({ type: 'SUBAGENT_FINISHED', subagentRunId: part.id, outcome: { type: 'success' }, ...time(at) });
  }

  private outcome(t: Thread, part: NormalizedToolPart, call: Call): void {
    const at = part.timing?.completedAt as number | undefined;
    this.endArgs(part, call, at);
    this.closeLane(t, part, at);
    const toolnorm: Record<string, unknown> = { state: part.state };
    if (part.timing) toolnorm.timing = part.timing;
    if (part.metadata) toolnorm.metadata = part.metadata;
    if (part.state === 'error') toolnorm.error = part.error;
    this.emit({ type: 'TOOL_CALL_RESULT', messageId: resultMessageId(part.id), toolCallId: part.id, content: resultContent(part), role: 'tool', ...this.inLane(call), ...time(at), metadata: { toolnorm } });
    call.sent = Sent.Done;
  }

  change(sessionId: string, e: ToolEvent, part: () => NormalizedToolPart): void {
    const t = this.thread(sessionId, e.at);
    let call = t.calls.get(e.partId);
    if (call?.sent === Sent.Done) return;
    if (!call) call = this.start(t, part(), e.at);
    switch (e.type) {
      case 'tool.progress': {
        if (call.sent === Sent.Started) this.endArgs(part(), call, e.at);
        if (e.message !== undefined || e.elapsedMs !== undefined) {
          const content: Record<string, unknown> = { toolCallId: e.partId };
          if (e.message !== undefined) content.message = e.message;
          if (e.elapsedMs !== undefined) content.elapsedMs = e.elapsedMs;
          this.emit({ type: 'ACTIVITY_SNAPSHOT', messageId: `${e.partId}:progress`, activityType: PROGRESS_ACTIVITY, content, replace: true, ...this.inLane(call), ...time(e.at) });
        }
        break;
      }
      case 'tool.completed':
      case 'tool.failed':
        this.outcome(t, part(), call);
        break;
    }
  }

  final(sessionId: string, part: NormalizedToolPart): void {
    const t = this.thread(sessionId, part.timing?.startedAt as number | undefined);
    let call = t.calls.get(part.id);
    if (!call) call = this.start(t, part, part.timing?.startedAt as number | undefined);
    if (call.sent !== Sent.Done) {
      if (part.state === 'complete' || part.state === 'error') this.outcome(t, part, call);
      else if (part.state === 'running') this.endArgs(part, call, undefined);
    }
    // Kept while its children may still come: the subagent lane needs the parent's state.
    if (call.sent === Sent.Done) t.calls.delete(part.id);
  }

  end(): void {
    for (const t of this.threads.values()) {
      const pending: string[] = [];
      for (const [id, call] of t.calls) {
        if (call.sent === Sent.Done) continue;
        pending.push(id);
        if (call.sent === Sent.Started) {
          this.emit({ type: 'TOOL_CALL_END', toolCallId: id, ...this.inLane(call) });
          call.sent = Sent.ArgsEnded;
        }
      }
      // Lanes of parents still open when the recording stopped: innermost first.
      for (const id of [...t.lanes.keys()].reverse()) this.emit({ type: 'SUBAGENT_ERROR', subagentRunId: id, message: 'the recording ended before the subagent call finished', code: 'incomplete' });
      t.lanes.clear();
      this.emit({ type: 'RUN_FINISHED', threadId: t.id, runId: t.id, outcome: { type: 'success', ...(pending.length ? { pendingToolCallIds: pending } : {}) } });
    }
    this.threads.clear();
  }
}

/** Pipeline encoder for `--to ag-ui`. */
export const agUiEncoder = (): StreamEncoderFactory => (sinks) => new AgUiEncoder((e) => sinks.output(e));

/** The AG-UI events of finished parts (e.g. from `collect`), in order. */
export function agUiEventsOf(sessions: Iterable<[string, readonly NormalizedToolPart[]]>): AgUiEvent[] {
  const out: AgUiEvent[] = [];
  const enc = new AgUiEncoder((e) => out.push(e));
  for (const [sid, parts] of sessions) for (const p of parts) enc.final(sid, p);
  enc.end();
  return out;
}
