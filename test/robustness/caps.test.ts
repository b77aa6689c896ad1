// Open calls are capped in every adapter (issue 16, docs/robustness.md): with more calls that never
// finish than an adapter keeps open, the ones open longest are forgotten, each with one
// `evicted_call` warning, and every part is still printed once with its last known state. A
// result for a forgotten call is `late_result`, never `orphan_result` ("not in the input").
// The number of evicted_call warnings is the number of calls over the cap, which is what shows
// the adapter holds no more than the cap.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_CALLS as CODEX_CAP } from '../../src/adapters/codex/tracker.js';
import { MAX_OPEN_CALLS as OPENCODE_CAP } from '../../src/adapters/opencode/calls.js';
import { CALLS_KEPT } from '../../src/adapters/claude/calls.js';
import { MAX_WAITING_AGENTS } from '../../src/adapters/claude/subagents.js';
import { ACP_CALLS_KEPT } from '../../src/adapters/acp/index.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-caps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OVER = 500;
/** Results come for the first LATE calls (forgotten by then) and the last LATE ones (still open). */
const LATE = 10;

interface Case {
  provider: string;
  label?: string;
  /** Calls the adapter must see before it forgets the oldest: over this many, each is one evicted_call. */
  cap: number;
  start(i: number): string;
  finish(i: number): string;
  id(i: number): string;
}

const T0 = 1767000000000;
const cases: Case[] = [
  {
    provider: 'codex',
    cap: CODEX_CAP,
    start: (i) => JSON.stringify({ type: 'item.started', item: { id: `item_${i}`, type: 'command_execution', command: `echo ${i}`, aggregated_output: '', status: 'in_progress' } }),
    finish: (i) => JSON.stringify({ type: 'item.completed', item: { id: `item_${i}`, type: 'command_execution', command: `echo ${i}`, aggregated_output: `${i}\n`, exit_code: 0, status: 'completed' } }),
    id: (i) => `item_${i}`,
  },
  {
    provider: 'opencode',
    cap: OPENCODE_CAP,
    start: (i) => JSON.stringify({ type: 'tool_use', timestamp: T0 + i, sessionID: 'ses_caps', part: { id: `prt_${i}`, sessionID: 'ses_caps', messageID: 'msg_caps', type: 'tool', callID: `call_${i}`, tool: 'bash', state: { status: 'running', input: { command: `echo ${i}` }, time: { start: T0 + i } } } }),
    finish: (i) => JSON.stringify({ type: 'tool_use', timestamp: T0 + 1e6 + i, sessionID: 'ses_caps', part: { id: `prt_${i}`, sessionID: 'ses_caps', messageID: 'msg_caps', type: 'tool', callID: `call_${i}`, tool: 'bash', state: { status: 'completed', input: { command: `echo ${i}` }, output: `${i}\n`, title: `echo ${i}`, metadata: { exit: 0 }, time: { start: T0 + i, end: T0 + 1e6 + i } } } }),
    id: (i) => `prt_${i}`,
  },
  {
    // Claude and ACP forget by generations (the last CALLS_KEPT to 2×CALLS_KEPT calls): past
    // 2×cap calls, every call older than the newest generation's start is forgotten.
    provider: 'claude',
    cap: 2 * CALLS_KEPT,
    start: (i) => JSON.stringify({ type: 'assistant', session_id: 's-caps', timestamp: new Date(T0 + i).toISOString(), message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } }),
    finish: (i) => JSON.stringify({ type: 'user', session_id: 's-caps', timestamp: new Date(T0 + 1e6 + i).toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `${i}` }] } }),
    id: (i) => `toolu_${i}`,
  },
  {
    provider: 'acp',
    cap: 2 * ACP_CALLS_KEPT,
    start: (i) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's-caps', update: { sessionUpdate: 'tool_call', toolCallId: `call_${i}`, title: `echo ${i}`, kind: 'execute', status: 'in_progress', rawInput: { command: `echo ${i}` } } } }),
    finish: (i) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's-caps', update: { sessionUpdate: 'tool_call_update', toolCallId: `call_${i}`, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: `${i}` } }] } } }),
    id: (i) => `call_${i}`,
  },
  {
    // The 3.3 GB of issue 16: permission requests for calls that never finish.
    provider: 'acp',
    label: 'acp permission requests',
    cap: 2 * ACP_CALLS_KEPT,
    start: (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'session/request_permission', params: { sessionId: 's-caps', toolCall: { toolCallId: `call_${i}`, title: `rm ${i}`, kind: 'execute', status: 'pending', rawInput: { command: `rm ${i}` } }, options: [{ optionId: 'allow', kind: 'allow_once', name: 'Allow' }, { optionId: 'reject', kind: 'reject_once', name: 'Reject' }] } }),
    finish: (i) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's-caps', update: { sessionUpdate: 'tool_call_update', toolCallId: `call_${i}`, status: 'completed' } } }),
    id: (i) => `call_${i}`,
  },
];

