// `npx tsx scripts/acp-peer-frames.ts`: writes the ACP input fixtures under fixtures/acp/ from the
// installed peer, @agentclientprotocol/claude-agent-acp (exact-pinned devDependency), driven in
// process the way bench/peer.ts drives it: per session a toolUseCache, emittedToolCalls,
// ToolCallFieldTracker, taskState and streamedToolInputs; `stream_event` lines go to
// streamEventToAcpNotifications, `assistant`/`user` lines to toAcpNotifications with
// `registerHooks: false`. v2 frames are the peer's own v1 → v2 translation (dist/v2:
// v2SessionUpdate, V2Terminals.split, v2PermissionRequest), as its v2 surface sends them.
//
// What the peer cannot produce offline is built here and said so in each case.json: the
// `session/request_permission` exchange (the peer asks from inside a live SDK query) wraps the
// peer's own frames of the call it is about; the JetBrains AIR and codex-acp profiles are written
// by hand from docs/providers/acp.md (the peer's AIR code needs a live SDK session, and codex-acp
// is not installed).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Obj = Record<string, unknown>;
type Note = { sessionId: string; update: Obj };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'fixtures', 'acp');
const PEER = '@agentclientprotocol/claude-agent-acp';

const peer = (await import(PEER)) as unknown as { toAcpNotifications: (...a: unknown[]) => Note[]; streamEventToAcpNotifications: (...a: unknown[]) => Note[] };
const { ToolCallFieldTracker } = (await import(`${PEER}/dist/tool-calls/field-tracker.js`)) as { ToolCallFieldTracker: new () => unknown };
const v2 = (await import(`${PEER}/dist/v2/session-update.js`)) as { v2SessionUpdate: (u: Obj) => Obj | undefined };
const v2t = (await import(`${PEER}/dist/v2/terminal.js`)) as { V2Terminals: new () => { split(s: string, u: Obj): { terminal: Obj[]; report?: Obj } } };
const v2p = (await import(`${PEER}/dist/v2/permission.js`)) as { v2PermissionRequest: (r: Obj) => Obj };
const diff = (await import(`${PEER}/dist/diff.js`)) as { v2DiffContent: (path: string, change: 'create' | 'update') => Obj };

/**
 * A v1 diff in the v2 form the peer builds for a v2 client when it cannot read the file
 * (`v2DiffContent(path, create|update)`, its "standard" diff): offline there is no file to patch.
 */
function v2Diffs(u: Obj): Obj {
  if (!Array.isArray(u.content)) return u;
  return { ...u, content: (u.content as Obj[]).map((c) => (c.type === 'diff' && typeof c.path === 'string' ? diff.v2DiffContent(c.path, c.oldText == null ? 'create' : 'update') : c)) };
}

/** What a JetBrains AIR client announces (`clientCapabilities._meta`), as the peer's air-extension.js reads it. */
const AIR_CLIENT = { terminal_output: true, jetbrains: { air: { version: 1, capabilities: ['nativeSubagentSessions', 'asyncTasks', 'rawInputRendering'] } } };

