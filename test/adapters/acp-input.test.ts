// `--from acp` on other agents' frames, both protocol versions: the fixtures under fixtures/acp
// (real frames of claude-agent-acp 0.101.0, written by scripts/acp-peer-frames.ts, plus the AIR and
// codex-acp profiles written by hand) and small hand-made streams that each show one rule next to
// its control case.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import { collect } from '../../src/pipeline/collect.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { fixturePath } from '../helpers/golden-cases.js';

type Obj = Record<string, unknown>;
const acp = adapterById('acp')!;
const claude = adapterById('claude')!;
const read = (text: string) => collect(acp, text);
const lines = (frames: unknown[]) => frames.map((f) => JSON.stringify(f)).join('\n') + '\n';
const up = (sessionId: string, update: Obj) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
const init = (v: number) => [{ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: v } }, { jsonrpc: '2.0', id: 0, result: { protocolVersion: v } }];
const byId = (parts: NormalizedToolPart[]) => new Map(parts.map((p) => [p.id, p]));
const errorCode = (p: NormalizedToolPart | undefined) => (p?.state === 'error' ? p.error.code : undefined);

const CASES = ['peer-v1-plain', 'peer-v1-terminal', 'peer-v1-air', 'peer-v2', 'permission-denied-v1', 'permission-denied-v2', 'air-hand', 'codex-mcp-hand'] as const;
const fixture = (c: string) => readFileSync(fixturePath(`acp/${c}`, `${c}.jsonl`), 'utf8');
const framesOf = (c: string) => fixture(c).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);

/** Every exit status and terminal text the input carries, by call id (read straight from the frames). */
function terminalsIn(frames: Obj[]): Map<string, { exit?: number | null; data: string }> {
  const out = new Map<string, { exit?: number | null; data: string }>();
  const at = (id: string) => out.get(id) ?? (out.set(id, { data: '' }), out.get(id)!);
  for (const f of frames) {
    const u = (f.params as Obj | undefined)?.update as Obj | undefined;
    if (!u) continue;
    const meta = (u._meta ?? {}) as Obj;
    const id = String(u.toolCallId ?? u.terminalId);
    const exit = meta.terminal_exit as Obj | undefined;
    if (exit) at(id).exit = exit.exit_code as number | null;
    if (meta.terminal_output) at(id).data = String((meta.terminal_output as Obj).data);
    if (meta.terminal_output_delta) at(id).data += String((meta.terminal_output_delta as Obj).data);
    if (u.sessionUpdate === 'terminal_update') {
      if (u.output) at(id).data = Buffer.from(String((u.output as Obj).data), 'base64').toString('utf8');
      if (u.exitStatus) at(id).exit = ((u.exitStatus as Obj).exitCode as number | undefined) ?? null;
    }
  }
  return out;
}

