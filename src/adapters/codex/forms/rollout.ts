// Session rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
// Calls are Responses API items paired by `call_id` (`function_call` → `function_call_output`,
// `custom_tool_call` → `custom_tool_call_output`, `local_shell_call`, `web_search_call`). Codex
// also records the same calls as events (0.163 `item_completed`, older `*_begin`/`*_end`): these
// refine the part the call started (title from parsed commands, exit code, duration) and may end
// it; the second record of an ended call is the same call, so it is not applied again.
import { timeField } from '../../shared/time.js';
import type { InputPosition } from '../../types.js';
import { BoundedMap } from '../../../collections/bounded.js';
import { MAX_OPEN_CALLS } from '../tracker.js';
import { readCallOutput } from '../output.js';
import { callArgs, callOutcome, callRef, callView, type CallRef } from '../tools.js';
import { get, int, nonEmpty, obj, pathOf, statusOf, text, type Obj } from '../fields.js';
import { interruptGroup, observeItem, finishItem, type CodexContext, type Phase } from '../observe.js';

interface PendingCall {
  ref: CallRef;
  args: Obj;
}

const completedOrStarted = (payload: Obj): Phase => {
  const s = statusOf(payload);
  return s === undefined || s === 'completed' || s === 'failed' || s === 'incomplete' ? 'completed' : 'started';
};

/** Older rollouts persist core events: each becomes an item of the table, keyed by its call_id. */
const EVENTS: Record<string, { phase: Phase; item: (p: Obj) => Obj }> = {
  exec_command_begin: { phase: 'started', item: (p) => ({ ...p, type: 'commandExecution', status: 'inProgress' }) },
  exec_command_end: {
    phase: 'completed',
    item: (p) => {
      const exit = int(get(p, 'exitCode'));
      const output = text(get(p, 'aggregatedOutput')) ?? [text(p.stdout), text(p.stderr)].filter(Boolean).join('');
      return { ...p, type: 'commandExecution', aggregated_output: output, status: p.status ?? (exit === undefined || exit === 0 ? 'completed' : 'failed') };
    },
  },
  patch_apply_begin: { phase: 'started', item: (p) => ({ ...p, type: 'fileChange', status: 'inProgress' }) },
  patch_apply_end: { phase: 'completed', item: (p) => ({ ...p, type: 'fileChange', status: p.status ?? (p.success === false ? 'failed' : 'completed') }) },
  mcp_tool_call_begin: { phase: 'started', item: (p) => ({ ...obj(p.invocation), ...p, type: 'mcpToolCall', status: 'inProgress' }) },
  mcp_tool_call_end: {
    phase: 'completed',
    item: (p) => ({ ...obj(p.invocation), ...p, type: 'mcpToolCall', status: obj(p.result)?.Err !== undefined ? 'failed' : 'completed' }),
  },
  web_search_begin: { phase: 'started', item: (p) => ({ ...p, type: 'webSearch', query: '' }) },
  web_search_end: { phase: 'completed', item: (p) => ({ ...p, type: 'webSearch' }) },
  view_image_tool_call: { phase: 'completed', item: (p) => ({ ...p, type: 'imageView' }) },
};

export class RolloutForm {
  private sessionId: string | undefined;
  private cwd: string | undefined;
  /** Calls started and waiting for their output: the last 10k–20k (the tracker caps open calls at MAX_OPEN_CALLS too). */
  private readonly calls = new BoundedMap<string, PendingCall>(MAX_OPEN_CALLS);
  /** Calls already ended by another record of them: their output here is the same result (the last 10k–20k). */
  private readonly endedByRecord = new BoundedMap<string, true>(MAX_OPEN_CALLS);

  constructor(private readonly c: CodexContext, private readonly fallbackSession: () => string, private readonly defaultCwd: () => string | undefined) {}

  // Consecutive lines often share a timestamp: parse each distinct one once.
  private lastStamp: unknown;
  private lastMs = 0;

