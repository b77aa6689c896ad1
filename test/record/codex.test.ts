// Issue 30 items 5 and 6: `toolnorm record` driving the real Codex CLI (codex-cli 0.163.0 from npm)
// against the scripted loopback Responses API (test/agents/), inside a network namespace of its
// own. Each run also tees the agent's stdout to a file of its own (test/agents/loopback-run.ts), so
// the raw recording is compared with the bytes the agent actually wrote.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexForTests } from '../agents/available.js';
import { codexExecArgs } from '../agents/codex.js';
import { loopbackCommand } from '../agents/loopback.js';
import type { ScenarioName } from '../agents/responses-model.js';
import { bySession, fileHas, jsonLines, normalizeFile, spawnRecord, storedEvents, until } from '../helpers/record.js';
import type { ToolEvent } from '../../src/contract/index.js';

const codex = codexForTests();
const root = mkdtempSync(join(tmpdir(), 'toolnorm-record-codex-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One run's folder: the agent works in work/, toolnorm's files and the launcher's beside it. */
function setup(name: string, scenario: ScenarioName) {
  const dir = join(root, name);
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const f = { raw: join(dir, 'raw.jsonl'), tee: join(dir, 'tee.jsonl'), requests: join(dir, 'requests.jsonl'), status: join(dir, 'status.json'), store: `sqlite:${join(dir, 'events.db')}` };
  const agent = loopbackCommand({ scenario, home: join(dir, 'codex-home'), tee: f.tee, requests: f.requests, status: f.status, agent: [codex!, ...codexExecArgs('make hello.txt')] });
  return { work, ...f, agent };
}

const agentEnd = (status: string) => JSON.parse(readFileSync(status, 'utf8')) as { code: number | null; signal: string | null };
const stripSeq = (events: unknown[]) => events as ToolEvent[];

describe.skipIf(!codex)('toolnorm record -- codex exec --json (real binary, loopback model)', () => {
  it('tools: the raw file is the bytes Codex wrote; live parts and stored events equal a later normalize of the raw file; exit 0', async () => {
    const s = setup('tools', 'tools');
    const run = spawnRecord(['--raw', s.raw, '--store', s.store, '--', ...s.agent], { cwd: s.work });
    const r = await run.done;
    expect(r.stderr).toContain(`recording the raw output of unshare to ${s.raw}`);
    expect(r.code).toBe(0);
    expect(agentEnd(s.status)).toEqual({ code: 0, signal: null });

    // Byte for byte what the agent wrote (the launcher's own copy).
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    const lines = jsonLines(raw.toString()) as { type: string; item?: { type: string } }[];
    expect(lines[0]!.type).toBe('thread.started');
    expect(lines.at(-1)!.type).toBe('turn.completed');
    // Codex really ran the tools: the command's output went back to the model.
    const requests = jsonLines(readFileSync(s.requests, 'utf8')) as { turn?: number; outputs: Record<string, string> }[];
    expect(requests.filter((q) => q.turn !== undefined).map((q) => q.turn)).toEqual([0, 1, 2, 3]);
    expect(requests.at(-1)!.outputs.call_t2_0).toContain('hello from the loopback model');

    const live = jsonLines(r.stdout) as { id: string; kind: string; state: string }[];
    expect(live.map((p) => `${p.kind}:${p.state}`).sort()).toEqual(['bash:complete', 'bash:error', 'file_write:complete', 'todo:complete', 'web_search:complete']);
    const later = await normalizeFile(s.raw, s.work);
    expect(later.code).toBe(0);
    expect(later.records).toEqual(live);

    // The store holds exactly the events a later normalize makes, and normalizing the raw file
    // into it again adds nothing (same events at the same positions).
    const events = stripSeq((await normalizeFile(s.raw, s.work, 'events')).records);
    const stored = await storedEvents(s.store, s.work);
    expect(stored).toEqual(bySession(events));
    expect((await normalizeFile(s.raw, s.work, 'parts', ['--store', s.store])).code).toBe(0);
    expect(await storedEvents(s.store, s.work)).toEqual(stored);
  });

  it('fail: the model fails, Codex exits 1 with error + turn.failed, and toolnorm exits 1 (the agent\'s status)', async () => {
    const s = setup('fail', 'fail');
    const r = await spawnRecord(['--raw', s.raw, '--to', 'events', '--', ...s.agent], { cwd: s.work }).done;
    expect(agentEnd(s.status)).toEqual({ code: 1, signal: null });
    expect(r.code).toBe(1);
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    expect((jsonLines(raw.toString()) as { type: string }[]).map((l) => l.type)).toEqual(['thread.started', 'turn.started', 'error', 'turn.failed']);
    expect((await normalizeFile(s.raw, s.work, 'events')).records).toEqual(jsonLines(r.stdout));
  });

  it('SIGINT to toolnorm reaches Codex mid-command: Codex stops, toolnorm exits with Codex\'s status, the raw file and the store stay valid', async () => {
    const s = setup('sigint', 'long-command');
    const run = spawnRecord(['--raw', s.raw, '--store', s.store, '--to', 'events', '--', ...s.agent], { cwd: s.work });
    // Codex has started the ten-minute command.
    await until(() => fileHas(s.raw, '"type":"item.started","item":{"id":"item_0","type":"command_execution"'), 'the command to start');
    await until(async () => (await storedEvents(s.store, s.work).catch(() => [])).length > 0, 'the started command in the store');
    run.child.kill('SIGINT');
    const r = await run.done;

    // toolnorm was not ended by the signal: it passed on how Codex ended.
    const end = agentEnd(s.status);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(end.signal ? 128 + (await import('node:os')).constants.signals[end.signal as NodeJS.Signals] : end.code);
    expect(r.code).not.toBe(0);
    // Codex saw the signal: it ended long before its command could, without finishing it.
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    expect(raw.toString()).not.toContain('"type":"item.completed","item":{"id":"item_0"');
    const requests = jsonLines(readFileSync(s.requests, 'utf8')) as { turn?: number }[];
    expect(requests.filter((q) => q.turn !== undefined).map((q) => q.turn)).toEqual([0]);

    // Valid afterwards: normalize of the raw file gives the live events, the store holds them.
    const events = stripSeq((await normalizeFile(s.raw, s.work, 'events')).records);
    expect(jsonLines(r.stdout)).toEqual(events);
    expect(events.map((e) => `${e.partId}:${e.type}`)).toContain('item_0:tool.started');
    expect(await storedEvents(s.store, s.work)).toEqual(bySession(events));
  });
});
