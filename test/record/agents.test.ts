// Issue 30 items 5 and 6: `toolnorm record` driving real agent binaries from npm (codex-cli
// 0.163.0, Claude Code 2.1.332) against scripted loopback models (test/agents/: the Responses API
// for Codex, the Messages API for Claude Code), each inside a network namespace of its own. Every
// run also tees the agent's stdout to a file of its own (test/agents/loopback-run.ts), so the raw
// recording is compared with the bytes the agent actually wrote.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeForTests, codexForTests } from '../agents/available.js';
import { codexExecArgs } from '../agents/codex.js';
import { claudeArgs } from '../agents/claude.js';
import { loopbackCommand } from '../agents/loopback.js';
import type { ScenarioName } from '../agents/responses-model.js';
import { bySession, fileHas, jsonLines, normalizeFile, spawnRecord, storedEvents, until } from '../helpers/record.js';
import type { ToolEvent } from '../../src/contract/index.js';

const root = mkdtempSync(join(tmpdir(), 'toolnorm-record-agents-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface AgentCase {
  name: 'codex' | 'claude';
  bin: string | undefined;
  args: (prompt: string) => string[];
  /** `kind:state` of the parts of the tools scenario, sorted. */
  toolParts: string[];
  /** The tool output (by call id) of the last scripted turn, which reads hello.txt back. */
  readBack: string;
  firstLine: string;
  lastLine: string;
  /** Line types of the fail scenario. */
  failLines: string[];
  /** A line of the raw stream saying the ten-minute command has started. */
  commandStarted: string;
  /** Text that would be in the raw stream had the command finished. */
  commandDone: string;
  /** The long command's part id. */
  commandPart: string;
  /** How the agent ends on SIGINT mid-command (observed: Codex exits 1, Claude Code -p exits 0 without a result line). */
  sigintStatus: number;
}

const AGENTS: AgentCase[] = [
  {
    name: 'codex',
    bin: codexForTests(),
    args: codexExecArgs,
    toolParts: ['bash:complete', 'bash:error', 'file_write:complete', 'todo:complete', 'web_search:complete'],
    readBack: 'call_t2_0',
    firstLine: 'thread.started',
    lastLine: 'turn.completed',
    failLines: ['thread.started', 'turn.started', 'error', 'turn.failed'],
    commandStarted: '"type":"item.started","item":{"id":"item_0","type":"command_execution"',
    commandDone: '"type":"item.completed","item":{"id":"item_0"',
    commandPart: 'item_0',
    sigintStatus: 1,
  },
  {
    name: 'claude',
    bin: claudeForTests(),
    args: claudeArgs,
    toolParts: ['bash:complete', 'bash:error', 'file_read:complete', 'file_write:complete'],
    readBack: 'toolu_t2_1',
    firstLine: 'system',
    lastLine: 'result',
    failLines: ['system', 'assistant', 'result'],
    commandStarted: '"id":"toolu_t0_0","name":"Bash"',
    commandDone: '"tool_use_id":"toolu_t0_0"',
    commandPart: 'toolu_t0_0',
    sigintStatus: 0,
  },
];

/** One run's folder: the agent works in work/, toolnorm's files and the launcher's beside it. */
function setup(a: AgentCase, scenario: ScenarioName) {
  const dir = join(root, `${a.name}-${scenario}`);
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const f = { raw: join(dir, 'raw.jsonl'), tee: join(dir, 'tee.jsonl'), requests: join(dir, 'requests.jsonl'), status: join(dir, 'status.json'), store: `sqlite:${join(dir, 'events.db')}` };
  const agent = loopbackCommand({ agentName: a.name, scenario, home: join(dir, 'home'), tee: f.tee, requests: f.requests, status: f.status, agent: [a.bin!, ...a.args('make hello.txt')] });
  return { work, ...f, agent };
}

const agentEnd = (status: string) => JSON.parse(readFileSync(status, 'utf8')) as { code: number | null; signal: NodeJS.Signals | null };
const types = (raw: Buffer) => (jsonLines(raw.toString()) as { type: string }[]).map((l) => l.type);
const modelTurns = (requests: string) => (jsonLines(readFileSync(requests, 'utf8')) as { turn?: number; outputs: Record<string, string> }[]).filter((q) => q.turn !== undefined);

describe.each(AGENTS)('toolnorm record -- $name (real binary, loopback model)', (a) => {
  it.skipIf(!a.bin)('tools: the raw file is the bytes the agent wrote; live parts and stored events equal a later normalize of the raw file; exit 0', async () => {
    const s = setup(a, 'tools');
    const r = await spawnRecord(['--raw', s.raw, '--store', s.store, '--', ...s.agent], { cwd: s.work }).done;
    expect(r.stderr).toContain(`recording the raw output of unshare to ${s.raw}`);
    expect(agentEnd(s.status)).toEqual({ code: 0, signal: null });
    expect(r.code).toBe(0);

    // Byte for byte what the agent wrote (the launcher's own copy).
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    expect(types(raw)[0]).toBe(a.firstLine);
    expect(types(raw).at(-1)).toBe(a.lastLine);
    // The agent really ran the tools: every scripted turn was asked for, and the file it wrote was read back to the model.
    const turns = modelTurns(s.requests);
    expect(turns.map((q) => q.turn)).toEqual([0, 1, 2, 3]);
    expect(turns.at(-1)!.outputs[a.readBack]).toContain('hello from the loopback model');

    const live = jsonLines(r.stdout) as { kind: string; state: string }[];
    expect(live.map((p) => `${p.kind}:${p.state}`).sort()).toEqual(a.toolParts);
    const later = await normalizeFile(s.raw, s.work);
    expect(later.code).toBe(0);
    expect(later.records).toEqual(live);

    // The store holds exactly the events a later normalize makes, and normalizing the raw file
    // into it again adds nothing (the same events at the same positions).
    const events = (await normalizeFile(s.raw, s.work, 'events')).records as ToolEvent[];
    const stored = await storedEvents(s.store, s.work);
    expect(stored).toEqual(bySession(events));
    expect((await normalizeFile(s.raw, s.work, 'parts', ['--store', s.store])).code).toBe(0);
    expect(await storedEvents(s.store, s.work)).toEqual(stored);
  });

  it.skipIf(!a.bin)('fail: the model fails, the agent exits 1, and so does toolnorm; the raw file is still exact', async () => {
    const s = setup(a, 'fail');
    const r = await spawnRecord(['--raw', s.raw, '--to', 'events', '--', ...s.agent], { cwd: s.work }).done;
    expect(agentEnd(s.status)).toEqual({ code: 1, signal: null });
    expect(r.code).toBe(1);
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    expect(types(raw)).toEqual(a.failLines);
    expect((await normalizeFile(s.raw, s.work, 'events')).records).toEqual(jsonLines(r.stdout));
  });

  it.skipIf(!a.bin)('SIGINT to toolnorm reaches the agent mid-command: it stops, toolnorm exits with its status, the raw file and the store stay valid', async () => {
    const s = setup(a, 'long-command');
    const run = spawnRecord(['--raw', s.raw, '--store', s.store, '--to', 'events', '--', ...s.agent], { cwd: s.work });
    // The ten-minute command has started, and its start is in the store.
    await until(() => fileHas(s.raw, a.commandStarted), 'the command to start');
    await until(async () => (await storedEvents(s.store, s.work).catch(() => [])).some((e) => e.partId === a.commandPart), 'the started command in the store');
    run.child.kill('SIGINT');
    const r = await run.done;

    // toolnorm was not ended by the signal: it passed on how the agent ended.
    const end = agentEnd(s.status);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(end.signal ? 128 + constants.signals[end.signal] : end.code);
    expect(r.code).toBe(a.sigintStatus);
    // The agent saw the signal: it ended long before its command could, without finishing it.
    const raw = readFileSync(s.raw);
    expect(raw.equals(readFileSync(s.tee))).toBe(true);
    expect(raw.toString()).not.toContain(a.commandDone);
    expect(modelTurns(s.requests).map((q) => q.turn)).toEqual([0]);

    // Valid afterwards: a normalize of the raw file gives the live events, and the store holds them.
    const events = (await normalizeFile(s.raw, s.work, 'events')).records as ToolEvent[];
    expect(jsonLines(r.stdout)).toEqual(events);
    expect(events.some((e) => e.partId === a.commandPart && e.type === 'tool.started')).toBe(true);
    expect(await storedEvents(s.store, s.work)).toEqual(bySession(events));
  });
});
