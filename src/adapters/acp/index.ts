// `--from acp`: ACP session/update traffic (JSON-RPC lines or bare params) as a fourth input
// provider. Each frame is merged like a client would, and the change in the decoded part becomes
// ToolEvents, so ACP input goes through the same reducer as every other provider.
import { issuesOfNormalizedToolPart, type NormalizedToolPart, type ToolApproval, type ToolMetadata } from '../../contract/index.js';
import type { AdapterDefinition, InputPosition } from '../types.js';
import { EventEmitterFor, parseObjectLine } from '../shared/emit.js';
import { BoundedMap, BoundedSet } from '../../collections/bounded.js';
import { adoptTerminals, appendContent, applyTerminalUpdate, isToolUpdate, mergeFrame, partOf, updateParamsOf, versionOf, type MergedCall } from '../../acp/decode.js';
import { ms, nonEmpty, obj, type Obj } from '../../fields.js';
import { timeField } from '../shared/time.js';
import type { TerminalState } from './extensions.js';
import { planOf } from './plans.js';
import { isAcpTraffic, sniffAcp } from './sniff.js';

/** Terminal calls kept for late frames (e.g. a PostToolUse hook update after the result). */
const TERMINAL_KEEP = 10_000;
/** Calls and permission requests remembered: the most recent 10k–20k each (docs/robustness.md). */
export const ACP_CALLS_KEPT = 10_000;
const PERMISSIONS_KEPT = 10_000;
/** Distinct unknown session-update kinds reported by name. */
const UNKNOWN_KINDS = 100;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** One call as the adapter knows it: the merged frames, and the part its events describe so far. */
interface Call {
  merged: MergedCall;
  part: NormalizedToolPart;
  /** Its `_meta.toolnorm` did not describe a valid part: read as another agent's call. */
  foreign?: true;
}

/** ACP permission option kinds that refuse (`reject_once`, `reject_always`). */
const isReject = (kind: unknown) => typeof kind === 'string' && kind.startsWith('reject');

/** A permission request as a pending approval: the options offered, v2's title and description. */
function requestedApproval(params: Obj, options: Obj[]): ToolApproval {
  const offered = options.flatMap((o) => {
    const id = nonEmpty(o.optionId);
    if (!id) return [];
    return [{ id, ...(typeof o.name === 'string' ? { name: o.name } : {}), ...(typeof o.kind === 'string' ? { kind: o.kind } : {}) }];
  });
  const reason = nonEmpty(params.description);
  const title = nonEmpty(params.title);
  return { state: 'pending', source: 'user', ...(reason ? { reason } : {}), ...(offered.length ? { options: offered } : {}), ...(title ? { detail: { title } } : {}) };
}

/**
 * The client's answer: an `allow_*` option approves, a `reject_*` one denies, `cancelled` (the
 * turn was cancelled, or the prompt dismissed) leaves it unanswered. ACP says an option that was
 * not offered, an outcome it does not define, or an error answer is no approval: denied, with the
 * reason in `problem`.
 */
function answerOf(m: Obj, options: Obj[]): { approval: ToolApproval; problem?: string } {
  const outcome = obj(obj(m.result)?.outcome);
  if (outcome?.outcome === 'cancelled') return { approval: { state: 'expired', source: 'user' } };
  const optionId = nonEmpty(outcome?.optionId);
  const withId = optionId ? { optionId } : {};
  if (outcome?.outcome !== 'selected') {
    const problem = 'error' in m ? 'is a JSON-RPC error' : `has outcome ${JSON.stringify(outcome?.outcome ?? null)}, which ACP does not define`;
    return { approval: { state: 'denied', source: 'user', ...withId, detail: { outcome: outcome ?? obj(m.error) ?? null } }, problem };
  }
  const chosen = options.find((o) => o.optionId === optionId);
  if (!chosen) return { approval: { state: 'denied', source: 'user', ...withId }, problem: `names option ${JSON.stringify(outcome.optionId ?? null)}, which the request did not offer` };
  return { approval: { state: isReject(chosen.kind) ? 'denied' : 'approved', source: 'user', ...withId } };
}

