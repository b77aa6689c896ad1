// `toolnorm acp` driven by the ACP SDK's own clients (v1 and the v2 draft) over a real stdio pipe:
// the CLI runs from source in a child process. Initialize, list, load (v1) / resume (v2), the
// replayed notifications deep-equal to `normalize --to acp` of the same recording, and a prompt
// refused with a read-only error.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import * as acp2 from '@agentclientprotocol/sdk/experimental/v2';
import { REPO_ROOT } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';
import { fixturePath } from '../helpers/golden-cases.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { officialAcpV2DefErrors, officialAcpV2Errors } from '../helpers/acp-schema-v2.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
});

/** The CLI from source, its stdio as an SDK ndjson stream. */
function agentProcess(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'acp', ...args], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c) => { stderr += c; });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stream, exited, stderr: () => stderr };
}

const RECORDING = fixturePath('claude/streamjson-all-tools', 'streamjson-all-tools.jsonl');
const CODEX = fixturePath('codex/exec-tools-plan', 'exec-tools-plan.jsonl');

/** What `normalize --to acp` prints for the recording, per session. */
async function normalized(file: string, extra: string[] = []): Promise<Map<string, unknown[]>> {
  const r = await cli(['normalize', '--to', 'acp', '--quiet', ...extra, file]);
  expect(r.code).toBe(0);
  const by = new Map<string, unknown[]>();
  for (const l of r.lines as { params: { sessionId: string } }[]) {
    const id = l.params.sessionId;
    by.set(id, [...(by.get(id) ?? []), l]);
  }
  return by;
}