/** The peer's v1 notifications for a Claude stream-json recording, as its agent loop makes them. */
function peerV1(lines: readonly string[], terminal: boolean, air = false): Note[] {
  const clientCapabilities = air ? { _meta: AIR_CLIENT } : terminal ? { _meta: { terminal_output: true } } : {};
  const client = { sessionUpdate: async () => {}, requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
  const logger = { log: () => {}, error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
  const sessions = new Map<string, Obj & { streamedText: Set<string> }>();
  const out: Note[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as Obj;
    const sessionId = String(m.session_id ?? 'session');
    let s = sessions.get(sessionId);
    if (!s) sessions.set(sessionId, (s = { toolUseCache: {}, emittedToolCalls: new Set(), toolCallFields: new ToolCallFieldTracker(), taskState: new Map(), streamedToolInputs: new Map(), streamedText: new Set<string>() }));
    if (m.type === 'system' && typeof m.cwd === 'string') { s.cwd = m.cwd; continue; }
    const parent = typeof m.parent_tool_use_id === 'string' ? m.parent_tool_use_id : null;
    const opts = { clientCapabilities, cwd: s.cwd, taskState: s.taskState, emittedToolCalls: s.emittedToolCalls, toolCallFields: s.toolCallFields };
    if (m.type === 'stream_event') {
      out.push(...peer.streamEventToAcpNotifications(m, sessionId, s.toolUseCache, client, logger, { ...opts, streamedToolInputs: s.streamedToolInputs }));
      continue;
    }
    if (m.type !== 'assistant' && m.type !== 'user') continue;
    const message = m.message as Obj;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    out.push(...peer.toAcpNotifications(message.content, role, sessionId, s.toolUseCache, client, logger, {
      ...opts, registerHooks: false, parentToolUseId: parent, messageId: typeof message.id === 'string' ? message.id : undefined,
      toolUseResult: m.type === 'user' ? (m.tool_use_result ?? m.toolUseResult) : undefined,
    }));
  }
  return out;
}

/** The peer's v2 form of its v1 notifications (terminal extension keys become terminal updates). */
function toV2(notes: readonly Note[]): Note[] {
  const terminals = new v2t.V2Terminals();
  const out: Note[] = [];
  for (const n of notes) {
    const u = n.update;
    if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
      const { terminal, report } = terminals.split(n.sessionId, v2Diffs(u));
      if (report) out.push({ sessionId: n.sessionId, update: v2.v2SessionUpdate(report)! });
      for (const t of terminal) out.push({ sessionId: n.sessionId, update: t });
      continue;
    }
    try {
      const v = v2.v2SessionUpdate(u);
      if (v) out.push({ sessionId: n.sessionId, update: v });
    } catch {
      // A v1 update the peer's v2 surface does not translate (it throws by design): not sent on v2.
    }
  }
  return out;
}

const rpc = (n: Note) => ({ jsonrpc: '2.0', method: 'session/update', params: n });
const initialize = (version: number, meta?: Obj) => [
  { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, clientCapabilities: meta ? { _meta: meta } : {} } },
  { jsonrpc: '2.0', id: 0, result: { protocolVersion: version, agentCapabilities: {} } },
];

function writeCase(id: string, about: string, file: string, lines: readonly unknown[], note: string, diagnostics: string[] = []): void {
  const dir = join(OUT, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(dir, 'case.json'), JSON.stringify({ about: `${about}. Source: ${note}.`, from: 'acp', goldens: [{ name: id, inputs: [file], ...(diagnostics.length ? { diagnostics } : {}) }] }, null, 2) + '\n');
}

const allTools = readFileSync(join(ROOT, 'fixtures', 'claude', 'streamjson-all-tools', 'streamjson-all-tools.jsonl'), 'utf8').split('\n');
const FROM_PEER = `generated by scripts/acp-peer-frames.ts from fixtures/claude/streamjson-all-tools with ${PEER} 0.101.0`;

writeCase('peer-v1-plain', 'claude-agent-acp 0.101.0 v1 frames of the Claude all-tools stream, client without terminal support', 'peer-v1-plain.jsonl',
  [...initialize(1), ...peerV1(allTools, false).map(rpc)], `${FROM_PEER} (no client capabilities)`);
const terminalV1 = peerV1(allTools, true);
writeCase('peer-v1-terminal', 'claude-agent-acp 0.101.0 v1 frames of the Claude all-tools stream, client announcing _meta.terminal_output (Zed terminal convention)', 'peer-v1-terminal.jsonl',
  [...initialize(1, { terminal_output: true }), ...terminalV1.map(rpc)], `${FROM_PEER} (clientCapabilities._meta.terminal_output)`);
writeCase('peer-v2', 'claude-agent-acp 0.101.0 v2 frames of the Claude all-tools stream: upserts, terminal_update with base64 output and exitStatus, plan_update', 'peer-v2.jsonl',
  [...initialize(2), ...toV2(terminalV1).map(rpc)], `${FROM_PEER}, translated by the peer's own dist/v2 (v2SessionUpdate, V2Terminals.split); v1 diffs become the peer's v2DiffContent(path, create|update), the diff it sends a v2 client when it cannot read the file`);

writeCase('peer-v1-air', 'claude-agent-acp 0.101.0 v1 frames of the Claude all-tools stream for a JetBrains AIR client (_meta.jetbrains.air: mcp, subagent, commandTitle)', 'peer-v1-air.jsonl',
  [...initialize(1, AIR_CLIENT), ...peerV1(allTools, true, true).map(rpc)], `${FROM_PEER} (clientCapabilities._meta.jetbrains.air and terminal_output)`);

