// The store commands end to end: `normalize --store` appends as it normalizes, `sessions` lists,
// `replay` rebuilds; against SQLite always and PostgreSQL when reachable.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeParts } from '../../src/acp/encoder.js';
import { runCli } from '../../src/cli/run.js';
import type { NormalizedToolPart, ToolEvent } from '../../src/contract/index.js';
import { ToolRepository } from '../../src/events/repository.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { openStore } from '../../src/store/open.js';
import { toUiPart } from '../../src/ui/to-ui.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { removeTempDir, tempDir } from './backends.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable } from './pg.js';
import { Child, CLI_MAIN } from './procs.js';
import { eventsRange, rng } from './stream.js';

const PG = await postgresAvailable();

afterAll(async () => {
  await dropTestSchemas();
  removeTempDir();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: unknown[];
}

async function cli(argv: string[], cwd = REPO_ROOT): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => { out += String(d); });
  stderr.on('data', (d) => { err += String(d); });
  const code = await runCli({ argv, stdin: Readable.from([]), stdout, stderr, env: {}, cwd });
  const lines = out.split('\n').filter(Boolean);
  return { code, stdout: out, stderr: err, json: lines.every((l) => l.startsWith('{')) ? lines.map((l) => JSON.parse(l) as unknown) : [] };
}

/** Two sessions, interleaved, one of them with events out of order (so it has diagnostics). */
function input(alphaCount = 120, betaCount = 64): ToolEvent[] {
  const alpha = eventsRange('alpha', 0, alphaCount);
  const beta = eventsRange('beta', 0, betaCount);
  [alpha[10], alpha[30]] = [alpha[30]!, alpha[10]!];
  const r = rng(5);
  const out: ToolEvent[] = [];
  while (alpha.length || beta.length) out.push((r() < 0.6 && alpha.length) || !beta.length ? alpha.shift()! : beta.shift()!);
  return out;
}