  private timeOf(stamp: unknown, pos: InputPosition): number | undefined {
    if (stamp !== this.lastStamp || typeof stamp !== 'string') {
      const ms = timeField(this.c.out, 'timestamp', stamp, 'auto', pos);
      if (ms === undefined) return this.c.now();
      this.lastStamp = stamp;
      this.lastMs = ms;
    }
    return this.lastMs;
  }

  private session(): string {
    return this.sessionId ?? this.fallbackSession();
  }

  private ctx(): { cwd?: string } {
    const cwd = this.cwd ?? this.defaultCwd();
    return cwd ? { cwd } : {};
  }

  line(o: Obj, raw: string, pos: InputPosition): void {
    const payload = obj(o.payload);
    if (!payload) {
      this.c.out.malformed(raw, `rollout ${String(o.type)} line without a payload object`, pos);
      return;
    }
    const at = this.timeOf(o.timestamp, pos);
    switch (o.type) {
      case 'session_meta': {
        // Concatenated rollouts: each session_meta starts its own session (and cwd).
        const id = nonEmpty(payload.id) ?? nonEmpty(payload.session_id);
        if (id && id !== this.sessionId) {
          this.sessionId = id;
          this.cwd = undefined;
        }
        this.cwd = pathOf(payload.cwd) ?? this.cwd;
        return;
      }
      case 'turn_context':
        this.cwd = pathOf(payload.cwd) ?? this.cwd;
        return;
      case 'response_item':
        return this.responseItem(payload, at, pos);
      case 'event_msg':
        return this.event(payload, at, pos);
      default:
        return;
    }
  }

  private startCall(callId: string, ref: CallRef, args: Obj, rawType: string, at: number | undefined, pos: InputPosition): void {
    const session = this.session();
    if (this.c.tracker.show({ sessionId: session, partId: callId, at, pos }, session, callView(ref, args, this.ctx(), rawType))) {
      this.calls.set(callId, { ref, args });
      const problem = ref.rule.problem?.(args, this.ctx());
      if (problem) this.c.out.diagnostic('malformed_patch', problem, pos, { partId: callId });
    } else {
      // The call already ended in another record of the same session (e.g. the app-server trace of
      // this thread, read before its rollout): its output here is the same result.
      this.endedByRecord.set(callId, true);
    }
  }

  private endCall(callId: string | undefined, output: unknown, at: number | undefined, pos: InputPosition, rawType: string): void {
    if (!callId) {
      this.c.out.diagnostic('orphan_result', `${rawType} without a call_id; ignored`, pos);
      return;
    }
    const session = this.session();
    const call = this.calls.get(callId);
    this.calls.delete(callId);
    const state = this.c.tracker.state(session, callId);
    if (state === 'evicted') return this.c.tracker.reportLate({ sessionId: session, partId: callId, at, pos }, rawType);
    // Ended already by the event record of the same call (0.163 writes item_completed first).
    if (this.endedByRecord.delete(callId)) return;
    if (state === 'done') {
      this.c.out.diagnostic('late_event', `${rawType} for call ${callId}, which already ended (e.g. its turn was aborted); ignored`, pos, { partId: callId });
      return;
    }
    if (!call || state === 'none') {
      this.c.out.diagnostic('orphan_result', `${rawType} for call ${callId}, which was never announced in this rollout; ignored`, pos, { partId: callId });
      return;
    }
    finishItem(this.c, { sessionId: session, partId: callId, at, pos }, callOutcome(call.ref, call.args, readCallOutput(output), this.ctx()));
  }