// A denied edit and a plan: the peer converts the Claude lines; the permission exchange around the
// Edit is built here from the peer's own tool_call frame (its permission path needs a live query).
const SID = 'perm-session';
const denied = [
  { type: 'system', subtype: 'init', cwd: '/repo', session_id: SID },
  { type: 'assistant', session_id: SID, parent_tool_use_id: null, message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_plan1', name: 'TodoWrite', input: { todos: [{ content: 'Edit the config', status: 'in_progress', activeForm: 'Editing' }, { content: 'Run the tests', status: 'pending', activeForm: 'Testing' }] } }] } },
  { type: 'user', session_id: SID, parent_tool_use_id: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_plan1', content: 'Todos have been modified successfully.' }] } },
  { type: 'assistant', session_id: SID, parent_tool_use_id: null, message: { id: 'msg_2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_edit1', name: 'Edit', input: { file_path: '/repo/config.json', old_string: '"debug": false', new_string: '"debug": true' } }] } },
  { type: 'user', session_id: SID, parent_tool_use_id: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_edit1', is_error: true, content: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed." }] } },
].map((l) => JSON.stringify(l));
const deniedNotes = peerV1(denied, false);
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
function withPermission(notes: Note[], version: 1 | 2): unknown[] {
  const out: unknown[] = [];
  for (const n of notes) {
    out.push(rpc(n));
    if (n.update.sessionUpdate !== 'tool_call' && !(version === 2 && n.update.sessionUpdate === 'tool_call_update' && n.update.toolCallId === 'toolu_edit1' && n.update.title)) continue;
    if (n.update.toolCallId !== 'toolu_edit1') continue;
    const { sessionUpdate: _s, ...toolCall } = n.update;
    const request = { sessionId: n.sessionId, toolCall, options: OPTIONS, title: `Allow ${String(n.update.title)}?` };
    const params = version === 2 ? v2p.v2PermissionRequest({ ...request, toolCall: v2Diffs(toolCall) }) : { sessionId: n.sessionId, toolCall, options: OPTIONS };
    out.push({ jsonrpc: '2.0', id: 7, method: 'session/request_permission', params });
    out.push({ jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'selected', optionId: 'reject' } } });
  }
  return out;
}
const PERM_NOTE = `the Claude lines are inline in scripts/acp-peer-frames.ts, converted by ${PEER} 0.101.0; the session/request_permission request and the client's reject answer are built by the script around the peer's own Edit tool_call (the peer asks for permission only from inside a live SDK query)`;
writeCase('permission-denied-v1', 'v1: a plan (TodoWrite → plan) and an Edit the client rejected through session/request_permission', 'permission-denied-v1.jsonl',
  [...initialize(1), ...withPermission(deniedNotes, 1)], PERM_NOTE);
writeCase('permission-denied-v2', 'v2: the same plan (plan_update) and the rejected Edit, with the v2 permission request (title, subject.toolCall)', 'permission-denied-v2.jsonl',
  [...initialize(2), ...withPermission(toV2(deniedNotes), 2)], `${PERM_NOTE}; v2 forms by the peer's dist/v2 (v2SessionUpdate, v2PermissionRequest)`);