function writeEvents(name: string, events: ToolEvent[]): string {
  const dir = join(tempDir(), 'inputs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return file;
}

async function memoryParts(events: ToolEvent[], sessionId: string, toSeq?: number): Promise<NormalizedToolPart[]> {
  const mem = new MemoryEventStore();
  await mem.append(sessionId, events.filter((e) => e.sessionId === sessionId), 0);
  const repo = new ToolRepository(mem);
  return toSeq === undefined ? repo.parts(sessionId) : (await import('../../src/events/projector.js')).projectParts(await repo.state(sessionId, toSeq));
}

const byId = (parts: unknown[]) => [...(parts as { id: string }[])].sort((a, b) => a.id.localeCompare(b.id));

const targets = [
  { name: 'sqlite', available: true, url: () => `sqlite:${join(tempDir(), `cli-${Date.now()}-${Math.random().toString(36).slice(2)}.db`)}` },
  { name: 'postgres', available: PG, url: freshPostgresUrl },
];

describe.each(targets)('CLI with a $name store', (target) => {
  it.skipIf(!target.available)('normalize --store appends every event; sessions lists them; replay rebuilds parts, events, ACP and UI', async () => {
    const url = target.url();
    const events = input();
    const file = writeEvents(`two-sessions-${target.name}.jsonl`, events);
    const normalized = await cli(['normalize', '--from', 'events', '--store', url, '--quiet', '--summary', file]);
    expect(normalized.code).toBe(0);
    // Counts reconcile: every event the pipeline accepted is in the store.
    const summary = JSON.parse(normalized.stderr) as { events: number; invalidEvents: number };
    expect(summary).toMatchObject({ events: events.length, invalidEvents: 0 });

    const sessions = await cli(['sessions', '--store', url]);
    expect(sessions.code).toBe(0);
    const count = (id: string) => events.filter((e) => e.sessionId === id);
    // Listed in creation order: the session whose first event came first.
    const order = [...new Set(events.map((e) => e.sessionId))];
    expect(sessions.json.map((s) => (s as { sessionId: string }).sessionId)).toEqual(order);
    expect(byId(sessions.json.map((s) => ({ ...(s as object), id: (s as { sessionId: string }).sessionId })))).toEqual([
      { id: 'alpha', sessionId: 'alpha', events: 120, firstAt: count('alpha')[0]!.at, lastAt: count('alpha').at(-1)!.at },
      { id: 'beta', sessionId: 'beta', events: 64, firstAt: count('beta')[0]!.at, lastAt: count('beta').at(-1)!.at },
    ]);
    expect(120 + 64).toBe(summary.events);
    const table = await cli(['sessions', '--store', url, '--format', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^SESSION\s+EVENTS\s+FIRST\s+LAST$/);
    expect(table.stdout).toMatch(/alpha\s+120\s+2023-11-14T22:13:20\.000Z/);

    const replayedEvents = await cli(['replay', '--store', url, '--session', 'alpha', '--to', 'events']);
    expect(replayedEvents.json).toEqual(count('alpha').map((e, i) => ({ ...e, seq: i + 1 })));

    const parts = await cli(['replay', '--store', url, '--session', 'alpha']);
    expect(parts.code).toBe(0);
    const expected = await memoryParts(events, 'alpha');
    expect(parts.json).toEqual(expected);
    // The two swapped events made diagnostics; replay reports them on stderr.
    expect(parts.stderr.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { code: string }).code)).toContain('unknown_part');
    // Same parts as normalize prints straight from the input (its order is by completion).
    const direct = await cli(['normalize', '--from', 'events', '--quiet', writeEvents(`alpha-${target.name}.jsonl`, count('alpha'))]);
    expect(direct.json).toHaveLength(expected.length);
    expect(byId(parts.json)).toEqual(byId(direct.json));

    const acp = await cli(['replay', '--store', url, '--session', 'alpha', '--to', 'acp']);
    expect(acp.json).toEqual(encodeParts('alpha', expected).map((params) => ({ jsonrpc: '2.0', method: 'session/update', params })));
    for (const frame of acp.json) expect(officialAcpErrors((frame as { params: unknown }).params)).toEqual([]);

    const ui = await cli(['replay', '--store', url, '--session', 'alpha', '--to', 'ui', '--ui-states', 'canonical']);
    expect(ui.json).toEqual(expected.map((p) => toUiPart(p, { states: 'canonical' })));

    const asOf = await cli(['replay', '--store', url, '--session', 'alpha', '--to-seq', '37', '--quiet']);
    expect(asOf.json).toEqual(await memoryParts(events, 'alpha', 37));
  });

  it.skipIf(!target.available)('normalizing the same input again appends nothing; a longer input appends only what is new; different content is refused', async () => {
    const url = target.url();
    // Several sink batches (1000 events each) per run, so matching spans batch boundaries.
    const events = input(2400, 800);
    const half = events.slice(0, 1900);
    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', writeEvents('half.jsonl', half)])).code).toBe(0);
    const heads = async () => Object.fromEntries((await cli(['sessions', '--store', url])).json.map((s) => [(s as { sessionId: string }).sessionId, (s as { events: number }).events]));
    const afterHalf = await heads();
    expect(afterHalf).toEqual({ alpha: half.filter((e) => e.sessionId === 'alpha').length, beta: half.filter((e) => e.sessionId === 'beta').length });

    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', writeEvents('half-again.jsonl', half)])).code).toBe(0);
    expect(await heads()).toEqual(afterHalf);

    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', writeEvents('all.jsonl', events)])).code).toBe(0);
    expect(await heads()).toEqual({ alpha: 2400, beta: 800 });
    const stored = await cli(['replay', '--store', url, '--session', 'beta', '--to', 'events']);
    expect(stored.json).toEqual(events.filter((e) => e.sessionId === 'beta').map((e, i) => ({ ...e, seq: i + 1 })));

    const changed = events.map((e, i) => (i === 2500 ? { ...e, at: e.at! + 1 } : e));
    const refused = await cli(['normalize', '--from', 'events', '--store', url, '--quiet', writeEvents('changed.jsonl', [...changed, ...eventsRange(changed[2500]!.sessionId, 500, 510)])]);
    expect(refused.code).toBe(1);
    // The store and the cause are named; it is never "cannot read" the input.
    expect(refused.stderr).toMatch(new RegExp(`^toolnorm normalize: store \\S+: conflict: session ${changed[2500]!.sessionId} already holds a different event at seq \\d+ .*Nothing more was appended`));
    expect(refused.stderr).not.toContain('cannot read');
    expect(await heads()).toEqual({ alpha: 2400, beta: 800 });
  });
});