  private responseItem(p: Obj, at: number | undefined, pos: InputPosition): void {
    const type = text(p.type);
    const callId = nonEmpty(p.call_id) ?? nonEmpty(p.callId) ?? nonEmpty(p.id);
    switch (type) {
      case 'function_call':
      case 'custom_tool_call': {
        const name = nonEmpty(p.name);
        if (!callId || !name) {
          this.c.out.diagnostic('malformed_event', `${type} without a call_id or name; ignored`, pos);
          return;
        }
        const custom = type === 'custom_tool_call';
        this.startCall(callId, callRef(name, nonEmpty(p.namespace)), callArgs(custom ? p.input : p.arguments, custom), type, at, pos);
        return;
      }
      case 'local_shell_call': {
        const action = obj(p.action) ?? {};
        if (!callId) {
          this.c.out.diagnostic('malformed_event', 'local_shell_call without a call_id or id; ignored', pos);
          return;
        }
        const args: Obj = { command: action.command ?? [], working_directory: action.working_directory ?? action.workingDirectory };
        if (action.timeout_ms !== undefined) args.timeout_ms = action.timeout_ms;
        this.startCall(callId, callRef('local_shell'), args, type, at, pos);
        return;
      }
      case 'tool_search_call': {
        if (!callId) return;
        const args = obj(callArgs(p.arguments, false)) ?? {};
        this.startCall(callId, callRef('tool_search'), { ...args, ...(p.query !== undefined ? { query: p.query } : {}) }, type, at, pos);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.endCall(nonEmpty(p.call_id) ?? nonEmpty(p.callId), p.output, at, pos, type);
      case 'tool_search_output':
        return this.endCall(nonEmpty(p.call_id) ?? nonEmpty(p.callId), p.output ?? (p.tools !== undefined ? JSON.stringify(p.tools) : ''), at, pos, type);
      case 'web_search_call':
      case 'image_generation_call': {
        const id = nonEmpty(p.id) ?? `${type}-${pos.file ? `${pos.file}:` : ''}${pos.line}`;
        if (this.endedByRecord.delete(id)) return;
        const session = this.session();
        observeItem(this.c, { sessionId: session, group: session, partId: id, item: { ...p, id }, phase: completedOrStarted(p), at, pos, ctx: this.ctx() });
        return;
      }
      default:
        return;
    }
  }

  private event(p: Obj, at: number | undefined, pos: InputPosition): void {
    const type = text(p.type) ?? '';
    const session = this.session();
    if (type === 'item_completed' || type === 'item_started') {
      const item = obj(p.item);
      const id = item && nonEmpty(item.id);
      if (!item || !id) return;
      const ended = timeField(this.c.out, 'payload.completedAtMs', get(p, 'completedAtMs'), 'ms', pos);
      const started = timeField(this.c.out, 'payload.startedAtMs', get(p, 'startedAtMs'), 'ms', pos);
      const phase: Phase = type === 'item_completed' ? 'completed' : 'started';
      this.observeRecord(id, item, phase, (phase === 'completed' ? ended : started) ?? at, started, pos);
      return;
    }
    const ev = EVENTS[type];
    if (ev) {
      const id = nonEmpty(p.call_id) ?? nonEmpty(p.callId);
      if (id) this.observeRecord(id, { ...ev.item(p), id }, ev.phase, at, undefined, pos);
      return;
    }
    if (type === 'turn_aborted') {
      const reason = nonEmpty(p.reason) ?? 'interrupted';
      for (const open of this.c.tracker.openIn(session)) this.calls.delete(open.partId);
      interruptGroup(this.c, session, `the turn was ${reason === 'interrupted' ? 'interrupted' : `aborted (${reason})`}`, at, pos);
    }
  }

  /** An event record of a call: refines the part its response item started, or starts one. */
  private observeRecord(id: string, item: Obj, phase: Phase, at: number | undefined, startedAt: number | undefined, pos: InputPosition): void {
    const session = this.session();
    const refineOnly = this.calls.has(id) && this.c.tracker.state(session, id) === 'open';
    const wasDone = this.c.tracker.state(session, id) === 'done';
    observeItem(this.c, {
      sessionId: session,
      group: session,
      partId: id,
      item,
      phase,
      at,
      ...(startedAt !== undefined ? { startedAt } : {}),
      pos,
      ctx: this.ctx(),
      refineOnly,
    });
    if (phase === 'completed' && !wasDone) {
      this.calls.delete(id);
      this.endedByRecord.set(id, true);
    }
  }
}
