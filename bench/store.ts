// `npm run bench -- store [--events N] [--rounds N] [--batch N] [--pg URL|off] [--stores sqlite,postgres] [--single N]`
// Batched append and replay throughput of the durable stores, as medians of interleaved rounds,
// each next to baselines measured in the same round (the machine is shared, so only same-run
// ratios are comparable between runs):
// - raw SQLite (the engine's own statements): one prepared single-row INSERT per event of the same, already serialized
//   rows into the same table, one transaction per batch: what the store's append costs without
//   validation, serialization and the concurrency check;
// - raw PostgreSQL (the pg client's own statements): the same serialized rows into the store's
//   toolnorm_events table, one multi-row INSERT … SELECT FROM unnest(arrays) per batch, each its own
//   transaction: what the PostgreSQL store's append costs without validation, serialization and
//   the head check (in a schema of its own, dropped after);
// - JSON.parse of the same event lines: the floor of any replay that decodes what it reads.
// Event generation and serialization for the baselines happen outside the timed sections;
// validation and serialization are inside the store's append, since every append pays them.
// The stores measured are the built package's (dist/, as `npx toolnorm` and library users run it).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
// The raw baseline runs on the same SQLite engine as the store (TOOLNORM_SQLITE_ENGINE, else
// node:sqlite on Node >= 22.13 and better-sqlite3 on Node 20): run the bench under each Node to compare them.
import Database from '../test/store/raw-sqlite.js';
import { sqliteEngine } from '../src/store/sqlite-driver.js';
import pg from 'pg';
import type { ToolEvent } from '../src/contract/index.js';
import type { EventStore } from '../src/store/types.js';
// The store's own row maker (plain JSON.stringify, no validator): the baseline rows are the store's.
import { eventRow } from '../src/store/serial.js';
import { eventsRange, EVENTS_PER_PART } from '../test/store/stream.js';
import { compiled } from './_compiled.js';
import { median } from './_measure.js';

// The built package, as users run it (tsx put a getter on every re-export it passes through).
const core = await compiled<typeof import('../src/index.js')>('src/index.js');
const stores = await compiled<typeof import('../src/store/index.js')>('src/store/index.js');
const { ToolRepository, issuesOfToolEvent } = core;
const { PostgresEventStore, SqliteEventStore, describeStoreUrl } = stores;

/**
 * What every append checks before it writes, as the store does it: the contract, and the session.
 * A mirror of the store's own check, run on the built validators: through the sources, tsx's
 * re-export getters would slow the baseline, not the store.
 */
function assertAppendable(sessionId: string, events: readonly ToolEvent[]): void {
  for (const e of events) if (issuesOfToolEvent(e).length || e.sessionId !== sessionId) throw new Error(`bench event ${e.partId} is not appendable`);
}

const TARGETS = { 'sqlite append': 300_000, 'sqlite replay to parts': 500_000 } as const;

/** Events per second of each measure, one entry per round. */
type Samples = Map<string, number[]>;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU milliseconds this process spent in the last timed section (not the database server's). */
let lastCpuMs = 0;

const rate = (events: number, ms: number) => events / (ms / 1000);
const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;

async function time(fn: () => unknown): Promise<number> {
  const c0 = cpuMs();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  lastCpuMs = cpuMs() - c0;
  return ms;
}

interface Input {
  session: string;
  batches: ToolEvent[][];
  /** The stored text of each event, as the store writes it. */
  bodies: string[];
  rows: ReturnType<typeof eventRow>[];
  events: number;
}

async function appendAll(store: EventStore, input: Input): Promise<void> {
  let head = 0;
  for (const b of input.batches) {
    await store.append(input.session, b, head);
    head += b.length;
  }
}

async function readAll(store: EventStore, input: Input): Promise<void> {
  let n = 0;
  for await (const _ of store.read(input.session, { batchSize: 5000 })) n++;
  if (n !== input.events) throw new Error(`read ${n} events, appended ${input.events}`);
}

async function replayToParts(store: EventStore, input: Input): Promise<void> {
  const parts = await new ToolRepository(store).parts(input.session);
  if (parts.length !== Math.ceil(input.events / EVENTS_PER_PART)) throw new Error(`replayed ${parts.length} parts from ${input.events} events`);
}

/** The store's own events table, filled by plain statements of the same engine. */
function rawSqliteInsert(path: string, input: Input, batch: number): number {
  new SqliteEventStore(path).close();
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 10000');
    const insert = db.prepare('INSERT INTO events (stream, seq, type, part_id, at, body) VALUES (?, ?, ?, ?, ?, ?)');
    const tx = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const r = input.rows[i]!;
        insert.run(1, i + 1, r.type, r.partId, r.at, r.body);
      }
    });
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let i = 0; i < input.events; i += batch) tx.immediate(i, Math.min(input.events, i + batch));
    const ms = performance.now() - t0;
    lastCpuMs = cpuMs() - c0;
    return ms;
  } finally {
    db.close();
  }
}

