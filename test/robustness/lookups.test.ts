// Lookups that trust input: tools and item types named after Object.prototype's members made the
// Codex adapter throw ("rule.title is not a function") and gave ACP input invalid events; foreign
// `_meta.toolnorm` went through unchecked (`"timing":{"elapsedMs":"x"}` dropped the completion);
// durations that overflow to Infinity made invalid events. Each case: exit status, diagnostic
// codes, parts count and states.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOfAcpSessionUpdateParams, issuesOfNormalizedToolPart } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-lookups-'));
const NAMES = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty'];
const write = (name: string, lines: unknown[], raw: Record<string, string> = {}): string => {
  const file = join(dir, name);
  writeFileSync(file, `${lines.map((l) => Object.entries(raw).reduce((t, [k, v]) => t.replaceAll(JSON.stringify(k), v), JSON.stringify(l))).join('\n')}\n`);
  return file;
};

async function run(provider: string, file: string, to = 'parts') {
  const r = await cli(['normalize', '--from', provider, '--to', to, '--summary', file]);
  const err = r.stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = err.pop() as { parts: number; byState: Record<string, number>; invalidEvents: number };
  expect(r.stderr).not.toMatch(/\n\s+at |adapter_error|invalid_event|invalid_frame/);
  return { ...r, codes: err.map((d) => d.code as string), summary };
}

const inputs: Record<string, () => string> = {
  claude: () => write('claude.jsonl', [{ type: 'system', subtype: 'init', cwd: '/w', session_id: 's1', tools: ['Bash'] }, ...NAMES.flatMap((n, i) => [
    { type: 'assistant', session_id: 's1', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: n, input: { [n]: n } }] } },
    { type: 'user', session_id: 's1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: n }] } }])]),
  codex: () => write('codex.jsonl', [{ type: 'thread.started', thread_id: 't1' }, ...NAMES.flatMap((n, i) => [
    { type: 'item.started', item: { id: `item_${i}`, type: n, status: 'in_progress' } },
    { type: 'item.completed', item: { id: `item_${i}`, type: n, status: 'completed' } },
    { type: 'item.completed', item: { id: `mcp_${i}`, type: 'mcp_tool_call', server: n, tool: n, arguments: { [n]: 1 }, status: 'completed', result: { content: [] } } }])]),
  opencode: () => write('opencode.jsonl', NAMES.map((n, i) => ({ type: 'tool_use', timestamp: 1796025019067, sessionID: 'ses_1', part: { type: 'tool', tool: n, callID: `call_${i}`, state: { status: 'completed', input: { [n]: n }, output: 'ok', metadata: { [n]: n }, title: n, time: { start: 1796025018890, end: 1796025018898 } }, id: `prt_${i}`, sessionID: 'ses_1', messageID: 'msg_1' } }))),
  acp: () => write('acp.jsonl', NAMES.flatMap((n) => [
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: n, title: n, name: n, kind: n, status: 'pending', rawInput: { [n]: n } } } },
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: n, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] } } }])),
};
const expectedParts: Record<string, number> = { claude: 5, codex: 10, opencode: 5, acp: 5 };

describe('tools and items named after Object.prototype members', () => {
  for (const provider of Object.keys(inputs)) {
    it(`${provider}: every call becomes a complete, valid part named as given`, async () => {
      const file = inputs[provider]!();
      const r = await run(provider, file);
      expect(r.code).toBe(0);
      expect(r.summary.parts).toBe(expectedParts[provider]);
      expect(r.summary.byState).toEqual({ complete: expectedParts[provider] });
      expect(r.summary.invalidEvents).toBe(0);
      // Codex reports each unknown item type once (unknown_event); nothing else is said.
      expect(r.codes.filter((c) => c !== 'unknown_event')).toEqual([]);
      for (const p of r.lines) expect(issuesOfNormalizedToolPart(p)).toEqual([]);
      const names = new Set((r.lines as { name: string }[]).map((p) => p.name));
      for (const n of NAMES.filter((x) => x !== '__proto__')) expect(names.has(n), n).toBe(true);
      const acp = await run(provider, file, 'acp');
      expect(acp.code).toBe(0);
      for (const m of acp.lines as { params: unknown }[]) expect(issuesOfAcpSessionUpdateParams(m.params)).toEqual([]);
    });
  }
});