describe('toolnorm acp, driven by the SDK client over stdio', () => {
  it('v1: initialize, session/list, session/load replays exactly the normalize --to acp frames, session/prompt is refused', async () => {
    const expected = new Map([...(await normalized(RECORDING)), ...(await normalized(CODEX))]);
    expect(expected.size).toBe(2);
    const agent = agentProcess([RECORDING, CODEX]);
    const received: { sessionId: string; update: unknown }[] = [];
    const result = await acp
      .client()
      .onNotification(acp.methods.client.session.update, ({ params }) => { received.push(params as never); })
      .connectWith(agent.stream, async (ctx) => {
        const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        const list = await ctx.request(acp.methods.agent.session.list, {});
        const loads: Record<string, number> = {};
        for (const s of list.sessions) {
          const before = received.length;
          await ctx.request(acp.methods.agent.session.load, { sessionId: s.sessionId, cwd: s.cwd, mcpServers: [] });
          loads[s.sessionId] = received.length - before;
        }
        let refusal: unknown;
        try {
          await ctx.request(acp.methods.agent.session.prompt, { sessionId: list.sessions[0]!.sessionId, prompt: [{ type: 'text', text: 'go on' }] });
        } catch (e) {
          refusal = e;
        }
        let missing: unknown;
        try {
          await ctx.request(acp.methods.agent.session.load, { sessionId: 'no-such-session', cwd: '/', mcpServers: [] });
        } catch (e) {
          missing = e;
        }
        return { init, list, loads, refusal, missing };
      });
    expect(result.init.protocolVersion).toBe(1);
    expect(result.init.agentCapabilities?.loadSession).toBe(true);
    expect(result.init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    expect(result.list.sessions.map((s) => s.sessionId).sort()).toEqual([...expected.keys()].sort());
    for (const s of result.list.sessions) expect(s.cwd.startsWith('/')).toBe(true);
    // Every replayed notification, as the SDK client parsed it, deep-equals normalize's params, in order.
    let at = 0;
    for (const s of result.list.sessions) {
      const want = expected.get(s.sessionId)!.map((f) => (f as { params: unknown }).params);
      expect(result.loads[s.sessionId]).toBe(want.length);
      expect(received.slice(at, at + want.length)).toEqual(want);
      for (const f of want) expect(officialAcpErrors(f)).toEqual([]);
      at += want.length;
    }
    expect(at).toBeGreaterThan(10);
    // The refusal is a JSON-RPC error a person can read, and the agent goes on serving.
    expect(result.refusal).toBeInstanceOf(acp.RequestError);
    expect((result.refusal as acp.RequestError).code).toBe(-32601);
    expect((result.refusal as Error).message).toMatch(/read-only.*cannot run prompts/);
    expect((result.missing as acp.RequestError).code).toBe(-32002);
    expect((result.missing as Error).message).toMatch(/no recorded session no-such-session/);
    agent.child.stdin!.end();
    expect(await agent.exited).toBe(0);
  }, 120_000);

  it('v2 (draft): negotiated at initialize; session/list, session/resume replaying from the start gives the --acp-version 2 frames, then an idle state_update', async () => {
    const expected = await normalized(CODEX, ['--acp-version', '2']);
    const [sessionId, want] = [...expected][0]!;
    const agent = agentProcess([CODEX]);
    const received: unknown[] = [];
    const result = await acp2
      .client()
      .onNotification(acp2.methods.client.session.update, ({ params }) => { received.push(params); })
      .connectWith(agent.stream, async (ctx) => {
        const init = await ctx.request(acp2.methods.agent.initialize, { protocolVersion: 2, info: { name: 'test-client', version: '0' } });
        const list = await ctx.request(acp2.methods.agent.session.list, {});
        await ctx.request(acp2.methods.agent.session.resume, { sessionId, cwd: list.sessions[0]!.cwd, replayFrom: { type: 'start' } });
        let refusal: unknown;
        try {
          await ctx.request(acp2.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
        } catch (e) {
          refusal = e;
        }
        return { init, list, refusal };
      });
    expect(result.init.protocolVersion).toBe(2);
    expect(officialAcpV2DefErrors('InitializeResponse', result.init)).toEqual([]);
    expect(officialAcpV2DefErrors('ListSessionsResponse', result.list)).toEqual([]);
    expect(result.list.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    const params = want.map((f) => (f as { params: unknown }).params);
    expect(received.slice(0, -1)).toEqual(params);
    expect(received[received.length - 1]).toEqual({ sessionId, update: { sessionUpdate: 'state_update', state: 'idle' } });
    for (const f of received) expect(officialAcpV2Errors(f)).toEqual([]);
    expect(params.some((p) => (p as { update: { sessionUpdate: string } }).update.sessionUpdate === 'plan_update')).toBe(true);
    expect((result.refusal as Error).message).toMatch(/read-only/);
    agent.child.stdin!.end();
    expect(await agent.exited).toBe(0);
  }, 120_000);

  it('--store: lists and replays the stored sessions as replay --to acp prints them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-acp-agent-'));
    try {
      const url = `sqlite:${join(dir, 'events.db')}`;
      expect((await cli(['normalize', '--quiet', '--store', url, RECORDING])).code).toBe(0);
      const sessions = (await cli(['sessions', '--store', url])).lines as { sessionId: string }[];
      expect(sessions.length).toBe(1);
      const replayed = (await cli(['replay', '--store', url, '--session', sessions[0]!.sessionId, '--to', 'acp'])).lines.map((l) => (l as { params: unknown }).params);
      const agent = agentProcess(['--store', url]);
      const received: unknown[] = [];
      const list = await acp
        .client()
        .onNotification(acp.methods.client.session.update, ({ params }) => { received.push(params); })
        .connectWith(agent.stream, async (ctx) => {
          await ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
          const l = await ctx.request(acp.methods.agent.session.list, {});
          await ctx.request(acp.methods.agent.session.load, { sessionId: l.sessions[0]!.sessionId, cwd: l.sessions[0]!.cwd, mcpServers: [] });
          return l;
        });
      expect(list.sessions.map((s) => s.sessionId)).toEqual([sessions[0]!.sessionId]);
      expect(received).toEqual(replayed);
      expect(received.length).toBeGreaterThan(10);
      agent.child.stdin!.end();
      expect(await agent.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('bad usage is one line and exit 2; an unreadable input exit 1', async () => {
    const none = await cli(['acp']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/name the recordings/);
    const both = await cli(['acp', '--store', 'sqlite:x.db', RECORDING]);
    expect(both.code).toBe(2);
    const dash = await cli(['acp', '-']);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toMatch(/stdin carries the ACP messages/);
    const missing = await cli(['acp', 'no/such/file.jsonl']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read no\/such\/file.jsonl/);
  });
});