describe('open calls past the cap, per provider', () => {
  for (const c of cases) {
    const n = c.cap + OVER;
    it(`${c.label ?? c.provider}: ${n} calls that never finish (cap ${c.cap} + ${OVER}): exit 0, ${n} parts, ${OVER}+ evicted_call, results for forgotten calls late_result, 0 orphan_result`, async () => {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) lines.push(c.start(i));
      for (let i = 0; i < LATE; i++) lines.push(c.finish(i));
      for (let i = n - LATE; i < n; i++) lines.push(c.finish(i));
      const file = join(dir, `${(c.label ?? c.provider).replace(/ /g, '-')}.jsonl`);
      writeFileSync(file, `${lines.join('\n')}\n`);

      const r = await cli(['normalize', '--from', c.provider, '--to', 'parts', '--summary', file]);
      expect(r.code).toBe(0);
      const err = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { code?: string; partId?: string });
      const summary = err.pop() as unknown as { inputLines: number; parts: number; byState: Record<string, number>; diagnostics: number };
      const of = (code: string) => err.filter((d) => d.code === code);
      expect(summary.inputLines).toBe(lines.length);
      expect(summary.parts).toBe(n);
      expect(new Set((r.lines as { id: string }[]).map((p) => p.id)).size).toBe(n);
      const evicted = of('evicted_call').map((d) => d.partId);
      // The oldest calls go first; the generational adapters forget a whole generation at once.
      expect(evicted.length).toBeGreaterThanOrEqual(OVER);
      expect(evicted.length).toBeLessThanOrEqual(c.provider === 'claude' || c.provider === 'acp' ? c.cap / 2 + OVER : OVER);
      expect(evicted.slice(0, LATE)).toEqual(Array.from({ length: LATE }, (_, i) => c.id(i)));
      expect(of('orphan_result')).toHaveLength(0);
      // The first calls were forgotten: their results are late (from the adapter) and not applied.
      expect(of('late_result').map((d) => d.partId)).toEqual(Array.from({ length: LATE }, (_, i) => c.id(i)));
      // The last calls were still open: their results complete them.
      expect(summary.byState.complete).toBe(LATE);
      const byId = new Map((r.lines as { id: string; state: string }[]).map((p) => [p.id, p.state]));
      for (let i = 0; i < LATE; i++) expect(byId.get(c.id(i))).not.toBe('complete');
      for (let i = n - LATE; i < n; i++) expect(byId.get(c.id(i))).toBe('complete');
      expect(summary.diagnostics).toBe(err.length);
    }, 120_000);
  }
});

describe('Claude subagents waiting for their Task', () => {
  it(`${MAX_WAITING_AGENTS + 1} agents whose Task never comes: exit 0, every call a part, one unlinked_subagent each, the first given up as soon as the cap is passed`, async () => {
    const n = MAX_WAITING_AGENTS + 1;
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'assistant', sessionId: 's-agents', agentId: `a${i}`, isSidechain: true, uuid: `u${i}`, timestamp: new Date(T0 + i).toISOString(), message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_a${i}`, name: 'Read', input: { file_path: `/w/${i}` } }] } }));
    const file = join(dir, 'agents.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await cli(['normalize', '--from', 'claude', '--summary', file]);
    expect(r.code).toBe(0);
    const err = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { code?: string; partId?: string; message?: string });
    const summary = err.pop() as unknown as { parts: number };
    expect(summary.parts).toBe(n);
    const unlinked = err.filter((d) => d.code === 'unlinked_subagent');
    expect(unlinked).toHaveLength(n);
    // The one waiting longest went when agent n-1 came, with the reason; the rest at the end.
    expect(unlinked[0]).toMatchObject({ partId: 'toolu_a0' });
    expect(unlinked[0]!.message).toMatch(/more than 1000 subagents were waiting/);
    expect(new Set(unlinked.map((d) => d.partId)).size).toBe(n);
  });
});