describe('fixtures/acp: every profile decodes whole', () => {
  it.each(CASES)('%s: no malformed line, no unknown_part noise; terminal output and exit code kept on each call', (c) => {
    const r = read(fixture(c));
    expect(r.diagnostics.map((d) => d.code)).toEqual([]);
    const parts = byId(r.parts);
    const terminals = terminalsIn(framesOf(c));
    for (const [id, t] of terminals) {
      const p = parts.get(id);
      expect(p, id).toBeDefined();
      if (t.exit !== undefined) expect(p!.metadata?.exitCode, id).toBe(t.exit);
      if (!t.data) continue;
      if (p!.state === 'complete') expect(JSON.stringify(p!.output), id).toContain(JSON.stringify(t.data.trim()).slice(1, -1));
      else if (p!.state === 'error') expect(p!.error.message, id).toContain(t.data.trim());
      else expect.unreachable(`${id} is still ${p!.state}`);
    }
    // A non-zero exit is the failure's code, not a generic tool error.
    for (const [id, t] of terminals) if (typeof t.exit === 'number' && t.exit !== 0) expect(errorCode(parts.get(id)), id).toBe('exit_nonzero');
  });

  it('terminal fixtures are not vacuous: each carries exit codes and output', () => {
    for (const c of ['peer-v1-terminal', 'peer-v1-air', 'peer-v2', 'air-hand', 'codex-mcp-hand']) {
      const t = [...terminalsIn(framesOf(c)).values()];
      expect(t.filter((x) => x.exit !== undefined).length, c).toBeGreaterThanOrEqual(1);
      expect(t.filter((x) => x.data).length, c).toBeGreaterThanOrEqual(1);
    }
  });

  it.each(['permission-denied-v1', 'permission-denied-v2'])('%s: the rejected edit is denied, with the exchange as tool.approval events and a typed metadata.approval; the plan is a todo part', (c) => {
    const r = read(fixture(c));
    const parts = byId(r.parts);
    const edit = parts.get('toolu_edit1')!;
    expect(edit.kind).toBe('file_edit');
    expect(errorCode(edit)).toBe('denied');
    // The request's options as offered, the answer's option, the state the answer gives.
    expect(edit.metadata?.approval).toMatchObject({ state: 'denied', source: 'user', optionId: 'reject' });
    expect(edit.metadata?.approval?.options?.map((o) => [o.id, o.kind])).toEqual([['allow', 'allow_once'], ['allow_always', 'allow_always'], ['reject', 'reject_once']]);
    const approvals = r.events.filter((e) => e.partId === 'toolu_edit1' && e.type.startsWith('tool.approval.')).map((e) => [e.type, (e as { approval: { state: string } }).approval.state]);
    expect(approvals).toEqual([['tool.approval.requested', 'pending'], ['tool.approval.resolved', 'denied']]);
    const plan = [...parts.values()].find((p) => p.kind === 'todo')!;
    expect(plan.state).toBe('complete');
    expect(plan.state === 'complete' && plan.output).toEqual({ text: '[~] Editing\n[ ] Run the tests' });
  });

  it('child sessions: AIR subagent_spawned parents the child session\'s calls; the parent call routed to the child stays one part', () => {
    const r = read(fixture('air-hand'));
    const parts = byId(r.parts);
    expect(parts.get('toolu_child_bash')!.metadata?.parentId).toBe('toolu_agent1');
    expect(parts.get('toolu_agent1')!.metadata?.childSessionId).toBe('air-child-1');
    expect(r.parts.filter((p) => p.id === 'toolu_agent1')).toHaveLength(1);
    expect(parts.get('toolu_agent1')!.state).toBe('complete');
    // claude-agent-acp's in-session children (parentToolUseId) in every peer profile.
    for (const c of ['peer-v1-plain', 'peer-v1-terminal', 'peer-v1-air', 'peer-v2']) {
      const p = byId(read(fixture(c)).parts);
      expect([p.get('toolu_mock010_0')!.metadata?.parentId, p.get('toolu_mock010_1')!.metadata?.parentId], c).toEqual(['toolu_mock009_0', 'toolu_mock009_0']);
    }
  });

  it('MCP: AIR stamps and codex-acp is_mcp_tool_call give metadata.mcp and the mcp kind; the title comes from the registry', () => {
    const air = byId(read(fixture('air-hand')).parts).get('toolu_mcp1')!;
    expect([air.kind, air.metadata?.mcp]).toEqual(['mcp', { server: 'probe', tool: 'echo' }]);
    // AIR's payload is read in part; the whole of it stays in metadata.acp.meta.
    expect((air.metadata?.acp as Obj).meta).toEqual({ jetbrains: { air: { version: 1, mcp: { server: 'probe', tool: 'echo' } } } });
    const codex = byId(read(fixture('codex-mcp-hand')).parts).get('call_mcp1')!;
    expect([codex.name, codex.kind, codex.metadata?.mcp, codex.title]).toEqual(['create_issue', 'mcp', { server: 'github', tool: 'create_issue' }, 'Create issue (github)']);
    // Control: the same frame without `_meta.is_mcp_tool_call` is the command codex-acp's kind says.
    const plain = framesOf('codex-mcp-hand').map((f) => JSON.parse(JSON.stringify(f).replace(',"_meta":{"is_mcp_tool_call":true}', '')) as Obj);
    const bare = byId(read(lines(plain)).parts).get('call_mcp1')!;
    expect([bare.kind, bare.metadata?.mcp]).toEqual(['bash', undefined]);
  });

  it('AIR async tasks land on the call that started them (metadata.task)', () => {
    const bg = byId(read(fixture('air-hand')).parts).get('toolu_bg1')!;
    expect(bg.metadata?.task).toMatchObject({ asyncTaskId: 'task-1', state: 'failed', summary: 'tests failed', last: 'async_task_state_update' });
  });
});