/** The PostgreSQL store's own events table, filled by plain multi-row inserts of the same rows. */
async function rawPostgresInsert(url: string, schema: string, input: Input, batch: number): Promise<number> {
  await (await PostgresEventStore.open(url)).close();
  const client = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, '') });
  await client.connect();
  try {
    const sql = `INSERT INTO "${schema}".toolnorm_events (session_id, seq, type, part_id, at, body)
      SELECT $1, s, t, p, a, b FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::text[]) AS u(s, t, p, a, b)`;
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let i = 0; i < input.events; i += batch) {
      const rows = input.rows.slice(i, Math.min(input.events, i + batch));
      await client.query(sql, [input.session, rows.map((_, k) => i + k + 1), rows.map((r) => r.type), rows.map((r) => r.partId), rows.map((r) => r.at), rows.map((r) => r.body)]);
    }
    const ms = performance.now() - t0;
    lastCpuMs = cpuMs() - c0;
    return ms;
  } finally {
    await client.end();
  }
}

function checkRows(path: string, input: Input): void {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT type, part_id AS partId, at, body FROM events ORDER BY seq').all() as ReturnType<typeof eventRow>[];
    if (rows.length !== input.rows.length || rows.some((row, i) => JSON.stringify(row) !== JSON.stringify(input.rows[i]))) throw new Error('the store wrote other rows than the raw-insert baseline inserts');
  } finally {
    db.close();
  }
}

function parseAll(input: Input): number {
  const c0 = cpuMs();
  const t0 = performance.now();
  let n = 0;
  for (const b of input.bodies) if ((JSON.parse(b) as ToolEvent).type) n++;
  const ms = performance.now() - t0;
  lastCpuMs = cpuMs() - c0;
  if (n !== input.events) throw new Error('parse baseline lost events');
  return ms;
}

/** What every append must do before any write, measured alone: the floor under any store's append. */
function validateAll(input: Input): number {
  const c0 = cpuMs();
  const t0 = performance.now();
  for (const b of input.batches) assertAppendable(input.session, b);
  const ms = performance.now() - t0;
  lastCpuMs = cpuMs() - c0;
  return ms;
}

function stringifyAll(input: Input): number {
  const c0 = cpuMs();
  const t0 = performance.now();
  let n = 0;
  for (const b of input.batches) for (const e of b) n += eventRow(e).body.length;
  const ms = performance.now() - t0;
  lastCpuMs = cpuMs() - c0;
  if (!n) throw new Error('stringify baseline wrote nothing');
  return ms;
}

function push(samples: Samples, name: string, value: number): void {
  let list = samples.get(name);
  if (!list) samples.set(name, (list = []));
  list.push(value);
}

const range = (xs: number[]) => `${fmt(Math.min(...xs))} – ${fmt(Math.max(...xs))}`;

