// What `npm run fuzz` found once OpenCode's SSE events, other agents' ACP frames and the times
// family joined it (issue 29), each through the CLI: the contract break it was, and what it is now.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-fuzz-finds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(provider: string, lines: unknown[]) {
  const file = join(dir, `${provider}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const r = await cli(['normalize', '--from', provider, '--summary', file]);
  const err = r.stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = err.pop() as { parts: number; invalidEvents: number };
  return { code: r.code, parts: r.lines as Record<string, unknown>[], diagnostics: err as { code: string; message: string }[], summary };
}

describe('ACP: a tool call with an empty sessionId (the contract wants at least one character)', () => {
  const call = (sessionId: string, toolCallId: string) => [
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call', toolCallId, title: 'Reading a.txt', kind: 'read', status: 'pending', rawInput: { path: 'a.txt' } } } },
    { jsonrpc: '2.0', id: `perm-${toolCallId}`, method: 'session/request_permission', params: { sessionId, toolCall: { toolCallId }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] } } },
  ];
  it('was 2 invalid events; now each such line is a malformed_line naming why, and the other session\'s call is whole', async () => {
    const r = await run('acp', [...call('', 'c1'), ...call('s1', 'c2')]);
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['malformed_line', 'malformed_line', 'malformed_line']);
    expect(r.diagnostics[0]!.message).toContain('empty sessionId');
    expect(r.parts.map((p) => [p.id, p.state])).toEqual([['c2', 'complete']]);
  });
});

describe('ACP: a permission request for an empty toolCallId', () => {
  it('was an invalid event (partId ""); now a malformed_line, and the call asked about by its id is whole', async () => {
    const r = await run('acp', [
      { jsonrpc: '2.0', id: 'p1', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: '' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
      { jsonrpc: '2.0', id: 'p1', result: { outcome: { outcome: 'selected', optionId: 'allow' } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c3', title: 'Reading a.txt', kind: 'read', status: 'pending' } } },
      { jsonrpc: '2.0', id: 'p2', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'c3' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } },
      { jsonrpc: '2.0', id: 'p2', result: { outcome: { outcome: 'selected', optionId: 'allow' } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c3', status: 'completed' } } },
    ]);
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.diagnostics.map((d) => d.code)).toContain('malformed_line');
    expect(r.diagnostics.map((d) => d.code)).not.toContain('invalid_event');
    expect(r.parts.map((p) => [p.id, p.state, (p.metadata as { approval?: { state?: string } } | undefined)?.approval?.state])).toEqual([['c3', 'complete', 'approved']]);
  });
});

describe('ACP: another agent\'s tool_call with kind ""', () => {
  it('was an invalid event (kind "" is no ToolKind); now the kind comes from the name, and the part is whole', async () => {
    const r = await run('acp', [
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'rm -rf build', name: 'commandExecution', kind: '', status: 'pending', rawInput: { command: 'rm -rf build' } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' } } },
    ]);
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.diagnostics).toEqual([]);
    expect(r.parts.map((p) => [p.id, p.kind, p.state])).toEqual([['c1', 'bash', 'complete']]);
  });
});

describe('Claude: tool_progress durations that are no duration', () => {
  const lines = (seconds: unknown) => [
    { type: 'assistant', session_id: 's1', timestamp: '2026-11-30T07:41:59.608Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 5' } }] } },
    { type: 'tool_progress', session_id: 's1', tool_use_id: 'toolu_1', tool_name: 'Bash', parent_tool_use_id: null, elapsed_time_seconds: seconds },
    { type: 'user', session_id: 's1', timestamp: '2026-11-30T07:42:05.608Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] } },
  ];
  it.each([[-1, 'a duration is never negative'], [1e13, 'longer than a date can span']])('elapsed_time_seconds %s: was elapsedMs < 0 (an invalid event), or an `at` past a Date\'s range; now unreadable_time, and the part is whole', async (seconds, why) => {
    const r = await run('claude', lines(seconds));
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unreadable_time']);
    expect(r.diagnostics[0]!.message).toContain(why);
    expect(r.parts).toHaveLength(1);
    expect(r.parts[0]).toMatchObject({ id: 'toolu_1', state: 'complete', timing: { startedAt: Date.UTC(2026, 10, 30, 7, 41, 59, 608), completedAt: Date.UTC(2026, 10, 30, 7, 42, 5, 608), elapsedMs: 6000 } });
    expect(issuesOfNormalizedToolPart(r.parts[0])).toEqual([]);
  });
  it('control: a real duration places the progress and gives no diagnostic', async () => {
    const r = await run('claude', lines(2));
    expect(r.diagnostics).toEqual([]);
    expect(r.parts[0]).toMatchObject({ state: 'complete' });
  });
});
