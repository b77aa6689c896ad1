// Valid lines, one per provider, with a JSON array nested `depth` levels deep inside a tool's input
// (Codex: the MCP call's arguments; OpenCode: the tool state's input; ACP: rawInput and rawOutput).
// Built as text: JSON.stringify itself overflows the stack on such values.
export const DEEP_TOKEN = '"@@deep@@"';

export function deepArrayText(depth: number): string {
  return `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
}

const line = (v: unknown, depth: number): string => JSON.stringify(v).replaceAll(DEEP_TOKEN, deepArrayText(depth));
const deep = '@@deep@@';

export function deepSession(provider: 'claude' | 'codex' | 'opencode' | 'acp', depth: number): string {
  const lines: unknown[] = {
    claude: [
      { type: 'system', subtype: 'init', cwd: '/w', session_id: 's1', tools: ['Bash'] },
      { type: 'assistant', session_id: 's1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__probe__echo', input: { deep } }] } },
      { type: 'user', session_id: 's1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
    ],
    codex: [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'item.started', item: { id: 'item_1', type: 'mcp_tool_call', server: 's', tool: 't', arguments: { deep }, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'mcp_tool_call', server: 's', tool: 't', arguments: { deep }, status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } } },
    ],
    opencode: [
      { type: 'tool_use', timestamp: 1796025019067, sessionID: 'ses_1', part: { type: 'tool', tool: 'bash', callID: 'call_1', state: { status: 'completed', input: { command: 'ls', deep }, output: 'ok', metadata: {}, title: 'ls', time: { start: 1796025018890, end: 1796025018898 } }, id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1' } },
    ],
    acp: [
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'pending', rawInput: { deep } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }], rawOutput: { deep } } } },
    ],
  }[provider];
  return `${lines.map((l) => line(l, depth)).join('\n')}\n`;
}