function ratios(samples: Samples, name: string, baseline: string): number[] {
  const a = samples.get(name) ?? [];
  const b = samples.get(baseline) ?? [];
  return a.map((x, i) => x / b[i]!);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      events: { type: 'string', default: '200000' },
      rounds: { type: 'string', default: '5' },
      batch: { type: 'string', default: '1000' },
      single: { type: 'string', default: '0' },
      pg: { type: 'string', default: process.env.TOOLNORM_PG_URL ?? '' },
      stores: { type: 'string', default: 'sqlite,postgres' },
    },
  });
  const stores = new Set(values.stores.split(','));
  const events = Number(values.events);
  const batch = Number(values.batch);
  const rounds = Number(values.rounds);
  const session = 'bench';
  const batches: ToolEvent[][] = [];
  // Appended as JSON.parse makes them, as events read from a recording or a store are: the
  // generator's own objects are slow to read (the validator took 2.8–3.8 µs an event on them
  // instead of 0.3–0.7 µs; docs/store-benchmark.md), a cost of the generator, not of the store.
  for (let head = 0; head < events; head += batch) batches.push(JSON.parse(JSON.stringify(eventsRange(session, head, Math.min(events, head + batch)))) as ToolEvent[]);
  const rows = batches.flat().map(eventRow);
  const input: Input = { session, batches, rows, bodies: rows.map((r) => r.body), events };
  const bytes = input.bodies.reduce((n, b) => n + b.length, 0);
  console.log(`store bench: ${events.toLocaleString('en-US')} events (${Math.round(bytes / events)} bytes of JSON each on average, ${EVENTS_PER_PART} events per part) appended in batches of ${batch}, read back and replayed to parts; ${rounds} interleaved rounds; Node ${process.version}, SQLite engine ${sqliteEngine()}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}`);

  let pgUrl: string | undefined;
  let pgNote: string | undefined;
  const schema = `tn_bench_${process.pid}`;
  if (!stores.has('postgres')) pgNote = 'PostgreSQL not measured (--stores)';
  else if (!values.pg || values.pg === 'off') pgNote = 'PostgreSQL SKIPPED: no server (set TOOLNORM_PG_URL=postgres://… or pass --pg URL)';
  else {
    const url = new URL(values.pg);
    url.searchParams.set('schema', schema);
    try {
      await (await PostgresEventStore.open(url.toString())).close();
      pgUrl = url.toString();
    } catch (err) {
      pgNote = `PostgreSQL SKIPPED: ${describeStoreUrl(values.pg)} is not reachable (${(err as Error).message})`;
    }
  }
  const pgAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: values.pg });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  const samples: Samples = new Map();
  const cpuSamples: Samples = new Map();
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-bench-'));
  try {
    // Round 0 is a warm-up (JIT, page cache), not counted.
    for (let r = 0; r <= rounds; r++) {
      const keep = (name: string, ms: number) => {
        if (r === 0) return;
        push(samples, name, rate(events, ms));
        push(cpuSamples, name, rate(events, lastCpuMs));
      };
      keep('JSON.parse of the event lines', parseAll(input));
      keep('contract validation of the events', validateAll(input));
      keep('serialization of the events', stringifyAll(input));
      keep('raw SQLite insert', rawSqliteInsert(join(dir, `raw-${r}.db`), input, batch));
      rmSync(join(dir, `raw-${r}.db`), { force: true });
      if (stores.has('sqlite')) {
        const path = join(dir, `store-${r}.db`);
        const store = new SqliteEventStore(path);
        try {
          keep('sqlite append', await time(() => appendAll(store, input)));
          // The raw-insert baseline wrote the bench's own rows: they must be the store's, byte for byte.
          if (r === 0) checkRows(path, input);
          keep('sqlite read', await time(() => readAll(store, input)));
          keep('sqlite replay to parts', await time(() => replayToParts(store, input)));
        } finally {
          await store.close();
          for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
        }
      }
      if (pgUrl) {
        await pgAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        keep('raw PostgreSQL insert', await rawPostgresInsert(pgUrl, schema, input, batch));
        await pgAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        const store = await PostgresEventStore.open(pgUrl);
        try {
          keep('postgres append', await time(() => appendAll(store, input)));
          keep('postgres read', await time(() => readAll(store, input)));
          keep('postgres replay to parts', await time(() => replayToParts(store, input)));
        } finally {
          await store.close();
        }
      }
      process.stderr.write(`round ${r}${r === 0 ? ' (warm-up)' : ''} done\n`);
    }
    const single = Number(values.single);
    if (single > 0 && stores.has('sqlite')) {
      // One commit per event: bound by the commit, not by the per-event work; reported once.
      const store = new SqliteEventStore(join(dir, 'single.db'));
      const evs = eventsRange('single', 0, single);
      const ms = await time(async () => { for (let i = 0; i < single; i++) await store.append('single', [evs[i]!], i); });
      await store.close();
      console.log(`sqlite single-event appends (one round): ${fmt(rate(single, ms))}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pgUrl) await pgAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  }

  // Each store's append against the raw insert of its own database; every read and replay against JSON.parse.
  const baselineOf = (name: string) => (/^postgres append/.test(name) ? 'raw PostgreSQL insert' : /append/.test(name) ? 'raw SQLite insert' : /read|replay/.test(name) ? 'JSON.parse of the event lines' : undefined);
  // Per CPU-second of this process: less sensitive to other processes than wall time, and for
  // PostgreSQL only the client's share (the server's CPU is not counted).
  const header = ['measure', 'median', 'range', 'ratio to same-round baseline (median, range)', 'per CPU-second (median)'];
  const lines = [...samples].map(([name, xs]) => {
    const base = baselineOf(name);
    const rs = base ? ratios(samples, name, base) : [];
    const ratio = base ? `${median(rs).toFixed(2)}× ${base} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})` : 'baseline';
    return [name, fmt(median(xs)), range(xs), ratio, `${fmt(median(cpuSamples.get(name)!))}${/postgres/.test(name) ? ' (client only)' : ''}`];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  console.log('');
  for (const l of [header, ...lines]) console.log(l.map((cell, c) => (c === 1 || c === 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd());
  if (pgNote) console.log(`\n${pgNote}`);
  console.log('');
  // Validation and serialization alone, one after the other, with no write at all.
  const floor = (samples.get('contract validation of the events') ?? []).map((v, i) => 1 / (1 / v + 1 / samples.get('serialization of the events')![i]!));
  console.log(`validation + serialization alone (no write): median ${fmt(median(floor))}, range ${range(floor)}: no append can beat it on this machine now`);
  for (const name of ['sqlite append', 'postgres append']) {
    const xs = samples.get(name);
    if (!xs || !floor.length) continue;
    const rs = xs.map((x, i) => x / floor[i]!);
    console.log(`${name} against that floor: median ${median(rs).toFixed(2)}× (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`);
  }
  // Issue 34's goals, as ratios to the baselines of the same round (medians of the per-round ratios).
  for (const [name, base, goal] of [['sqlite append', 'raw SQLite insert', 0.8], ['sqlite replay to parts', 'JSON.parse of the event lines', 0.8], ['postgres append', 'raw PostgreSQL insert', undefined], ['postgres replay to parts', 'JSON.parse of the event lines', undefined]] as const) {
    if (!samples.has(name) || !samples.has(base)) continue;
    const rs = ratios(samples, name, base);
    const m = median(rs);
    console.log(`${name} / ${base}: ${m.toFixed(2)}× (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})${goal === undefined ? '' : `, goal ≥ ${goal}×: ${m >= goal ? 'MET' : 'MISSED'}`}`);
  }
  for (const [name, goal] of Object.entries(TARGETS)) {
    const xs = samples.get(name);
    if (xs) console.log(`goal ${name} ≥ ${fmt(goal)}: median ${fmt(median(xs))} ${median(xs) >= goal ? 'MET' : 'MISSED'}`);
  }
}
