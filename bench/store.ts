// `npm run bench -- store [--events N] [--batch N] [--single N] [--pg URL|off] [--stores memory,sqlite,postgres]`
// Append (batched and one event per append) and replay throughput of the durable stores, each
// next to the in-memory store measured in the same run. Replay is timed twice: reading the events
// back (the store's own cost) and rebuilding parts through ToolRepository (what a user waits for).
// Event generation happens outside the timed sections; validation (assertAppendable) is inside,
// since every append pays it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { ToolEvent } from '../src/contract/index.js';
import { ToolRepository } from '../src/events/repository.js';
import { MemoryEventStore } from '../src/store/memory.js';
import { PostgresEventStore, redact } from '../src/store/postgres.js';
import { SqliteEventStore } from '../src/store/sqlite.js';
import type { EventStore } from '../src/store/types.js';
import { eventsRange } from '../test/store/stream.js';

interface Row {
  store: string;
  batched: number;
  single: number;
  read: number;
  replay: number;
  note?: string;
}

const TARGETS = { sqliteBatched: 100_000, sqliteRead: 300_000 };

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Wall-clock seconds of `fn`; its CPU seconds in this process are added to `cpu` when given. */
async function timed(fn: () => Promise<void>, cpu?: { s: number }): Promise<number> {
  const c0 = cpuSeconds();
  const t0 = performance.now();
  await fn();
  if (cpu) cpu.s += cpuSeconds() - c0;
  return (performance.now() - t0) / 1000;
}

async function measure(name: string, store: EventStore, o: { events: number; batch: number; single: number }): Promise<Row> {
  const session = 'bench-batched';
  let appendSeconds = 0;
  const appendCpu = { s: 0 };
  for (let head = 0; head < o.events; head += o.batch) {
    const batch: ToolEvent[] = eventsRange(session, head, Math.min(o.events, head + o.batch));
    appendSeconds += await timed(async () => { await store.append(session, batch, head); }, appendCpu);
  }
  const singles = eventsRange('bench-single', 0, o.single);
  const singleSeconds = await timed(async () => {
    for (let i = 0; i < singles.length; i++) await store.append('bench-single', [singles[i]!], i);
  });
  let count = 0;
  const readCpu = { s: 0 };
  const readSeconds = await timed(async () => {
    for await (const _ of store.read(session, { batchSize: 5000 })) count++;
  }, readCpu);
  if (count !== o.events) throw new Error(`${name}: read ${count} events, appended ${o.events}`);
  let parts = 0;
  const replaySeconds = await timed(async () => {
    const state = await new ToolRepository(store).state(session);
    parts = state.parts.size;
    if (state.eventCount !== o.events) throw new Error(`${name}: replayed ${state.eventCount} events, appended ${o.events}`);
  });
  return {
    store: name,
    batched: o.events / appendSeconds,
    single: o.single / singleSeconds,
    read: o.events / readSeconds,
    replay: o.events / replaySeconds,
    note: `${parts} parts; per CPU-second of this process: append ${fmt(o.events / appendCpu.s)}, read ${fmt(o.events / readCpu.s)}`,
  };
}

function fmt(n: number): string {
  return `${Math.round(n).toLocaleString('en-US')}/s`;
}


function print(rows: Row[], baseline: Row): void {
  const header = ['store', 'append batched', '×mem', 'append single', '×mem', 'read (replay events)', '×mem', 'replay to parts', '×mem', 'note'];
  const lines = rows.map((r) => [
    r.store,
    fmt(r.batched), (r.batched / baseline.batched).toFixed(2),
    fmt(r.single), (r.single / baseline.single).toFixed(2),
    fmt(r.read), (r.read / baseline.read).toFixed(2),
    fmt(r.replay), (r.replay / baseline.replay).toFixed(2),
    r.note ?? '',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  for (const l of [header, ...lines]) console.log(l.map((cell, c) => (c === 0 || c === l.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      events: { type: 'string', default: '1000000' },
      batch: { type: 'string', default: '1000' },
      single: { type: 'string', default: '20000' },
      'pg-single': { type: 'string', default: '3000' },
      pg: { type: 'string', default: process.env.TOOLNORM_PG_URL ?? '' },
      stores: { type: 'string', default: 'memory,sqlite,postgres' },
    },
  });
  // The memory store is the baseline of every run.
  const stores = new Set(['memory', ...values.stores.split(',')]);
  const events = Number(values.events);
  const batch = Number(values.batch);
  const single = Number(values.single);
  console.log(`store bench: ${events.toLocaleString('en-US')} events (~300 bytes of JSON each) appended in batches of ${batch}, ${single.toLocaleString('en-US')} single-event appends (${values['pg-single']} for PostgreSQL), then read back and replayed to parts; Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)} (wall-clock rates drop when other processes share the CPUs; the CPU-second rates in the notes do not)`);

  const rows: Row[] = [];
  const memory = await measure('memory', new MemoryEventStore(), { events, batch, single });
  rows.push(memory);

  if (stores.has('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-bench-'));
    try {
      const path = join(dir, 'events.db');
      const sqlite = new SqliteEventStore(path);
      const row = await measure('sqlite', sqlite, { events, batch, single });
      await sqlite.close();
      row.note = `${row.note}; file ${(statSync(path).size / 1024 / 1024).toFixed(0)} MiB; synchronous=NORMAL (WAL)`;
      rows.push(row);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  let pgNote: string | undefined;
  if (!stores.has('postgres')) {
    pgNote = 'PostgreSQL not measured (--stores)';
  } else if (!values.pg || values.pg === 'off') {
    pgNote = 'PostgreSQL SKIPPED: no server (set TOOLNORM_PG_URL=postgres://… or pass --pg URL)';
  } else {
    const schema = `tn_bench_${process.pid}`;
    const url = new URL(values.pg);
    url.searchParams.set('schema', schema);
    let store: PostgresEventStore | undefined;
    try {
      store = await PostgresEventStore.open(url.toString());
    } catch (err) {
      pgNote = `PostgreSQL SKIPPED: ${redact(values.pg)} is not reachable (${(err as Error).message})`;
    }
    if (store) {
      try {
        const row = await measure('postgres', store, { events, batch, single: Number(values['pg-single']) });
        row.note = `${row.note}; loopback, synchronous_commit as configured by the server`;
        rows.push(row);
      } finally {
        await store.close();
        const client = new pg.Client({ connectionString: values.pg });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    }
  }

  console.log('');
  print(rows, memory);
  if (pgNote) console.log(`\n${pgNote}`);
  const s = rows.find((r) => r.store === 'sqlite');
  if (!s) return;
  console.log('');
  console.log(`target SQLite batched append ≥ ${fmt(TARGETS.sqliteBatched)}: ${fmt(s.batched)} ${s.batched >= TARGETS.sqliteBatched ? 'MET' : 'MISSED'}`);
  console.log(`target SQLite replay (read) ≥ ${fmt(TARGETS.sqliteRead)}: ${fmt(s.read)} ${s.read >= TARGETS.sqliteRead ? 'MET' : 'MISSED'}`);
}
