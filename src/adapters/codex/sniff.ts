// Which of the three Codex input forms a line is, decided per line (a file is one form, but
// deciding per line costs nothing and survives concatenated recordings).
import { obj, text, type Obj } from './fields.js';
import { rpcOf, type RpcLine } from './forms/rpc.js';

export const EXEC_TYPES = new Set(['thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error']);
export const ROLLOUT_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted', 'world_state', 'token_usage_record']);

export type Form = { form: 'exec' } | { form: 'rollout' } | { form: 'app-server'; rpc: RpcLine };

/** exec's fatal `{"type":"error","message":…}` has exactly those keys (other tools log `error` lines too). */
const isExecError = (o: Obj) => typeof o.message === 'string' && Object.keys(o).every((k) => k === 'type' || k === 'message');

export function formOf(o: Obj): Form | undefined {
  const type = text(o.type);
  if (type !== undefined && 'payload' in o && ROLLOUT_TYPES.has(type)) return { form: 'rollout' };
  if (type === 'error') {
    if (isExecError(o)) return { form: 'exec' };
  } else if (type !== undefined && (EXEC_TYPES.has(type) || /^(thread|turn|item)\.[a-z_]+$/.test(type)) && !('payload' in o)) {
    return { form: 'exec' };
  }
  const rpc = rpcOf(o);
  return rpc ? { form: 'app-server', rpc } : undefined;
}

// Methods only the Codex app-server uses (ACP shares JSON-RPC and `initialize`, so those prove nothing).
const CODEX_METHOD = /^(item|turn|thread|serverRequest|account|mcpServer|model|codex\/event|remoteControl|fuzzyFileSearch|skills|hook|rawResponseItem|command\/exec|process|windowsSandbox)\/|^(configWarning|deprecationNotice|execCommandApproval|applyPatchApproval|error|warning|initialized)$/;
const ACP_METHOD = /^(session|fs|terminal)\//;

/** How sure we are that sampled lines are Codex: 0.9 on clear evidence, 0 on none or on ACP. */
export function sniffLines(lines: readonly string[]): number {
  let codex = 0;
  let ambiguous = 0;
  for (const line of lines) {
    let o: Obj | undefined;
    try {
      o = obj(JSON.parse(line));
    } catch {
      continue;
    }
    if (!o) continue;
    const f = formOf(o);
    if (!f) continue;
    if (f.form !== 'app-server') {
      // A lone `error` line proves little; exec's thread/turn/item lines do.
      if (o.type !== 'error') codex++;
      continue;
    }
    const m = f.rpc.msg;
    const method = text(m.method);
    if (method && ACP_METHOD.test(method)) return 0;
    const params = obj(m.params);
    if (params && 'protocolVersion' in params) return 0;
    const result = obj(m.result);
    if ((method && CODEX_METHOD.test(method)) || (method === 'initialize' && params && 'clientInfo' in params && !('protocolVersion' in params)) || (result && ('thread' in result || 'codexHome' in result))) codex++;
    else ambiguous++;
  }
  if (codex > 0) return 0.9;
  return ambiguous > 0 ? 0.3 : 0;
}

/**
 * Lines that can never carry tool data, recognized by their first bytes so they are not parsed:
 * reasoning (half the bytes of a rollout: encrypted content), messages, token counts, and
 * app-server text deltas. Only a line that also ends like a complete JSON object is skipped, so a
 * truncated line is still parsed and reported.
 */
const NO_TOOL_DATA = new RegExp(
  [
    '^\\{"timestamp":"[^"]*",(?:"ordinal":\\d+,)?"type":"(?:response_item|event_msg)","payload":\\{"type":"(?:reasoning|message|agent_reasoning|agent_reasoning_raw_content|agent_reasoning_section_break|token_count|agent_message|user_message)"',
    '^\\{"type":"item\\.completed","item":\\{"id":"[^"\\\\]*","type":"(?:reasoning|agent_message)"',
    '^\\{\\s*(?:"dir"\\s*:\\s*"\\w+"\\s*,\\s*"msg"\\s*:\\s*\\{\\s*)?"method"\\s*:\\s*"(?:item/agentMessage/delta|item/reasoning/\\w+|thread/tokenUsage/updated|account/rateLimits/updated)"',
  ].join('|'),
);

export function carriesNoToolData(line: string): boolean {
  return NO_TOOL_DATA.test(line) && line.charCodeAt(line.length - 1) === 125 /* } */;
}
