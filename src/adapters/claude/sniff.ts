// `--from auto`: is this Claude Code stream-json / SDK output, an on-disk transcript, or a
// subagent `.meta.json`? Decided from a few distinctive fields, never from one generic `type`.

type Obj = Record<string, unknown>;

const STREAM_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'tool_progress', 'tool_use_summary', 'rate_limit_event', 'auth_status']);
const TRANSCRIPT_ONLY = new Set(['summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment', 'tools-used', 'last-prompt', 'cost-state', 'atis-latch']);

function score(o: Obj): number {
  const type = o.type;
  if (typeof type !== 'string') {
    // agent-<id>.meta.json
    return typeof o.toolUseId === 'string' && typeof o.agentType === 'string' ? 0.8 : 0;
  }
  if (type === 'system' && o.subtype === 'init' && (typeof o.claude_code_version === 'string' || (Array.isArray(o.tools) && 'mcp_servers' in o))) return 0.95;
  if ((type === 'user' || type === 'assistant') && ('parentUuid' in o || 'isSidechain' in o) && typeof o.sessionId === 'string') return 0.9;
  if (TRANSCRIPT_ONLY.has(type) && (typeof o.sessionId === 'string' || typeof o.leafUuid === 'string' || 'snapshot' in o)) return 0.85;
  if (STREAM_TYPES.has(type) && typeof o.session_id === 'string') {
    if ('parent_tool_use_id' in o || type === 'stream_event' || type === 'tool_progress' || type === 'result') return 0.9;
    return 0.6;
  }
  return 0;
}

export function sniffClaude(sample: { lines: readonly string[]; file?: string }): number {
  let best = 0;
  for (const line of sample.lines.slice(0, 20)) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    let o: unknown;
    try {
      o = JSON.parse(t);
    } catch {
      continue;
    }
    if (o && typeof o === 'object' && !Array.isArray(o)) best = Math.max(best, score(o as Obj));
    if (best >= 0.95) break;
  }
  return best;
}