describe('foreign _meta.toolnorm in ACP input', () => {
  it('an invalid one is ignored with invalid_toolnorm_meta and the completion is kept', async () => {
    const file = write('meta.jsonl', [
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run ls', kind: 'execute', status: 'pending', rawInput: { command: 'ls' }, _meta: { toolnorm: { toolName: 'Bash', kind: 'bash', state: 'started', title: 'Run ls', timing: { startedAt: 1 } } } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { text: 'a\nb' }, _meta: { toolnorm: { state: 'complete', timing: { elapsedMs: 'x' } } } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Odd', kind: 'execute', status: 'pending', _meta: { toolnorm: { toolName: 'x', kind: 'constructor', state: 'started', title: 'Odd' } } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'failed' } } },
    ]);
    const r = await run('acp', file);
    expect(r.code).toBe(0);
    expect(r.codes).toEqual(['invalid_toolnorm_meta', 'invalid_toolnorm_meta']);
    expect(r.summary.parts).toBe(2);
    expect(r.summary.byState).toEqual({ complete: 1, error: 1 });
    const c1 = (r.lines as { id: string; state: string; kind: string; output?: unknown }[]).find((p) => p.id === 'c1')!;
    expect(c1).toMatchObject({ state: 'complete', kind: 'bash', output: { text: 'a\nb' } });
  });
});

describe('foreign ACP fields of the wrong type', () => {
  it('a kind that is not a string (0, false, an object; found by npm run fuzz) maps to unknown, not to an invalid event', async () => {
    const file = write('kinds.jsonl', [0, false, { a: 1 }, ['read']].map((kind, i) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: 'Run', kind, status: 'completed' } } })));
    const r = await run('acp', file);
    expect(r.code).toBe(0);
    expect(r.summary.parts).toBe(4);
    expect(r.summary.byState).toEqual({ complete: 4 });
    expect((r.lines as { kind: string }[]).map((p) => p.kind)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
  });
});

describe('numbers JSON cannot hold', () => {
  it('claude: a progress of 1e308 seconds (Infinity ms) is kept without the number, with invalid_number', async () => {
    const file = write('inf-claude.jsonl', [
      { type: 'system', subtype: 'init', cwd: '/w', session_id: 's1', tools: ['Bash'] },
      { type: 'assistant', session_id: 's1', timestamp: '2026-01-01T00:00:00.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } },
      { type: 'tool_progress', session_id: 's1', tool_use_id: 'toolu_1', tool_name: 'Bash', elapsed_time_seconds: 'BIG' },
      { type: 'user', session_id: 's1', timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
    ], { BIG: '1e308' });
    const r = await run('claude', file);
    expect(r.code).toBe(0);
    expect(r.codes).toEqual(['invalid_number']);
    expect(r.summary.byState).toEqual({ complete: 1 });
  });

  it('acp: an Infinity (1e999) in _meta.toolnorm timing makes the call foreign, not an invalid event', async () => {
    const file = write('inf-acp.jsonl', [
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'pending', _meta: { toolnorm: { toolName: 'Bash', kind: 'bash', state: 'started', title: 'Run', timing: { startedAt: 'INF' } } } } } },
      { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', _meta: { toolnorm: { state: 'complete', timing: { elapsedMs: 'INF' } } } } } },
    ], { INF: '1e999' });
    const r = await run('acp', file);
    expect(r.code).toBe(0);
    expect(r.codes).toEqual(['invalid_toolnorm_meta']);
    expect(r.summary.byState).toEqual({ complete: 1 });
  });
});
