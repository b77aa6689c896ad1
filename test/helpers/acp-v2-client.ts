// What an ACP v2 client holds after a stream of v2 frames, merged by the draft's rules (schema/v2
// ToolCallUpdate and TerminalUpdate): a `tool_call_update` is an upsert, a field it carries
// replaces the stored one, `_meta` is patched by top-level key without merging nested objects,
// `terminal_update` upserts a terminal and its `output` replaces the terminal's bytes, and
// `plan_update` replaces the plan of its id. `v1Snapshot` then writes each call as the one v1
// `tool_call` a v1 client would hold, so decodeFrames can read it: that is how the tests bring
// v2 frames back to parts without a v2 decoder of their own.
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

export interface V2ClientState {
  calls: Map<string, { sessionId: string; fields: Obj; meta: Obj }>;
  terminals: Map<string, Obj & { text?: string }>;
  plans: Map<string, unknown[]>;
  /** sessionUpdate values seen, in order of first sight. */
  kinds: string[];
}

export function mergeV2(frames: readonly unknown[]): V2ClientState {
  const s: V2ClientState = { calls: new Map(), terminals: new Map(), plans: new Map(), kinds: [] };
  for (const f of frames) {
    const p = obj(obj(f)?.method === 'session/update' ? obj(f)!.params : f)!;
    const u = obj(p.update)!;
    const kind = String(u.sessionUpdate);
    if (!s.kinds.includes(kind)) s.kinds.push(kind);
    if (kind === 'tool_call_update') {
      const id = String(u.toolCallId);
      const call = s.calls.get(id) ?? { sessionId: String(p.sessionId), fields: {}, meta: {} };
      for (const [k, v] of Object.entries(u)) {
        if (k === 'sessionUpdate' || k === 'toolCallId') continue;
        if (k === '_meta') {
          for (const [mk, mv] of Object.entries(obj(v) ?? {})) {
            if (mv === null) delete call.meta[mk];
            else call.meta[mk] = mv;
          }
        } else if (v === null) delete call.fields[k];
        else call.fields[k] = v;
      }
      s.calls.set(id, call);
    } else if (kind === 'terminal_update') {
      const id = String(u.terminalId);
      const t = s.terminals.get(id) ?? {};
      for (const [k, v] of Object.entries(u)) if (k !== 'sessionUpdate') t[k] = v;
      const data = obj(u.output)?.data;
      if (typeof data === 'string') t.text = Buffer.from(data, 'base64').toString('utf8');
      s.terminals.set(id, t);
    } else if (kind === 'plan_update') {
      const plan = obj(u.plan)!;
      s.plans.set(String(plan.planId), plan.entries as unknown[]);
    }
  }
  return s;
}

/** Each call as one v1 `tool_call` params object holding everything the v2 client stored. */
export function v1Snapshot(s: V2ClientState): unknown[] {
  return [...s.calls].map(([id, c]) => {
    const meta: Obj = { ...c.meta };
    const fields: Obj = { ...c.fields };
    // v2 cannot send a null rawInput (null clears): toolnorm sends it as `_meta.toolnorm.input`.
    const tn = obj(meta.toolnorm);
    if (tn && 'input' in tn && tn.input === null && !('rawInput' in fields)) fields.rawInput = null;
    const terminal = Array.isArray(fields.content) ? (fields.content as Obj[]).find((i) => i.type === 'terminal') : undefined;
    const t = terminal && s.terminals.get(String(terminal.terminalId));
    if (t?.text !== undefined) meta.terminal_output = { terminal_id: terminal!.terminalId, data: t.text };
    return { sessionId: c.sessionId, update: { sessionUpdate: 'tool_call', toolCallId: id, ...fields, _meta: meta } };
  });
}