describe('CLI store errors', () => {
  it('say what is wrong and exit 1 (store, session) or 2 (usage)', async () => {
    const dir = join(tempDir(), 'errors');
    mkdirSync(dir, { recursive: true });
    const missing = await cli(['replay', '--session', 'x'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot open store sqlite:\.toolnorm\/events\.db: no event store at .*\.toolnorm\/events\.db/);
    expect((await cli(['sessions'], dir)).stderr).toMatch(/no event store at/);

    const url = `sqlite:${join(dir, 'e.db')}`;
    const store = await openStore(url);
    await store.append('only', eventsRange('only', 0, 8), 0);
    await store.close();
    const unknown = await cli(['replay', '--store', url, '--session', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session nope in sqlite:.*e\.db/);

    expect((await cli(['replay', '--store', url])).code).toBe(2);
    expect((await cli(['replay', '--store', url])).stderr).toMatch(/--session is required/);
    expect((await cli(['replay', '--store', url, '--session', 'only', '--to', 'xml'])).code).toBe(2);
    expect((await cli(['replay', '--store', url, '--session', 'only', '--follow'])).stderr).toMatch(/--to events only/);
    expect((await cli(['replay', '--store', url, '--session', 'only', '--to-seq', '-3'])).code).toBe(2);
    expect((await cli(['sessions', '--store', url, '--format', 'xml'])).code).toBe(2);
    expect((await cli(['sessions', '--store', 'redis://h'])).stderr).toMatch(/unknown store URL "redis:\/\/h"/);

    const file = writeEvents('one.jsonl', eventsRange('one', 0, 4));
    const memory = await cli(['normalize', '--from', 'events', '--store', 'memory:', file]);
    expect(memory.code).toBe(1);
    expect(memory.stderr).toMatch(/cannot open store memory:: a memory: store is gone when normalize exits/);

    // The default store, found from the working directory.
    const defaultStore = await openStore(undefined, { cwd: dir });
    await defaultStore.append('here', eventsRange('here', 0, 3), 0);
    await defaultStore.close();
    expect((await cli(['sessions'], dir)).json).toEqual([{ sessionId: 'here', events: 3, firstAt: eventsRange('here', 0, 1)[0]!.at, lastAt: eventsRange('here', 2, 3)[0]!.at }]);
  });
});

describe.each(targets)('replay --follow with a $name store', (target) => {
  it.skipIf(!target.available)('prints events as another process appends them, until interrupted', async () => {
    const url = target.url();
    const store = await openStore(url);
    try {
      await store.append('live', eventsRange('live', 0, 5), 0);
      const follower = new Child(['replay', '--store', url, '--session', 'live', '--to', 'events', '--follow', '--from-seq', '2'], CLI_MAIN);
      await follower.next((l) => l.includes('"seq":5'));
      for (let head = 5; head < 105; head += 10) await store.append('live', eventsRange('live', head, head + 10), head);
      await follower.next((l) => l.includes('"seq":105'));
      follower.proc.kill('SIGTERM');
      const exit = await follower.exited;
      // Ended by the signal, cleanly: everything read is printed, and the code says SIGTERM.
      expect(exit.code).toBe(143);
      expect(follower.lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(Array.from({ length: 104 }, (_, i) => i + 2));
    } finally {
      await store.close();
    }
  });
});
