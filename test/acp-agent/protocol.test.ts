// The agent's answers to what a client should not send, over the real command (in-process, its
// stdin the client's messages): every request gets one JSON-RPC answer, nothing crashes.
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fixturePath } from '../helpers/golden-cases.js';

const RECORDING = fixturePath('codex/exec-tools-plan', 'exec-tools-plan.jsonl');
const req = (id: number | string, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

async function talk(lines: string[], inputs = [RECORDING]) {
  const r = await cli(['acp', ...inputs], { stdin: `${lines.join('\n')}\n` });
  expect(r.code).toBe(0);
  return { byId: new Map((r.lines as { id?: unknown }[]).filter((l) => 'id' in l).map((l) => [l.id, l as Record<string, unknown>])), lines: r.lines as Record<string, unknown>[], stderr: r.stderr };
}

describe('toolnorm acp: messages a client should not send', () => {
  it('bad JSON, a request before initialize, an unknown method, a wrong-version method and a bad cursor each get a clear error', async () => {
    const { byId, lines } = await talk([
      '{not json',
      req(1, 'session/list'),
      req(2, 'initialize', { protocolVersion: 1 }),
      req(3, 'session/frobnicate'),
      req(4, 'session/resume', { sessionId: 'x', cwd: '/' }),
      req(5, 'session/list', { cursor: 'abc' }),
      req(6, 'session/load', { cwd: '/', mcpServers: [] }),
      JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'x' } }),
      req(7, 'session/new', { cwd: '/', mcpServers: [] }),
      req(8, 'session/list'),
    ]);
    expect(lines[0]).toMatchObject({ id: null, error: { code: -32700, message: 'line 1 is not JSON' } });
    expect(byId.get(1)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/before initialize/) } });
    expect(byId.get(2)).toMatchObject({ result: { protocolVersion: 1 } });
    expect(byId.get(3)).toMatchObject({ error: { code: -32601, message: expect.stringMatching(/does not implement session\/frobnicate/) } });
    expect(byId.get(4)).toMatchObject({ error: { code: -32601, message: expect.stringMatching(/v2 method; this connection negotiated v1/) } });
    expect(byId.get(5)).toMatchObject({ error: { code: -32602 } });
    expect(byId.get(6)).toMatchObject({ error: { code: -32602, message: 'sessionId must be a string' } });
    expect(byId.get(7)).toMatchObject({ error: { code: -32601, message: expect.stringMatching(/read-only/) } });
    // The notification got no answer, and the agent still serves.
    expect(lines.filter((l) => 'id' in l).length).toBe(9);
    expect((byId.get(8)!.result as { sessions: unknown[] }).sessions.length).toBe(1);
  });

  it('a v2 resume with a replay cursor it does not support is refused (-32602), not replayed from elsewhere', async () => {
    const { byId, lines } = await talk([req(1, 'initialize', { protocolVersion: 2, info: { name: 'c', version: '0' } }), req(2, 'session/list'), req(3, 'session/resume', { sessionId: 'x', cwd: '/', replayFrom: { type: '_fromMessage', id: 'm1' } })]);
    expect(byId.get(1)).toMatchObject({ result: { protocolVersion: 2 } });
    expect(byId.get(3)).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/replayFrom/) } });
    expect(lines.some((l) => l.method === 'session/update')).toBe(false);
  });

  it('a file that is no recording is named on stderr and served as no session', async () => {
    const { byId, stderr } = await talk([req(1, 'initialize', { protocolVersion: 1 }), req(2, 'session/list')], [fixturePath('codex/exec-tools-plan', 'case.json'), RECORDING]);
    expect(stderr).toMatch(/case\.json was skipped/);
    expect((byId.get(2)!.result as { sessions: unknown[] }).sessions.length).toBe(1);
  });
});
