// An independent scan of raw Codex recordings, used to check the adapter's counts. It shares no
// code with the adapter: plain JSON.parse, a regex for the exec id rule, and literal type lists
// taken from docs/providers/codex.md#line-types.
type O = Record<string, any>;

export interface CodexScan {
  /** Distinct tool ids (exec item ids, app-server item ids, rollout call ids / web search ids). */
  tools: Set<string>;
  /** Tool ids with a terminal record in the input. */
  ended: Set<string>;
  /** Tool ids the recording reports as failed, declined or non-zero exit. */
  failed: Set<string>;
  /** Ids of agent messages, reasoning and other non-tool items. */
  nonTool: Set<string>;
}

const EXEC_TOOLS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'todo_list', 'collab_tool_call']);
const APP_NON_TOOLS = new Set(['userMessage', 'agentMessage', 'reasoning', 'hookPrompt', 'contextCompaction', 'enteredReviewMode', 'exitedReviewMode']);
const ROLLOUT_ITEM_TOOLS = new Set(['CommandExecution', 'FileChange', 'McpToolCall', 'WebSearch', 'DynamicToolCall', 'CollabAgentToolCall', 'ImageView']);

export function scanCodex(text: string): CodexScan {
  const s: CodexScan = { tools: new Set(), ended: new Set(), failed: new Set(), nonTool: new Set() };
  const planTurns = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let o: O;
    try {
      o = JSON.parse(line) as O;
    } catch {
      continue;
    }
    // exec JSONL
    if (typeof o.type === 'string' && o.type.startsWith('item.') && o.item) {
      // The documented rule: the first `id` key of the item is the part id.
      const id = /"item"\s*:\s*\{\s*"id"\s*:\s*"([^"]+)"/.exec(line)?.[1] ?? o.item.id;
      if (EXEC_TOOLS.has(o.item.type)) {
        s.tools.add(id);
        if (o.type === 'item.completed') {
          s.ended.add(id);
          if (['failed', 'declined', 'in_progress'].includes(o.item.status)) s.failed.add(id);
        }
      } else s.nonTool.add(id);
      continue;
    }
    // rollout
    if (o.payload && ['response_item', 'event_msg', 'session_meta', 'turn_context'].includes(o.type)) {
      const p = o.payload as O;
      if (['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'].includes(p.type)) s.tools.add(p.call_id ?? p.id);
      if (p.type === 'tool_search_output') s.ended.add(p.call_id);
      if (['function_call_output', 'custom_tool_call_output'].includes(p.type)) {
        s.ended.add(p.call_id);
        let out = p.output as unknown;
        try {
          out = JSON.parse(String(p.output));
        } catch {
          /* plain text */
        }
        const exit = (out as O)?.metadata?.exit_code;
        if ((typeof exit === 'number' && exit !== 0) || /^failed in sandbox|rejected by user/.test(String(p.output))) s.failed.add(p.call_id);
        // Codex's own refusals and failures as 0.163 / 0.171 word them (literal, from the recordings).
        if (typeof p.output === 'string' && ['patch rejected', 'approval policy is Never; reject command', 'apply_patch verification failed:', 'unsupported call: '].some((w) => p.output.startsWith(w))) s.failed.add(p.call_id);
        if (typeof p.output === 'string' && p.output.startsWith('exec_command failed:') && p.output.includes('rejected by user')) s.failed.add(p.call_id);
        if (/^Process exited with code [1-9]/m.test(String(p.output).split('Output:')[0] ?? '')) s.failed.add(p.call_id);
      }
      if (p.type === 'web_search_call') {
        s.tools.add(p.id);
        s.ended.add(p.id);
      }
      if (p.type === 'item_completed' && ROLLOUT_ITEM_TOOLS.has(p.item?.type)) {
        s.tools.add(p.item.id);
        s.ended.add(p.item.id);
        if (p.item.status === 'failed') s.failed.add(p.item.id);
      }
      if (p.type === 'message' || p.type === 'reasoning') if (p.id) s.nonTool.add(p.id);
      continue;
    }
    // app-server (bare or {dir, msg})
    const m = (o.msg ?? o) as O;
    if (m.method === 'item/started' || m.method === 'item/completed') {
      const item = m.params.item as O;
      if (APP_NON_TOOLS.has(item.type)) {
        s.nonTool.add(item.id);
        continue;
      }
      s.tools.add(item.id);
      if (m.method === 'item/completed') {
        s.ended.add(item.id);
        if (item.status === 'failed' || item.status === 'declined') s.failed.add(item.id);
      }
    }
    if (m.method === 'turn/plan/updated') {
      s.tools.add(`${m.params.turnId}/plan`);
      planTurns.add(m.params.turnId);
    }
    if (m.method === 'turn/completed' && planTurns.has(m.params.turn.id)) s.ended.add(`${m.params.turn.id}/plan`);
  }
  return s;
}
