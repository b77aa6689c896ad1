// Every corpus recording opened through `toolnorm acp` by the SDK's own clients (v1 and v2 draft):
// every listed session loads, and what the client parsed deep-equals `normalize --to acp` of the
// same inputs. The SDK client drops what it cannot parse, so equality also shows nothing was lost.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import * as acp2 from '@agentclientprotocol/sdk/experimental/v2';
import { CORPUS, REPO_ROOT, corpusAvailable } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';
import { join } from 'node:path';

const available = corpusAvailable();
const DIRS = ['claude', 'codex', 'opencode'].map((d) => join(CORPUS, d));

async function expected(extra: string[]): Promise<Map<string, unknown[]>> {
  const r = await cli(['normalize', '--to', 'acp', '--quiet', ...extra, ...DIRS]);
  expect(r.code).toBe(0);
  const by = new Map<string, unknown[]>();
  for (const l of r.lines as { params: { sessionId: string } }[]) by.set(l.params.sessionId, [...(by.get(l.params.sessionId) ?? []), l.params]);
  return by;
}

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'acp', ...DIRS], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stream: acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>) };
}

describe.skipIf(!available)('toolnorm acp on the whole corpus', () => {
  it('v1: every session of every recording loads, and the client sees exactly normalize --to acp', async () => {
    const want = await expected([]);
    const agent = start();
    const got = new Map<string, unknown[]>();
    const listed = await acp
      .client()
      .onNotification(acp.methods.client.session.update, ({ params }) => { got.set(params.sessionId, [...(got.get(params.sessionId) ?? []), params]); })
      .connectWith(agent.stream, async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
        const { sessions } = await ctx.request(acp.methods.agent.session.list, {});
        for (const s of sessions) await ctx.request(acp.methods.agent.session.load, { sessionId: s.sessionId, cwd: s.cwd, mcpServers: [] });
        return sessions;
      });
    expect(listed.length).toBe(want.size);
    expect(want.size).toBeGreaterThan(15);
    for (const [id, frames] of want) expect(got.get(id), id).toEqual(frames);
    agent.child.stdin!.end();
    expect(await agent.exited).toBe(0);
  }, 300_000);

  it('v2: every session resumes with a replay from the start, and the client sees exactly normalize --to acp --acp-version 2', async () => {
    const want = await expected(['--acp-version', '2']);
    const agent = start();
    const got = new Map<string, unknown[]>();
    const listed = await acp2
      .client()
      .onNotification(acp2.methods.client.session.update, ({ params }) => { got.set(params.sessionId, [...(got.get(params.sessionId) ?? []), params]); })
      .connectWith(agent.stream, async (ctx) => {
        await ctx.request(acp2.methods.agent.initialize, { protocolVersion: 2, info: { name: 'corpus-test', version: '0' } });
        const { sessions } = await ctx.request(acp2.methods.agent.session.list, {});
        for (const s of sessions) await ctx.request(acp2.methods.agent.session.resume, { sessionId: s.sessionId, cwd: s.cwd, replayFrom: { type: 'start' } });
        return sessions;
      });
    expect(listed.length).toBe(want.size);
    for (const [id, frames] of want) {
      const seen = got.get(id)!;
      expect(seen.slice(0, -1), id).toEqual(frames);
      expect(seen[seen.length - 1]).toEqual({ sessionId: id, update: { sessionUpdate: 'state_update', state: 'idle' } });
    }
    agent.child.stdin!.end();
    expect(await agent.exited).toBe(0);
  }, 300_000);
});