describe('the same calls read from the Claude stream and from the peer\'s ACP frames of it', () => {
  const stream = readFileSync(fixturePath('claude/streamjson-all-tools', 'streamjson-all-tools.jsonl'), 'utf8');
  const fromClaude = byId(collect(claude, stream).parts);

  it.each(['peer-v1-plain', 'peer-v1-terminal', 'peer-v1-air', 'peer-v2'])('%s: same kind, state and error code for every call both have', (c) => {
    const fromAcp = read(fixture(c)).parts.filter((p) => p.kind !== 'todo' || fromClaude.has(p.id));
    const shared = fromAcp.filter((p) => fromClaude.has(p.id));
    // Every call but TodoWrite (the peer sends it as a plan, not a call) is in both.
    expect(shared.length).toBe(fromClaude.size - 1);
    const view = (p: NormalizedToolPart | undefined) => [p?.kind, p?.state, errorCode(p)];
    for (const p of shared) expect(view(p), p.id).toEqual(view(fromClaude.get(p.id)));
    // Not vacuous: the stream has failures of several codes, and they agree.
    expect(new Set(shared.map(errorCode).filter(Boolean))).toEqual(new Set(['exit_nonzero', 'not_found', 'tool_error', 'denied']));
  });
});

describe('v2 frames', () => {
  const call = { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'in_progress', rawInput: { command: 'ls' }, content: [{ type: 'terminal', terminalId: 'term1' }] };

  it('an upsert starts a call without unknown_part once initialize says v2; on a v1 stream it is reported (control)', () => {
    expect(read(lines([...init(2), up('s', call)])).diagnostics).toEqual([]);
    expect(read(lines([...init(1), up('s', call)])).diagnostics.map((d) => d.code)).toEqual(['unknown_part']);
  });

  it('terminal_update (base64 snapshot, exitStatus) and terminal_output_chunk reach the call showing the terminal, detected as v2 without initialize', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const r = read(lines([
      up('s', call),
      up('s', { sessionUpdate: 'terminal_update', terminalId: 'term1', output: { data: b64('a\n') } }),
      up('s', { sessionUpdate: 'terminal_output_chunk', terminalId: 'term1', data: b64('b\n') }),
      up('s', { sessionUpdate: 'terminal_update', terminalId: 'term1', exitStatus: { exitCode: 2 } }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' }),
    ]));
    const p = r.parts[0]!;
    expect([p.state, errorCode(p), p.metadata?.exitCode, p.state === 'error' && p.error.message]).toEqual(['error', 'exit_nonzero', 2, 'a\nb']);
  });

  it('state_update idle with stopReason cancelled ends the open calls as cancelled; a plain idle leaves them (control)', () => {
    const frames = (stopReason: string) => [
      ...init(2),
      up('s', { ...call, toolCallId: 'open1' }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'done1', title: 'x', kind: 'read', status: 'completed' }),
      up('s', { sessionUpdate: 'state_update', state: 'idle', stopReason }),
    ];
    const cancelled = byId(read(lines(frames('cancelled'))).parts);
    expect([errorCode(cancelled.get('open1')), cancelled.get('done1')!.state]).toEqual(['cancelled', 'complete']);
    expect(byId(read(lines(frames('end_turn'))).parts).get('open1')!.state).toBe('running');
  });

  it('cancelled is an error coded cancelled; paused is running; null clears a field (v1: leaves it, control); content chunks append', () => {
    const frames = (v: number) => [
      ...init(v),
      up('s', { ...call, toolCallId: 'c1', content: [] }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'cancelled' }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'p1', title: 'wait', status: 'paused' }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'n1', title: 'read', kind: 'read', status: 'in_progress', rawOutput: { x: 1 } }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'n1', kind: null }),
      up('s', { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'n1', content: { type: 'content', content: { type: 'text', text: 'one' } } }),
      up('s', { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'n1', content: { type: 'diff', changes: [{ operation: 'add', path: '/a' }] } }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'n1', status: 'completed', rawOutput: null }),
    ];
    const r = read(lines(frames(2)));
    const p = byId(r.parts);
    expect(errorCode(p.get('c1'))).toBe('cancelled');
    expect(p.get('p1')!.state).toBe('running');
    const n = p.get('n1')!;
    // kind cleared: nothing names the tool any more; rawOutput cleared too, so the shown text is the output.
    expect(n.kind).toBe('unknown');
    expect(byId(read(lines(frames(1))).parts).get('n1')!.kind).toBe('file_read');
    expect(n.state === 'complete' && n.output).toEqual({ text: 'one' });
    expect((n.metadata?.acp as Obj).content).toEqual([{ type: 'diff', changes: [{ operation: 'add', path: '/a' }] }]);
  });
});