// JetBrains AIR: by hand, from the shapes of the peer's dist/air-extension.js, native-subagents.js
// and async-tasks.js (docs/providers/acp.md, "Client extensions").
const P = 'air-parent';
const C = 'air-child-1';
const up = (sessionId: string, update: Obj) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
const air = [
  ...initialize(1, AIR_CLIENT),
  up(P, { sessionUpdate: 'tool_call', toolCallId: 'toolu_agent1', title: 'Explore the repo', name: 'Agent', kind: 'think', status: 'pending', rawInput: { description: 'Explore the repo', prompt: 'List the files', subagent_type: 'Explore' }, _meta: { claudeCode: { toolName: 'Agent' } } }),
  up(P, { sessionUpdate: 'subagent_spawned', subagentSessionId: C, name: 'Explore', task: 'Explore the repo', prompt: 'List the files', capabilities: {}, _meta: { claudeCode: { parentToolUseId: 'toolu_agent1' } } }),
  up(C, { sessionUpdate: 'tool_call', toolCallId: 'toolu_child_bash', title: 'ls', name: 'Bash', kind: 'execute', status: 'pending', rawInput: { command: 'ls' }, content: [{ type: 'terminal', terminalId: 'toolu_child_bash' }], _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: 'toolu_child_bash', cwd: '/repo' } } }),
  up(C, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_child_bash', status: 'in_progress', _meta: { terminal_output_delta: { terminal_id: 'toolu_child_bash', data: 'README.md\n' } } }),
  up(C, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_child_bash', _meta: { terminal_output_delta: { terminal_id: 'toolu_child_bash', data: 'src\n' } } }),
  up(C, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_child_bash', status: 'completed', _meta: { terminal_exit: { terminal_id: 'toolu_child_bash', exit_code: 0, signal: null } } }),
  // The parent's Agent call, routed to the child session that owns it (one call, two session ids).
  up(C, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_agent1', status: 'in_progress' }),
  up(P, { sessionUpdate: 'tool_call', toolCallId: 'toolu_mcp1', title: 'echo', name: 'mcp__probe__echo', kind: 'other', status: 'pending', rawInput: { text: 'hi' }, _meta: { claudeCode: { toolName: 'mcp__probe__echo' }, jetbrains: { air: { version: 1, mcp: { server: 'probe', tool: 'echo' } } } } }),
  up(P, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_mcp1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'hi' } }] }),
  up(P, { sessionUpdate: 'tool_call', toolCallId: 'toolu_bg1', title: 'npm test', name: 'Bash', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm test', run_in_background: true }, _meta: { claudeCode: { toolName: 'Bash' } } }),
  up(P, { sessionUpdate: 'async_task_spawned', asyncTaskId: 'task-1', name: 'npm test', taskType: 'bash', description: 'npm test', showInTranscript: true, canStop: true, toolCallId: 'toolu_bg1' }),
  up(P, { sessionUpdate: 'async_task_progress', asyncTaskId: 'task-1', description: 'running' }),
  up(P, { sessionUpdate: 'async_task_state_update', asyncTaskId: 'task-1', state: 'failed', summary: 'tests failed' }),
  up(P, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_bg1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'Exit code 1\n1 failing' } }], _meta: { terminal_exit: { terminal_id: 'toolu_bg1', exit_code: 1, signal: null } } }),
  up(P, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_agent1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'README.md, src' } }] }),
];
writeCase('air-hand', 'JetBrains AIR profile: a native child session (subagent_spawned) with terminal_output_delta, the parent call routed to the child session, _meta.jetbrains.air.mcp, async_task_* for a background command', 'air-hand.jsonl', air,
  'written by hand in scripts/acp-peer-frames.ts from the shapes in claude-agent-acp 0.101.0 dist/native-subagents.js, async-tasks.js and air-extension.js: the peer sends these only from a live SDK session with an AIR client');

// codex-acp (TypeScript rewrite) MCP convention and a failing command: by hand, codex-acp is not installed.
const X = 'codex-session';
const codex = [
  ...initialize(1, { terminal_output: true }),
  up(X, { sessionUpdate: 'tool_call', toolCallId: 'call_mcp1', title: 'mcp.github.create_issue', kind: 'execute', status: 'in_progress', rawInput: { server: 'github', tool: 'create_issue', arguments: { title: 'Bug' } }, _meta: { is_mcp_tool_call: true } }),
  up(X, { sessionUpdate: 'tool_call_update', toolCallId: 'call_mcp1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'created #12' } }], rawOutput: { result: { content: [{ type: 'text', text: 'created #12' }] }, error: null } }),
  up(X, { sessionUpdate: 'tool_call', toolCallId: 'call_sh1', title: 'cargo test', kind: 'execute', status: 'in_progress', rawInput: { command: ['bash', '-lc', 'cargo test'] }, content: [{ type: 'terminal', terminalId: 'call_sh1' }], _meta: { terminal_info: { terminal_id: 'call_sh1', cwd: '/repo' } } }),
  up(X, { sessionUpdate: 'tool_call_update', toolCallId: 'call_sh1', _meta: { terminal_output: { terminal_id: 'call_sh1', data: 'error[E0308]: mismatched types\n' } } }),
  up(X, { sessionUpdate: 'tool_call_update', toolCallId: 'call_sh1', status: 'failed', rawOutput: { exit_code: 101 }, _meta: { terminal_exit: { terminal_id: 'call_sh1', exit_code: 101, signal: null } } }),
];
writeCase('codex-mcp-hand', 'codex-acp (TypeScript) profile: an MCP call (is_mcp_tool_call, title mcp.<server>.<tool>, kind execute) and a failing command on the terminal extension', 'codex-mcp-hand.jsonl', codex,
  'written by hand in scripts/acp-peer-frames.ts from codex-acp src/CodexToolCallMapper.ts as docs/providers/acp.md describes it: codex-acp is not installed here');
console.log(`wrote ${OUT}`);
