// `--from acp`: ACP session/update traffic (JSON-RPC lines or bare params) as a fourth input
// provider. Each frame is merged like a client would, and the change in the decoded part becomes
// ToolEvents, so ACP input goes through the same reducer as every other provider.
import { issuesOfNormalizedToolPart, type NormalizedToolPart, type ToolMetadata } from '../../contract/index.js';
import type { AdapterDefinition, InputPosition } from '../types.js';
import { EventEmitterFor, parseObjectLine } from '../shared/emit.js';
import { BoundedMap, BoundedSet } from '../../collections/bounded.js';
import { isToolUpdate, mergeFrame, partOf, updateParamsOf, type MergedCall } from '../../acp/decode.js';
import { obj, type Obj } from '../../fields.js';
import { timeField } from '../shared/time.js';
import { isAcpTraffic, sniffAcp } from './sniff.js';

/** Terminal calls kept for late frames (e.g. a PostToolUse hook update after the result). */
const TERMINAL_KEEP = 10_000;
/** Calls and permission requests remembered: the most recent 10k–20k each (docs/robustness.md). */
export const ACP_CALLS_KEPT = 10_000;
const PERMISSIONS_KEPT = 10_000;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

export const acpAdapter: AdapterDefinition = {
  id: 'acp',
  provider: 'acp',
  description: 'ACP v1 session/update notifications (JSON-RPC lines or bare params)',
  sniff: sniffAcp,
  create(sink, options) {
    const out = new EventEmitterFor(sink, 'acp');
    // Without an explicit clock, a frame with no time of its own has none (never invented).
    const clock: () => number | undefined = options.clock ?? (() => undefined);
    /** Keys of calls forgotten while still open: a later frame for one is late, not "before its tool_call". */
    const forgotten = new BoundedSet<string>(ACP_CALLS_KEPT * 10);
    const calls = new BoundedMap<string, { merged: MergedCall; part: NormalizedToolPart; foreign?: true }>(ACP_CALLS_KEPT, (key, call) => {
      if (call.part.state === 'complete' || call.part.state === 'error') return;
      forgotten.add(key);
      out.diagnostic('evicted_call', `call ${call.part.id} of session ${call.merged.sessionId} was still open when more than ${ACP_CALLS_KEPT} newer calls had come; it is forgotten, its part keeps its last known state, and a frame for it later is reported as late`, undefined, { partId: call.part.id });
    });
    const terminal: string[] = [];
    /** JSON-RPC id of a permission request → the call it is about. */
    const permissions = new BoundedMap<string | number, { key: string; options: Obj[] }>(PERMISSIONS_KEPT);

    const emitTransition = (key: string, merged: MergedCall, prev: NormalizedToolPart | undefined, part: NormalizedToolPart, pos: InputPosition) => {
      const env = (at: number | undefined) => ({ sessionId: merged.sessionId, partId: part.id, at, pos });
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

    const applyUpdate = (sessionId: string, update: Obj, pos: InputPosition, extraMeta?: ToolMetadata) => {
      const key = `${sessionId}\u0000${String(update.toolCallId)}`;
      const prev = calls.get(key);
      if (!prev && forgotten.has(key)) {
        out.diagnostic('late_result', `line ${pos.line}: ${String(update.sessionUpdate)} for ${String(update.toolCallId)} arrived after the call was forgotten while still open (more than ${ACP_CALLS_KEPT} newer calls); it is reported here and not applied`, pos, { partId: String(update.toolCallId) });
        return;
      }
      const merged = mergeFrame(prev?.merged, sessionId, update);
      // `_meta.toolnorm` is only trusted while the part it describes keeps the contract; once it
      // does not, the call is read like any other agent's frames from then on.
      let foreign = prev?.foreign;
      let part = partOf(foreign ? { ...merged, toolnorm: {} } : merged);
      if (!foreign && Object.keys(merged.toolnorm).length) {
        const issues = issuesOfNormalizedToolPart(part);
        if (issues.length) {
          foreign = true;
          part = partOf({ ...merged, toolnorm: {} });
          out.diagnostic('invalid_toolnorm_meta', `line ${pos.line}: _meta.toolnorm of ${String(update.toolCallId)} does not describe a valid part (${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}); it is ignored and the call is mapped from its ACP fields`, pos, { partId: String(update.toolCallId) });
        }
      }
      // Approval details come from the permission exchange, not from frames: carry them forward.
      if (extraMeta) part = { ...part, metadata: { ...(part.metadata ?? {}), ...extraMeta } } as NormalizedToolPart;
      else if (prev?.part.metadata?.approval && !part.metadata?.approval) part = { ...part, metadata: { ...(part.metadata ?? {}), approval: prev.part.metadata.approval } } as NormalizedToolPart;
      if (!prev && update.sessionUpdate === 'tool_call_update') {
        out.diagnostic('unknown_part', `line ${pos.line}: tool_call_update for ${String(update.toolCallId)} before its tool_call; the part is started from the update`, pos, { partId: String(update.toolCallId) });
      }
      calls.set(key, foreign ? { merged, part, foreign } : { merged, part });
      emitTransition(key, merged, prev?.part, part, pos);
    };

    return {
      line(text, pos) {
        if (!text.trim()) return;
        const m = parseObjectLine(text, pos, out, 'not a JSON-RPC message or session/update params');
        if (!m) return;
        const p = updateParamsOf(m);
        if (p) {
          // An empty id names no session: the contract's sessionId has at least one character.
          if (p.sessionId === '' && isToolUpdate(p.update)) return out.malformed(text, 'session/update with an empty sessionId', pos);
          if (isToolUpdate(p.update)) applyUpdate(p.sessionId, p.update, pos);
          return; // other session updates (messages, plans, modes) carry no tool data
        }
        if (m.method === 'session/request_permission') {
          const params = obj(m.params);
          const toolCall = obj(params?.toolCall);
          if (!params || !toolCall || typeof toolCall.toolCallId !== 'string' || toolCall.toolCallId === '' || typeof params.sessionId !== 'string' || params.sessionId === '') {
            out.malformed(text, 'session/request_permission without sessionId and toolCall.toolCallId', pos);
            return;
          }
          const options = (Array.isArray(params.options) ? params.options : []).map((o) => obj(o) ?? {});
          const approval = { requested: true, options: options.map((o) => ({ optionId: o.optionId, kind: o.kind, name: o.name })) };
          applyUpdate(params.sessionId, { ...toolCall, sessionUpdate: 'tool_call_update' }, pos, { approval });
          if (m.id !== undefined) permissions.set(m.id as string | number, { key: `${params.sessionId}\u0000${toolCall.toolCallId}`, options });
          return;
        }
        if ('result' in m && m.id !== undefined && permissions.has(m.id as string | number)) {
          const req = permissions.get(m.id as string | number)!;
          permissions.delete(m.id as string | number);
          const outcome = obj(obj(m.result)?.outcome);
          const chosen = req.options.find((o) => o.optionId === outcome?.optionId);
          const call = calls.get(req.key);
          if (!call) return;
          const decision = outcome?.outcome === 'cancelled' ? 'cancelled' : typeof chosen?.kind === 'string' && chosen.kind.startsWith('reject') ? 'rejected' : 'allowed';
          const approval = { ...(obj(call.part.metadata?.approval) ?? {}), decision, optionId: outcome?.optionId };
          applyUpdate(call.merged.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: call.merged.toolCallId }, pos, { approval });
          return;
        }
        // Other ACP traffic (initialize, prompts, responses) carries no tool calls; anything else
        // (a Claude line, a Codex app-server method) is not this format.
        if (!isAcpTraffic(m)) out.unrecognized(pos);
      },
      end() {},
    };
  },
};