describe('v1 client extensions and the rules around them', () => {
  it('Zed terminal convention: without reading it (control: the keys stripped) the output and exit code are gone', () => {
    const frames = framesOf('peer-v1-terminal');
    const withExt = byId(read(lines(frames)).parts).get('toolu_mock007_0')!;
    expect([withExt.metadata?.exitCode, errorCode(withExt)]).toEqual([3, 'exit_nonzero']);
    const stripped = frames.map((f) => {
      const u = (f.params as Obj | undefined)?.update as Obj | undefined;
      if (u?._meta) for (const k of ['terminal_output', 'terminal_exit', 'terminal_info']) delete (u._meta as Obj)[k];
      return f;
    });
    const without = byId(read(lines(stripped)).parts).get('toolu_mock007_0')!;
    expect([without.metadata?.exitCode, errorCode(without)]).toEqual([undefined, 'tool_error']);
  });

  it('a refusal is denied because of the answer: the same failure text without the reject answer is a tool error (control)', () => {
    const frames = [
      ...init(1),
      up('s', { sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Edit a', kind: 'edit', status: 'pending' }),
      { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'e1' }, options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }, { optionId: 'yes', name: 'Yes', kind: 'allow_once' }] } },
      { jsonrpc: '2.0', id: 3, result: { outcome: { outcome: 'selected', optionId: 'no' } } },
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'stopped' } }] }),
    ];
    expect(errorCode(read(lines(frames)).parts[0])).toBe('denied');
    expect(errorCode(read(lines(frames.filter((f) => !('id' in f) || f.id === 0))).parts[0])).toBe('tool_error');
    // Allowed, the same failure stays a tool error.
    const allowed = frames.map((f) => ('result' in f && f.id === 3 ? { ...f, result: { outcome: { outcome: 'selected', optionId: 'yes' } } } : f));
    expect(errorCode(read(lines(allowed)).parts[0])).toBe('tool_error');
    // Refused and never reported on again: it still ends, denied.
    expect(errorCode(read(lines(frames.slice(0, -1))).parts[0])).toBe('denied');
  });

  it('approvals, both versions: pending while unanswered, approved for allow_*, expired when cancelled, denied (with a diagnostic) for an option never offered', () => {
    const request = (v: number) => (v === 1
      ? { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 'e1' }, options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }, { optionId: 'yes', name: 'Yes', kind: 'allow_always' }] } }
      : { jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: { sessionId: 's', title: 'Allow Edit a?', description: 'writes outside the project', subject: { type: 'tool_call', toolCall: { toolCallId: 'e1' } }, options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }, { optionId: 'yes', name: 'Yes', kind: 'allow_always' }] } });
    const start = (v: number) => up('s', { sessionUpdate: v === 1 ? 'tool_call' : 'tool_call_update', toolCallId: 'e1', title: 'Edit a', kind: 'edit', status: 'pending' });
    const answer = (outcome: Obj) => ({ jsonrpc: '2.0', id: 3, result: { outcome } });
    const done = up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed' });
    for (const v of [1, 2]) {
      const run = (...rest: Obj[]) => read(lines([...init(v), start(v), request(v), ...rest]));
      const pending = run();
      expect(pending.parts[0]!.metadata?.approval, `v${v}`).toEqual({
        state: 'pending', source: 'user', options: [{ id: 'no', name: 'No', kind: 'reject_once' }, { id: 'yes', name: 'Yes', kind: 'allow_always' }],
        ...(v === 2 ? { reason: 'writes outside the project', detail: { title: 'Allow Edit a?' } } : {}),
      });
      expect(pending.parts[0]!.state).toBe('started');
      const approved = run(answer({ outcome: 'selected', optionId: 'yes' }), done);
      expect([approved.parts[0]!.state, approved.parts[0]!.metadata?.approval?.state, approved.parts[0]!.metadata?.approval?.optionId]).toEqual(['complete', 'approved', 'yes']);
      // The resolved approval keeps what the request offered.
      expect(approved.parts[0]!.metadata?.approval?.options).toHaveLength(2);
      const expired = run(answer({ outcome: 'cancelled' }));
      expect([expired.parts[0]!.metadata?.approval?.state, expired.parts[0]!.state]).toEqual(['expired', 'started']);
      const unoffered = run(answer({ outcome: 'selected', optionId: 'maybe' }));
      expect([unoffered.parts[0]!.metadata?.approval?.state, errorCode(unoffered.parts[0])]).toEqual(['denied', 'denied']);
      expect(unoffered.diagnostics.map((d) => d.code)).toEqual(['unclear_permission_answer']);
      expect(approved.diagnostics).toEqual([]);
    }
    // v2: the session's work cancelled while the request waits: it expires, and the call is cancelled.
    const cancelled = read(lines([...init(2), start(2), request(2), up('s', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' })]));
    expect([cancelled.parts[0]!.metadata?.approval?.state, errorCode(cancelled.parts[0])]).toEqual(['expired', 'cancelled']);
    // A late answer to it is not applied (control: answered before the cancel, it resolves).
    const late = read(lines([...init(2), start(2), request(2), up('s', { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' }), answer({ outcome: 'selected', optionId: 'yes' })]));
    expect(late.parts[0]!.metadata?.approval?.state).toBe('expired');
  });

  it('one call under two session ids is one part when the agent links the sessions; unlinked sessions stay apart (control)', () => {
    const spawn = up('P', { sessionUpdate: 'subagent_spawned', subagentSessionId: 'C', _meta: { claudeCode: { parentToolUseId: 'a1' } } });
    const frames = [
      up('P', { sessionUpdate: 'tool_call', toolCallId: 'a1', title: 'Explore', name: 'Agent', kind: 'think', status: 'pending' }),
      spawn,
      up('C', { sessionUpdate: 'tool_call_update', toolCallId: 'a1', status: 'in_progress' }),
      up('C', { sessionUpdate: 'tool_call', toolCallId: 'k1', title: 'ls', name: 'Bash', kind: 'execute', status: 'completed' }),
      up('P', { sessionUpdate: 'tool_call_update', toolCallId: 'a1', status: 'completed' }),
    ];
    const linked = read(lines(frames));
    expect(linked.parts.map((p) => p.id).sort()).toEqual(['a1', 'k1']);
    expect(byId(linked.parts).get('k1')!.metadata?.parentId).toBe('a1');
    const unlinked = read(lines(frames.filter((f) => f !== spawn)));
    expect(unlinked.parts.filter((p) => p.id === 'a1')).toHaveLength(2);
    expect(byId(unlinked.parts).get('k1')!.metadata?.parentId).toBeUndefined();
  });

  it('unknown session updates are counted in one diagnostic; unknown _meta keys are kept in metadata.acp.meta', () => {
    const r = read(lines([
      up('s', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind: 'read', status: 'completed', _meta: { 'vendor.example/trace': { id: 7 }, claudeCode: { toolName: 'Read' } } }),
      up('s', { sessionUpdate: 'future_update', a: 1 }),
      up('s', { sessionUpdate: 'future_update', a: 2 }),
    ]));
    expect(r.diagnostics.map((d) => [d.code, d.message.startsWith('2 session updates of kind future_update')])).toEqual([['unknown_session_update', true]]);
    expect((r.parts[0]!.metadata?.acp as Obj).meta).toEqual({ 'vendor.example/trace': { id: 7 } });
  });
});

describe('substance of other agents\' calls (metadata.files, command, search, plan)', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it.each(CASES)('%s: every edit/write has metadata.files with ops, every bash metadata.command with the exit its terminal said, every plan metadata.plan', (c) => {
    const r = read(fixture(c));
    const terminals = terminalsIn(framesOf(c));
    const counts = { files: 0, commands: 0, plans: 0, searches: 0 };
    for (const p of r.parts) {
      const m = p.metadata ?? {};
      if (p.kind === 'file_edit' || p.kind === 'file_write') {
        expect(m.files?.length, p.id).toBeGreaterThan(0);
        for (const f of m.files!) expect(['create', 'modify', 'delete', 'rename'], p.id).toContain(f.operation);
        counts.files++;
      }
      if (p.kind === 'bash') {
        expect(m.command?.command, p.id).toBeTruthy();
        const t = terminals.get(p.id);
        if (t?.exit !== undefined) expect(m.command!.exitCode, p.id).toBe(t.exit);
        counts.commands++;
      }
      if (p.kind === 'todo') {
        expect(m.plan?.entries.length, p.id).toBeGreaterThan(0);
        counts.plans++;
      }
      if (m.search) counts.searches++;
    }
    console.log(`[acp substance] ${c}: ${r.parts.length} parts, ${counts.files} with files, ${counts.commands} with command, ${counts.plans} with plan, ${counts.searches} with search`);
    expect(counts.files + counts.commands + counts.plans, c).toBeGreaterThan(0);
  });

  it('v1 diffs give the diff of the texts as given; a creation has oldText null', () => {
    const parts = byId(read(fixture('peer-v1-plain')).parts);
    expect(parts.get('toolu_mock003_0')!.metadata?.files).toEqual([{ path: '/home/user/demo-claude/work-full/sample.txt', operation: 'modify', oldText: 'world', newText: 'there', stats: { added: 1, removed: 1 }, diff: '--- /home/user/demo-claude/work-full/sample.txt\n+++ /home/user/demo-claude/work-full/sample.txt\n@@ -1 +1 @@\n-world\n\\ No newline at end of file\n+there\n\\ No newline at end of file\n' }]);
    expect(parts.get('toolu_mock004_0')!.metadata?.files).toMatchObject([{ path: '/home/user/demo-claude/work-full/new.txt', operation: 'create', oldText: null, newText: 'alpha\nbeta\n', stats: { added: 2, removed: 0 } }]);
    // Grep through claude-agent-acp is ACP kind search: its pattern and directory.
    expect(parts.get('toolu_mock005_0')!.metadata?.search).toEqual({ pattern: 'there', path: '/home/user/demo-claude/work-full' });
  });

  it('v2 diffs: changes give the ops, the git patch each file\'s section; locations of an edit no diff names are files too, a read\'s are not (control)', () => {
    const patch = 'diff --git /w/a.ts /w/a.ts\n--- /w/a.ts\n+++ /w/a.ts\n@@ -1 +1 @@\n-a\n+b\ndiff --git /w/b.ts /w/b.ts\nnew file mode 100644\n--- /dev/null\n+++ /w/b.ts\n@@ -0,0 +1 @@\n+c\n';
    const r = read(lines([
      ...init(2),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'e1', title: 'Edit', kind: 'edit', status: 'completed', locations: [{ path: '/w/a.ts' }, { path: '/w/c.ts' }], content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.ts' }, { operation: 'add', path: '/w/b.ts' }, { operation: 'move', oldPath: '/w/d.ts', path: '/w/e.ts' }], patch: { format: 'git_patch', text: patch } }] }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 'r1', title: 'Read', kind: 'read', status: 'completed', locations: [{ path: '/w/a.ts' }] }),
    ]));
    const p = byId(r.parts);
    expect(p.get('e1')!.metadata?.files).toEqual([
      { path: '/w/a.ts', operation: 'modify', diff: 'diff --git /w/a.ts /w/a.ts\n--- /w/a.ts\n+++ /w/a.ts\n@@ -1 +1 @@\n-a\n+b\n', stats: { added: 1, removed: 1 } },
      { path: '/w/b.ts', operation: 'create', diff: 'diff --git /w/b.ts /w/b.ts\nnew file mode 100644\n--- /dev/null\n+++ /w/b.ts\n@@ -0,0 +1 @@\n+c\n', stats: { added: 1, removed: 0 } },
      { path: '/w/e.ts', operation: 'rename', from: '/w/d.ts' },
      { path: '/w/c.ts', operation: 'modify' },
    ]);
    expect(p.get('r1')!.metadata?.files).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
  });

  it('the command comes from the input, else the v2 terminal, else an execute call\'s title; its exit from the terminal', () => {
    const r = read(lines([
      ...init(2),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'x' }] }),
      up('s', { sessionUpdate: 'terminal_update', terminalId: 'x', command: 'npm test', cwd: '/w', output: { data: b64('1 failed\n') } }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' }),
      up('s', { sessionUpdate: 'terminal_update', terminalId: 'x', exitStatus: { exitCode: 1 } }),
      up('s', { sessionUpdate: 'tool_call_update', toolCallId: 't2', title: 'git status', kind: 'execute', status: 'completed' }),
    ]));
    const p = byId(r.parts);
    expect(p.get('t1')!.metadata?.command).toEqual({ command: 'npm test', cwd: '/w', exitCode: 1 });
    expect(errorCode(p.get('t1'))).toBe('exit_nonzero');
    expect(p.get('t2')!.metadata?.command).toEqual({ command: 'git status' });
    // The end event itself carries the exit: the call's end waited for its terminal.
    const failed = r.events.find((e) => e.partId === 't1' && e.type === 'tool.failed') as { error?: { code?: string } } | undefined;
    expect(failed?.error?.code).toBe('exit_nonzero');
  });

  it('toolnorm\'s own frames keep the metadata they carry, nothing added; the same frames without _meta.toolnorm (control) gain the substance', async () => {
    const { encodeParts } = await import('../../src/acp/encoder.js');
    const bash: NormalizedToolPart = { id: 'b1', name: 'Bash', kind: 'bash', title: 'ls', input: { command: 'ls' }, state: 'complete', output: { text: 'a\n' }, metadata: { provider: 'claude', rawType: 'tool_use:Bash' } };
    const frames = encodeParts('s', [bash]).map((f) => ({ jsonrpc: '2.0', method: 'session/update', params: f }));
    expect(read(lines(frames)).parts).toEqual([bash]);
    const stripped = frames.map((f) => { const u = { ...(f.params.update as unknown as Obj) }; delete u._meta; return { ...f, params: { ...f.params, update: u } }; });
    expect(read(lines(stripped)).parts[0]!.metadata?.command).toEqual({ command: 'ls' });
  });
});