export const acpAdapter: AdapterDefinition = {
  id: 'acp',
  provider: 'acp',
  description: 'ACP v1 and v2 session/update notifications (JSON-RPC lines or bare params)',
  eventsChecked: true,
  sniff: sniffAcp,
  create(sink, options) {
    const out = new EventEmitterFor(sink, 'acp');
    // Without an explicit clock, a frame with no time of its own has none (never invented).
    const clock: () => number | undefined = options.clock ?? (() => undefined);
    /** Keys of calls forgotten while still open: a later frame for one is late, not "before its tool_call". */
    const forgotten = new BoundedSet<string>(ACP_CALLS_KEPT * 10);
    const calls = new BoundedMap<string, Call>(ACP_CALLS_KEPT, (key, call) => {
      if (call.part.state === 'complete' || call.part.state === 'error') return;
      forgotten.add(key);
      out.diagnostic('evicted_call', `call ${call.part.id} of session ${call.merged.sessionId} was still open when more than ${ACP_CALLS_KEPT} newer calls had come; it is forgotten, its part keeps its last known state, and a frame for it later is reported as late`, undefined, { partId: call.part.id });
    });
    const terminal: string[] = [];
    /** JSON-RPC id of a permission request → the call it is about. */
    const permissions = new BoundedMap<string | number, { key: string; options: Obj[] }>(PERMISSIONS_KEPT);
    /** Call key → the id of its permission request still waiting for an answer. */
    const awaiting = new BoundedMap<string, string | number>(PERMISSIONS_KEPT);

    const emitTransition = (key: string, sessionId: string, prev: NormalizedToolPart | undefined, part: NormalizedToolPart, pos: InputPosition) => {
      const env = (at: number | undefined) => ({ sessionId, partId: part.id, at, pos });
      // The times `_meta.toolnorm.timing` carries (epoch ms or, as the seed allows, a string), by the one rule.
      const startedAt = timeField(out, '_meta.toolnorm.timing.startedAt', part.timing?.startedAt, 'ms', pos, part.id) ?? clock();
      const endedAt = timeField(out, '_meta.toolnorm.timing.completedAt', part.timing?.completedAt, 'ms', pos, part.id) ?? clock();
      const elapsed = part.timing?.elapsedMs;
      if (!prev) {
        out.emit('tool.started', env(startedAt), { name: part.name, kind: part.kind, title: part.title, input: part.input, ...(part.metadata ? { metadata: part.metadata } : {}) });
      } else {
        const body: Obj = {};
        if (prev.name !== part.name) body.name = part.name;
        if (prev.kind !== part.kind) body.kind = part.kind;
        if (prev.title !== part.title) body.title = part.title;
        if (!same(prev.input, part.input)) body.input = part.input;
        if (!same(prev.metadata, part.metadata) && part.metadata) body.metadata = part.metadata;
        if (Object.keys(body).length) out.emit('tool.updated', env(clock()), body as never);
      }
      const before = prev?.state ?? 'started';
      if (part.state === before && prev) return;
      if (part.state === 'running') out.emit('tool.progress', env(clock()), elapsed !== undefined ? { elapsedMs: elapsed } : {});
      else if (part.state === 'complete') out.emit('tool.completed', env(endedAt), { ...('output' in part ? { output: part.output } : {}), ...(elapsed !== undefined ? { elapsedMs: elapsed } : {}) });
      else if (part.state === 'error') out.emit('tool.failed', env(endedAt), { error: part.error, ...(elapsed !== undefined ? { elapsedMs: elapsed } : {}) });
      if (part.state === 'complete' || part.state === 'error') {
        terminal.push(key);
        while (terminal.length > TERMINAL_KEEP) calls.delete(terminal.shift()!);
      }
    };

    /** The stream's ACP version: from `initialize`, else from a frame only one version has. */
    let version: 1 | 2 | undefined;
    const v2 = () => version === 2;
    /** Child session → its parent session and the call that spawned it (native subagent sessions). */
    const children = new BoundedMap<string, { parent: string; callId?: string }>(ACP_CALLS_KEPT);
    /** Parent session → its child sessions, for looking a call id up across the link. */
    const childrenOf = new BoundedMap<string, Set<string>>(ACP_CALLS_KEPT);
    /** Display terminal id → the call showing it, per session (`session\0terminal`). */
    const terminalOwner = new BoundedMap<string, string>(ACP_CALLS_KEPT);
    /** v2 terminal updates that came before the call that shows the terminal. */
    const pendingTerminal = new BoundedMap<string, TerminalState>(ACP_CALLS_KEPT);
    /** Plans by `session\0planId`. */
    const plans = new BoundedMap<string, NormalizedToolPart>(ACP_CALLS_KEPT);
    /** Session update kinds no table knows, counted and reported at the end (at most UNKNOWN_KINDS kinds by name). */
    const unknownUpdates = new Map<string, { count: number; pos: InputPosition }>();
    let lastPos: InputPosition | undefined;
    const callKey = (sessionId: string, callId: string) => `${sessionId}\u0000${callId}`;

    /**
     * The key a call's frames merge under. The agent says two session ids are one when one is a
     * child session of the other: a call known under the linked session (claude-agent-acp routes a
     * launch's Agent call to the child that owns it) is the same call, not a new one.
     */
    const resolveKey = (sessionId: string, callId: string): string => {
      const own = callKey(sessionId, callId);
      if (calls.has(own)) return own;
      const link = children.get(sessionId);
      if (link && calls.has(callKey(link.parent, callId))) return callKey(link.parent, callId);
      for (const child of childrenOf.get(sessionId) ?? []) if (calls.has(callKey(child, callId))) return callKey(child, callId);
      return own;
    };

    /** What the adapter adds to a decoded part: the child session's parent, an AIR task's state. */
    const decorate = (merged: MergedCall, part: NormalizedToolPart, prevPart: NormalizedToolPart | undefined, extraMeta?: ToolMetadata): NormalizedToolPart => {
      let metadata: ToolMetadata | undefined = part.metadata;
      const add = (m: ToolMetadata) => { metadata = { ...(metadata ?? {}), ...m }; };
      if (extraMeta) add(extraMeta);
      // Set by an earlier frame of another kind (a task update): the call's own frames do not say it again.
      if (prevPart?.metadata?.task && !metadata?.task) add({ task: prevPart.metadata.task });
      if (prevPart?.metadata?.plan && !metadata?.plan && !Object.keys(merged.toolnorm).length) add({ plan: prevPart.metadata.plan });
      const link = children.get(merged.sessionId);
      if (link?.callId && !metadata?.parentId && link.callId !== merged.toolCallId) add({ parentId: link.callId });
      if (prevPart?.metadata?.childSessionId && !metadata?.childSessionId) add({ childSessionId: prevPart.metadata.childSessionId });
      return metadata === part.metadata ? part : ({ ...part, metadata } as NormalizedToolPart);
    };

    /**
     * v2 calls whose end is held back: a terminal's text and exit come after the call's last
     * update (toolnorm's own frames and claude-agent-acp's both send them so), and the end event
     * must carry them. Held until the terminal exits, or the next frame about anything else.
     */
    const held = new Set<string>();
    const showsTerminal = (m: MergedCall) => Array.isArray(m.fields.content) && (m.fields.content as unknown[]).some((c) => obj(c)?.type === 'terminal');
    const isEnded = (p: NormalizedToolPart) => p.state === 'complete' || p.state === 'error';

    /** Recomputes a known call's part after `merged` changed, and emits the change. */
    const commit = (key: string, prev: Call | undefined, merged: MergedCall, pos: InputPosition, extraMeta?: ToolMetadata, toolCallId = merged.toolCallId, release = false) => {
      held.delete(key);
      // `_meta.toolnorm` is only trusted while the part it describes keeps the contract; once it
      // does not, the call is read like any other agent's frames from then on.
      let foreign = prev?.foreign;
      let part = partOf(foreign ? { ...merged, toolnorm: {} } : merged);
      if (!release && v2() && prev && !isEnded(prev.part) && isEnded(part) && showsTerminal(merged) && !merged.terminal?.exited) {
        held.add(key);
        calls.set(key, { ...prev, merged });
        return;
      }
      if (!foreign && Object.keys(merged.toolnorm).length) {
        const issues = issuesOfNormalizedToolPart(part);
        if (issues.length) {
          foreign = true;
          part = partOf({ ...merged, toolnorm: {} });
          out.diagnostic('invalid_toolnorm_meta', `line ${pos.line}: _meta.toolnorm of ${toolCallId} does not describe a valid part (${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}); it is ignored and the call is mapped from its ACP fields`, pos, { partId: toolCallId });
        }
      }
      part = decorate(merged, part, prev?.part, extraMeta);
      calls.set(key, foreign ? { merged, part, foreign } : { merged, part });
      emitTransition(key, merged.sessionId, prev?.part, part, pos);
    };

    const applyUpdate = (sessionId: string, update: Obj, pos: InputPosition, extraMeta?: ToolMetadata) => {
      const callId = String(update.toolCallId);
      const key = resolveKey(sessionId, callId);
      const prev = calls.get(key);
      if (!prev && forgotten.has(key)) {
        out.diagnostic('late_result', `line ${pos.line}: ${String(update.sessionUpdate)} for ${callId} arrived after the call was forgotten while still open (more than ${ACP_CALLS_KEPT} newer calls); it is reported here and not applied`, pos, { partId: callId });
        return;
      }
      const first = mergeFrame(prev?.merged, prev?.merged.sessionId ?? sessionId, update, { v2: v2() });
      // v2 has no `tool_call`: a first `tool_call_update` is the announcement (an upsert).
      if (!prev && update.sessionUpdate === 'tool_call_update' && !v2()) {
        out.diagnostic('unknown_part', `line ${pos.line}: tool_call_update for ${callId} before its tool_call; the part is started from the update`, pos, { partId: callId });
      }
      const merged = adoptTerminals(first, update.content, key, (id) => callKey(first.sessionId, id), { owners: terminalOwner, early: pendingTerminal });
      commit(key, prev, merged, pos, extraMeta, callId);
    };

    /** The call showing terminal `terminalId` of `sessionId` (by content, else by call id). */
    const terminalCall = (sessionId: string, terminalId: string): string | undefined => {
      const owner = terminalOwner.get(callKey(sessionId, terminalId));
      if (owner && calls.has(owner)) return owner;
      const byId = resolveKey(sessionId, terminalId);
      return calls.has(byId) ? byId : undefined;
    };

    /** A v2 terminal update or output chunk, applied to the call that shows the terminal. */
    const applyTerminal = (sessionId: string, update: Obj, pos: InputPosition, change: (t: TerminalState) => TerminalState) => {
      const terminalId = typeof update.terminalId === 'string' ? update.terminalId : undefined;
      if (!terminalId) {
        out.diagnostic('malformed_frame', `line ${pos.line}: ${String(update.sessionUpdate)} without a terminalId; it is not applied`, pos);
        return;
      }
      const key = terminalCall(sessionId, terminalId);
      if (!key) {
        const tkey = callKey(sessionId, terminalId);
        pendingTerminal.set(tkey, change(pendingTerminal.get(tkey) ?? { data: '' }));
        return;
      }
      const prev = calls.get(key)!;
      commit(key, prev, { ...prev.merged, terminal: change(prev.merged.terminal ?? { data: '' }) }, pos);
    };

    const applyPlan = (sessionId: string, update: Obj, pos: InputPosition) => {
      const plan = planOf(update);
      if (!plan) {
        out.diagnostic('malformed_frame', `line ${pos.line}: ${String(update.sessionUpdate)} without a plan; it is not applied`, pos);
        return;
      }
      // A plan named by a call's id is that call's plan (toolnorm's v2 frames send a to-do part's
      // entries so): our own calls already carry it in `_meta.toolnorm`; another agent's gets it
      // as `metadata.plan`, and no second part.
      // toolnorm's own plan frames name their to-do call in `_meta.toolnorm.partId` (v1's plan has
      // one id per session, so the plan id cannot say it): that call already carries the plan.
      const ownCall = nonEmpty(obj(obj(update._meta)?.toolnorm)?.partId);
      const callAt = resolveKey(sessionId, ownCall !== undefined && calls.has(resolveKey(sessionId, ownCall)) ? ownCall : plan.planId);
      const owner = calls.get(callAt);
      if (owner) {
        if (!Object.keys(owner.merged.toolnorm).length && plan.plan) commit(callAt, owner, owner.merged, pos, { plan: plan.plan });
        return;
      }
      const key = callKey(sessionId, `plan:${plan.planId}`);
      const prev = plans.get(key);
      if (prev?.state === 'complete' && !plan.done) plans.delete(key);
      const before = plans.get(key);
      const id = before ? before.id : prev ? `${sessionId}/plan:${plan.planId}/${pos.line}` : `${sessionId}/plan:${plan.planId}`;
      const base = { id, name: 'plan', kind: 'todo' as const, title: plan.title, input: plan.input, metadata: { provider: 'acp' as const, rawType: `acp:${String(update.sessionUpdate)}`, ...(plan.plan ? { plan: plan.plan } : {}) } };
      const part = (plan.done ? { ...base, state: 'complete', output: { text: plan.text } } : { ...base, state: 'running' }) as NormalizedToolPart;
      plans.set(key, part);
      emitTransition(key, sessionId, before, part, pos);
    };

    /** A plan still open when its session's foreground work ends (or the input ends) is complete as it stands. */
    const closePlans = (sessionId: string | undefined, pos: InputPosition) => {
      for (const [key, p] of [...plans.entries()]) {
        if (p.state === 'complete' || (sessionId !== undefined && !key.startsWith(`${sessionId}\u0000`))) continue;
        const text = Array.isArray(obj(p.input)?.entries) ? planOf({ sessionUpdate: 'plan', entries: obj(p.input)!.entries })!.text : planOf({ sessionUpdate: 'plan_update', plan: p.input })?.text ?? '';
        const done = { ...p, state: 'complete', output: { text } } as NormalizedToolPart;
        plans.set(key, done);
        emitTransition(key, key.slice(0, key.indexOf('\u0000')), p, done, pos);
      }
    };

    const cancelOpen = (sessionId: string, pos: InputPosition) => {
      for (const [key, c] of [...calls.entries()]) {
        if (c.merged.sessionId !== sessionId || c.part.state === 'complete' || c.part.state === 'error') continue;
        // A request still waiting for its answer is over with the work it was about.
        const request = awaiting.get(key);
        if (request !== undefined) {
          awaiting.delete(key);
          permissions.delete(request);
          out.emit('tool.approval.resolved', { sessionId: c.merged.sessionId, partId: c.part.id, at: clock(), pos }, { approval: { state: 'expired', source: 'user', reason: 'the session\'s work was cancelled before the request was answered' } });
        }
        commit(key, c, mergeFrame(c.merged, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: c.merged.toolCallId, status: 'cancelled' }, { v2: true }), pos);
      }
    };

    /** A child session the agent announced: its calls run under `callId` of `parent`. */
    const linkChild = (parent: string, child: string, update: Obj, pos: InputPosition) => {
      let callId = nonEmpty(obj(obj(update._meta)?.claudeCode)?.parentToolUseId) ?? nonEmpty(update.toolCallId);
      if (!callId) {
        // No id in the announcement: the newest open subagent call of the parent session.
        for (const [key, c] of calls.entries()) if (key.startsWith(`${parent}\u0000`) && c.part.kind === 'subagent' && c.part.state !== 'complete' && c.part.state !== 'error') callId = c.merged.toolCallId;
      }
      children.set(child, callId ? { parent, callId } : { parent });
      const siblings = childrenOf.get(parent) ?? new Set<string>();
      siblings.add(child);
      childrenOf.set(parent, siblings);
      if (!callId) {
        out.diagnostic('unlinked_child_session', `line ${pos.line}: child session ${child} of ${parent} names no parent call and no subagent call is open; its calls are not parented`, pos);
        return;
      }
      const key = resolveKey(parent, callId);
      const prev = calls.get(key);
      if (prev) commit(key, prev, prev.merged, pos, { childSessionId: child });
    };

    /** AIR async tasks: the task's state on the call that started it (`metadata.task`). */
    const applyTask = (sessionId: string, update: Obj, pos: InputPosition) => {
      const callId = nonEmpty(update.toolCallId) ?? tasks.get(String(update.asyncTaskId));
      if (typeof update.asyncTaskId === 'string' && callId) tasks.set(update.asyncTaskId, callId);
      const key = callId ? resolveKey(sessionId, callId) : undefined;
      const prev = key ? calls.get(key) : undefined;
      if (!prev || !key) {
        countUnknown(`${String(update.sessionUpdate)} (no known call)`, pos);
        return;
      }
      const { sessionUpdate, ...rest } = update;
      const task = { ...(obj(prev.part.metadata?.task) ?? {}), ...rest, last: sessionUpdate };
      commit(key, prev, prev.merged, pos, { task });
    };
    const tasks = new BoundedMap<string, string>(ACP_CALLS_KEPT);

    const countUnknown = (name: string, pos: InputPosition) => {
      // Kinds are named by the input: past UNKNOWN_KINDS of them, the rest are counted together.
      const kind = unknownUpdates.has(name) || unknownUpdates.size < UNKNOWN_KINDS ? name : '(other kinds)';
      const u = unknownUpdates.get(kind);
      if (u) u.count++;
      else unknownUpdates.set(kind, { count: 1, pos });
    };

    /** What each session update kind does, both versions (docs/providers/acp.md, "Reading frames"). */
    const UPDATES: Readonly<Record<string, ((sessionId: string, update: Obj, pos: InputPosition) => void) | 'none'>> = {
      tool_call: (s, u, pos) => { if (isToolUpdate(u)) applyUpdate(s, u, pos); else out.diagnostic('malformed_frame', `line ${pos.line}: tool_call without a toolCallId`, pos); },
      tool_call_update: (s, u, pos) => { if (isToolUpdate(u)) applyUpdate(s, u, pos); else out.diagnostic('malformed_frame', `line ${pos.line}: tool_call_update without a toolCallId`, pos); },
      tool_call_content_chunk: (s, u, pos) => {
        const key = typeof u.toolCallId === 'string' ? resolveKey(s, u.toolCallId) : undefined;
        const prev = key ? calls.get(key) : undefined;
        if (!prev || !key) return applyUpdate(s, { sessionUpdate: 'tool_call_update', toolCallId: u.toolCallId, content: [u.content] }, pos);
        commit(key, prev, appendContent(prev.merged, u.content), pos);
      },
      terminal_update: (s, u, pos) => applyTerminal(s, u, pos, (t) => applyTerminalUpdate(t, u)),
      terminal_output_chunk: (s, u, pos) => applyTerminal(s, u, pos, (t) => applyTerminalUpdate(t, u)),
      plan: applyPlan,
      plan_update: applyPlan,
      plan_removed: 'none',
      state_update: (s, u, pos) => {
        if (u.state !== 'idle') return;
        // Foreground work ended by a cancel: a call still open in the session will not go on.
        if (u.stopReason === 'cancelled') cancelOpen(s, pos);
        closePlans(s, pos);
      },
      subagent_update: (s, u, pos) => { if (typeof u.sessionId === 'string' && u.sessionId !== s && !children.has(u.sessionId)) linkChild(s, u.sessionId, u, pos); },
      subagent_spawned: (s, u, pos) => { if (typeof u.subagentSessionId === 'string') linkChild(s, u.subagentSessionId, u, pos); },
      async_task_spawned: applyTask,
      async_task_progress: applyTask,
      async_task_state_update: applyTask,
      // Messages, thoughts, modes, commands, usage and notices carry no tool data.
      user_message_chunk: 'none', agent_message_chunk: 'none', agent_thought_chunk: 'none',
      user_message: 'none', agent_message: 'none', agent_thought: 'none',
      available_commands_update: 'none', current_mode_update: 'none', config_option_update: 'none',
      session_info_update: 'none', usage_update: 'none', notice: 'none',
      compaction_update: 'none', compaction_summary_chunk: 'none',
      session_message: 'none', session_message_chunk: 'none',
    };

    const permissionToolCall = (params: Obj): Obj | undefined => {
      // v1: `toolCall`; v2: `subject: {type: "tool_call", toolCall}`.
      const subject = obj(params.subject);
      if (subject) {
        if (version === undefined) version = 2;
        return subject.type === 'tool_call' ? obj(subject.toolCall) : undefined;
      }
      return obj(params.toolCall);
    };

    /** Ends the held calls, but the one whose terminal this update is about. */
    const releaseHeld = (p: { sessionId: string; update: Obj } | undefined, pos: InputPosition) => {
      if (!held.size) return;
      const terminalId = p && (p.update.sessionUpdate === 'terminal_update' || p.update.sessionUpdate === 'terminal_output_chunk') && typeof p.update.terminalId === 'string' ? p.update.terminalId : undefined;
      const keep = terminalId !== undefined ? terminalCall(p!.sessionId, terminalId) : undefined;
      for (const key of [...held]) {
        const c = calls.get(key);
        if (key === keep) continue;
        held.delete(key);
        if (c) commit(key, c, c.merged, pos, undefined, c.merged.toolCallId, true);
      }
    };

    return {
      line(text, pos) {
        lastPos = pos;
        if (!text.trim()) return;
        const m = parseObjectLine(text, pos, out, 'not a JSON-RPC message or session/update params');
        if (!m) return;
        if (m.method === 'initialize' || (obj(m.result) && typeof obj(m.result)!.protocolVersion === 'number')) {
          const pv = m.method === 'initialize' ? obj(m.params)?.protocolVersion : obj(m.result)!.protocolVersion;
          // The answer's version is the one both sides use; the request's until it comes.
          if (pv !== 1 && pv !== 2 && typeof pv === 'number') out.diagnostic('unknown_protocol_version', `line ${pos.line}: ACP protocolVersion ${pv}; frames are read as ${version ?? 1}`, pos);
          version = versionOf(version, m);
          return;
        }
        const p = updateParamsOf(m);
        releaseHeld(p, pos);
        if (p) {
          const kind = typeof p.update.sessionUpdate === 'string' ? p.update.sessionUpdate : '(none)';
          version = versionOf(version, m);
          const handler = Object.hasOwn(UPDATES, kind) ? UPDATES[kind]! : undefined;
          // An empty id names no session: the contract's sessionId has at least one character.
          if (p.sessionId === '' && typeof handler === 'function') return out.malformed(text, 'session/update with an empty sessionId', pos);
          if (!handler) countUnknown(kind, pos);
          else if (handler !== 'none') handler(p.sessionId, p.update, pos);
          return;
        }
        if (m.method === 'session/request_permission') {
          const params = obj(m.params);
          const toolCall = params ? permissionToolCall(params) : undefined;
          if (params && obj(params.subject) && !toolCall && typeof params.sessionId === 'string') {
            out.diagnostic('permission_without_call', `line ${pos.line}: a permission request about a ${String(obj(params.subject)!.type)}, not a tool call: no part records it`, pos);
            return;
          }
          if (!params || !toolCall || typeof toolCall.toolCallId !== 'string' || toolCall.toolCallId === '' || typeof params.sessionId !== 'string' || params.sessionId === '') {
            out.malformed(text, 'session/request_permission without sessionId and a tool call (v1 toolCall, v2 subject.toolCall) with a toolCallId', pos);
            return;
          }
          const options = (Array.isArray(params.options) ? params.options : []).map((o) => obj(o) ?? {});
          applyUpdate(params.sessionId, { ...toolCall, sessionUpdate: 'tool_call_update' }, pos);
          const key = resolveKey(params.sessionId, toolCall.toolCallId);
          const call = calls.get(key);
          if (!call) return;
          out.emit('tool.approval.requested', { sessionId: call.merged.sessionId, partId: call.part.id, at: clock(), pos }, { approval: requestedApproval(params, options) });
          if (m.id !== undefined) {
            permissions.set(m.id as string | number, { key, options });
            awaiting.set(key, m.id as string | number);
          }
          return;
        }
        if (('result' in m || 'error' in m) && m.id !== undefined && permissions.has(m.id as string | number)) {
          const req = permissions.get(m.id as string | number)!;
          permissions.delete(m.id as string | number);
          awaiting.delete(req.key);
          const call = calls.get(req.key);
          if (!call) return;
          const answer = answerOf(m, req.options);
          if (answer.problem) out.diagnostic('unclear_permission_answer', `line ${pos.line}: the answer to the permission request for ${call.part.id} ${answer.problem}; ACP says such an answer is no approval, so it is read as denied`, pos, { partId: call.part.id });
          out.emit('tool.approval.resolved', { sessionId: call.merged.sessionId, partId: call.part.id, at: clock(), pos }, { approval: answer.approval });
          // A refused call fails as `denied`, whatever text the agent reports its failure with.
          if (answer.approval.state === 'denied') commit(req.key, call, { ...call.merged, denied: true as const }, pos);
          return;
        }
        // Other ACP traffic (prompts, responses) carries no tool calls; anything else
        // (a Claude line, a Codex app-server method) is not this format.
        if (!isAcpTraffic(m)) out.unrecognized(pos);
      },
      end() {
        // What the end decides is reported at the last line read.
        const pos = lastPos;
        if (!pos) return;
        releaseHeld(undefined, pos);
        // A refused call the agent never reported on is over: it fails as denied.
        for (const [key, c] of [...calls.entries()]) {
          if (!c.merged.denied || c.part.state === 'complete' || c.part.state === 'error') continue;
          commit(key, c, mergeFrame(c.merged, c.merged.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: c.merged.toolCallId, status: 'failed' }, { v2: v2() }), pos, undefined, c.merged.toolCallId, true);
        }
        closePlans(undefined, pos);
        for (const [kind, u] of unknownUpdates) {
          out.diagnostic('unknown_session_update', `${u.count} session update${u.count === 1 ? '' : 's'} of kind ${kind} (first at line ${u.pos.line}): no table reads ${u.count === 1 ? 'it' : 'them'}, so no part holds ${u.count === 1 ? 'it' : 'them'}`, u.pos);
        }
      },
    };
  },
};
