// SqliteEventStore: the embedded default. One file, WAL mode, one IMMEDIATE transaction per
// append batch; the concurrency check runs inside that transaction, so several processes sharing
// the file serialize on SQLite's write lock and the loser sees the winner's head.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { openSqlite, sqliteEngine, type SqliteDb, type SqliteEngine } from './sqlite-driver.js';
import type { ToolEvent } from '../contract/index.js';
import { pendingMigrations, type Migration } from './migrations.js';
import { batchedEvents } from './batches.js';
import { batchTimes, checkExpectedSeq, eventRow, storedEvent, StoreCorruptionError, type EventRow } from './serial.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { ConcurrencyError, type AppendBatch, type AppendResult, type EventStore, type ReadOptions, type SessionInfo, type Snapshot, type StoredEvent } from './types.js';
import { assertAppendable } from './validate.js';

export { DEFAULT_SQLITE_PATH } from './url.js';
export type { SqliteEngine } from './sqlite-driver.js';

export interface SqliteStoreOptions {
  /** Create the file and its directory when missing (default true). */
  create?: boolean;
  /**
   * `normal` (default): a committed append survives the process being killed at any moment; the
   * last commits may be lost on power loss, never corrupted. `full`: fsync on every commit, which
   * also survives power loss, at the price of one disk flush per append.
   */
  synchronous?: 'normal' | 'full';
  /** How long a writer waits for another process holding the write lock (default 10 s). */
  busyTimeoutMs?: number;
  /** Schema migrations (tests inject extra versions; default: the released list). */
  migrations?: readonly Migration[];
  /**
   * Read only: nothing is written (no migration, no pragma that changes the file), so a read-only
   * file or directory is enough. A WAL-mode store in a directory where SQLite cannot create its
   * `-shm` index is read from a private copy of the file (and its `-wal`), made at open.
   */
  readOnly?: boolean;
  /**
   * The SQLite engine: `node:sqlite` (built into Node 22.13+), `better-sqlite3` (the optional
   * peer, the Node 20 path) or `auto` (default, or `TOOLNORM_SQLITE_ENGINE`): node:sqlite where the
   * runtime has it. Both write the same file format.
   */
  engine?: SqliteEngine | 'auto';
}

/** Rows per multi-row INSERT. */
const INSERT_CHUNK = 64;

interface RowBatch {
  sessionId: string;
  rows: readonly EventRow[];
  expectedSeq: number;
}

interface StreamRow {
  id: number;
  head: number;
}

type Db = SqliteDb;

/** @internal Applies pending migrations in one IMMEDIATE transaction, so concurrent openers apply each once. */
export function migrateSqlite(db: Db, migrations: readonly Migration[], where: string): number {
  const run = db.transaction(() => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    if (tables.length && !tables.includes('schema_version')) {
      throw new Error(`${where} is an SQLite database but not a toolnorm event store (it has tables ${tables.slice(0, 5).join(', ')} and no schema_version)`);
    }
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const current = (db.prepare('SELECT coalesce(max(version), 0) FROM schema_version').pluck().get() as number) ?? 0;
    const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
    let version = current;
    for (const m of pendingMigrations(migrations, current, where)) {
      db.exec(m.up);
      record.run(m.version, m.description, Date.now());
      version = m.version;
    }
    return version;
  });
  return run.immediate();
}

export class SqliteEventStore implements EventStore {
  /** @internal The connection (better-sqlite3's, or node:sqlite's wrapped to the same surface). */
  readonly db: Db;
  /** The SQLite engine this store runs on. */
  readonly engine: SqliteEngine;
  readonly schemaVersion: number;
  /** The private copy a read-only store is read from, when the original could not be opened in place. */
  private readonly copyDir: string | undefined;
  private closed = false;
  private readonly q;
  private readonly appendTx;

  constructor(readonly path: string, options: SqliteStoreOptions = {}) {
    this.engine = sqliteEngine(options.engine);
    if (options.readOnly) {
      const { db, copy } = openReadOnly(this.engine, path, options.busyTimeoutMs ?? 10_000);
      this.db = db;
      this.copyDir = copy;
      try {
        this.schemaVersion = readSchemaVersion(db, options.migrations ?? SQLITE_MIGRATIONS, path);
      } catch (err) {
        this.dropDb();
        throw err;
      }
    } else {
      this.db = this.openWritable(path, options);
      this.schemaVersion = migrateSqlite(this.db, options.migrations ?? SQLITE_MIGRATIONS, path);
    }
    const db = this.db;
    this.q = {
      stream: db.prepare('SELECT id, head FROM streams WHERE session_id = ?'),
      newStream: db.prepare('INSERT INTO streams (session_id, head, first_at, last_at) VALUES (?, 0, NULL, NULL)'),
      setHead: db.prepare('UPDATE streams SET head = ?, first_at = coalesce(first_at, ?), last_at = coalesce(?, last_at) WHERE id = ?'),
      insert: db.prepare('INSERT INTO events (stream, seq, type, part_id, at, body) VALUES (?, ?, ?, ?, ?, ?)'),
      insertChunk: db.prepare(`INSERT INTO events (stream, seq, type, part_id, at, body) VALUES ${Array(INSERT_CHUNK).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`),
      // Raw rows ([body]), decoded straight from the engine's page: a plucked page is a second
      // pass over every row under node:sqlite, which has no pluck of its own.
      range: db.prepare('SELECT body FROM events WHERE stream = ? AND seq BETWEEN ? AND ? ORDER BY seq').raw(),
      missing: db.prepare('SELECT seq FROM events WHERE stream = ? AND seq BETWEEN ? AND ? ORDER BY seq').pluck(),
      sessions: db.prepare('SELECT session_id, head, first_at, last_at FROM streams ORDER BY id').raw(),
      saveSnapshot: db.prepare('INSERT OR REPLACE INTO snapshots (session_id, seq, data, saved_at) VALUES (?, ?, ?, ?)'),
      loadSnapshot: db.prepare('SELECT seq, data FROM snapshots WHERE session_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1').raw(),
    };
    // One transaction for any number of session batches: a group commit (one write-lock take and
    // one WAL commit for all of them), each batch still checked against its own expected head.
    this.appendTx = db.transaction((batches: readonly RowBatch[]): AppendResult[] => batches.map((b) => this.insertBatch(b)));
  }

  /** The writes of one batch, inside appendTx: head check, rows, new head. */
  private insertBatch({ sessionId, rows, expectedSeq }: RowBatch): AppendResult {
    const q = this.q;
    let stream = q.stream.get(sessionId) as StreamRow | undefined;
    const head = stream?.head ?? 0;
    if (head !== expectedSeq) throw new ConcurrencyError(sessionId, expectedSeq, head);
    if (!stream) stream = { id: Number(q.newStream.run(sessionId).lastInsertRowid), head: 0 };
    // Many rows per statement: a third less work per event than one INSERT each. The argument
    // array is made once per store and refilled: the rows go into it straight from the events.
    const args = this.chunkArgs;
    const n = rows.length;
    let i = 0;
    for (; i + INSERT_CHUNK <= n; i += INSERT_CHUNK) {
      for (let j = 0, a = 0; j < INSERT_CHUNK; j++, a += 6) {
        const r = rows[i + j]!;
        args[a] = stream.id;
        args[a + 1] = head + 1 + i + j;
        args[a + 2] = r.type;
        args[a + 3] = r.partId;
        args[a + 4] = r.at;
        args[a + 5] = r.body;
      }
      q.insertChunk.run(args);
    }
    for (; i < n; i++) {
      const r = rows[i]!;
      q.insert.run(stream.id, head + 1 + i, r.type, r.partId, r.at, r.body);
    }
    const { firstAt, lastAt } = batchTimes(rows);
    q.setHead.run(head + n, firstAt, lastAt, stream.id);
    return { sessionId, firstSeq: head + 1, lastSeq: head + n };
  }

  private readonly chunkArgs: unknown[] = new Array(INSERT_CHUNK * 6);

  private openWritable(path: string, options: SqliteStoreOptions): Db {
    const create = options.create ?? true;
    if (path !== ':memory:') {
      if (!create && !existsSync(path)) throw new Error(`no event store at ${path}`);
      if (create) mkdirSync(dirname(path), { recursive: true });
    }
    const db = openSqlite(this.engine, path, { fileMustExist: !create, timeout: options.busyTimeoutMs ?? 10_000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      // Checkpoint every ~40 MiB of WAL instead of SQLite's 4 MiB: each checkpoint rewrites the hot
      // right edge of the event b-trees and syncs the file, and at the default interval that
      // halves append throughput. The WAL is truncated back to 64 MiB after a checkpoint.
      db.pragma('wal_autocheckpoint = 10000');
      db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  private dropDb(): void {
    this.db.close();
    if (this.copyDir) rmSync(this.copyDir, { recursive: true, force: true });
  }

  private open(): void {
    if (this.closed) throw new Error(`the event store at ${this.path} is closed`);
  }

  async append(sessionId: string, events: readonly ToolEvent[], expectedSeq: number): Promise<AppendResult> {
    this.open();
    assertAppendable(sessionId, events);
    // Serialized before the transaction: nothing can fail half-way through the writes for a
    // reason that was knowable up front.
    const rows = events.map(eventRow);
    if (!checkExpectedSeq(expectedSeq)) throw new ConcurrencyError(sessionId, expectedSeq, await this.head(sessionId));
    return this.appendTx.immediate([{ sessionId, rows, expectedSeq }])[0]!;
  }

  /**
   * Several sessions' batches in one transaction (a group commit): all are written or none, each
   * checked as `append` checks it (contract, session, expected head). `normalize --store` commits
   * every session it has pending this way.
   */
  async appendMany(batches: readonly AppendBatch[]): Promise<AppendResult[]> {
    this.open();
    const rows: RowBatch[] = [];
    for (const b of batches) {
      assertAppendable(b.sessionId, b.events);
      if (!checkExpectedSeq(b.expectedSeq)) throw new ConcurrencyError(b.sessionId, b.expectedSeq, await this.head(b.sessionId));
      rows.push({ sessionId: b.sessionId, rows: b.events.map(eventRow), expectedSeq: b.expectedSeq });
    }
    return rows.length ? this.appendTx.immediate(rows) : [];
  }

  read(sessionId: string, options: ReadOptions = {}): AsyncIterable<StoredEvent> {
    return batchedEvents<[string]>(() => {
      this.open();
      const stream = this.q.stream.get(sessionId) as StreamRow | undefined;
      // The head at the start bounds the read, as in the memory store: events appended meanwhile
      // are for the next read (or for a follower).
      const head = stream?.head ?? 0;
      let a = Math.max(1, options.fromSeq ?? 1);
      const to = Math.min(head, options.toSeq ?? head);
      const batch = Math.max(1, options.batchSize ?? 1000);
      return () => {
        if (a > to) return undefined;
        this.open();
        const b = Math.min(to, a + batch - 1);
        const rows = this.q.range.all(stream!.id, a, b) as [string][];
        // (stream, seq) is unique, so b - a + 1 rows in [a, b] means every seq is there, in order.
        if (rows.length !== b - a + 1) throw new StoreCorruptionError(sessionId, this.firstMissing(stream!.id, a, b), this.path);
        const page = { rows, firstSeq: a };
        a = b + 1;
        return page;
      };
    }, (row, seq) => storedEvent(row[0], seq, sessionId, this.path));
  }

  private firstMissing(stream: number, a: number, b: number): number {
    const seqs = this.q.missing.all(stream, a, b) as number[];
    const k = seqs.findIndex((seq, i) => seq !== a + i);
    return a + (k < 0 ? seqs.length : k);
  }

  async head(sessionId: string): Promise<number> {
    this.open();
    return (this.q.stream.get(sessionId) as StreamRow | undefined)?.head ?? 0;
  }

  async sessions(): Promise<SessionInfo[]> {
    this.open();
    return (this.q.sessions.all() as [string, number, number | null, number | null][]).map(([sessionId, lastSeq, firstAt, lastAt]) => {
      const info: SessionInfo = { sessionId, lastSeq };
      if (firstAt !== null) info.firstAt = firstAt;
      if (lastAt !== null) info.lastAt = lastAt;
      return info;
    });
  }

  async saveSnapshot(snapshot: Snapshot): Promise<void> {
    this.open();
    this.q.saveSnapshot.run(snapshot.sessionId, snapshot.seq, JSON.stringify(snapshot.data), Date.now());
  }

  async loadSnapshot(sessionId: string, maxSeq = Number.MAX_SAFE_INTEGER): Promise<Snapshot | undefined> {
    this.open();
    const row = this.q.loadSnapshot.get(sessionId, Math.min(maxSeq, Number.MAX_SAFE_INTEGER)) as [number, string] | undefined;
    return row && { sessionId, seq: row[0], data: JSON.parse(row[1]) };
  }

  /** Resolves once the session's head is past `afterSeq`, or after `timeoutMs` (polling: SQLite has no notifications across processes). */
  async waitForAppend(sessionId: string, afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!signal?.aborted && !this.closed && Date.now() < deadline) {
      if ((await this.head(sessionId)) > afterSeq) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, Math.max(0, deadline - Date.now()))));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.dropDb();
  }
}

/** SQLite's answers when a WAL-mode file cannot be read in place because its `-shm` cannot be made. */
const NEEDS_COPY = /^SQLITE_(READONLY_DIRECTORY|READONLY_CANTINIT|READONLY_CANTLOCK|CANTOPEN\w*)$/;

function openReadOnly(engine: SqliteEngine, path: string, timeout: number): { db: Db; copy?: string } {
  if (path !== ':memory:' && !existsSync(path)) throw new Error(`no event store at ${path}`);
  try {
    const db = openSqlite(engine, path, { readonly: true, fileMustExist: true, timeout });
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return { db };
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    if (!NEEDS_COPY.test(String((err as { code?: unknown }).code))) throw err;
  }
  // Committed appends may still sit in the -wal: it is copied with the file, never the -shm.
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-store-'));
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = openSqlite(engine, copy, { readonly: true, fileMustExist: true, timeout });
    return { db, copy: dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The schema version of a store opened read-only: it must be a toolnorm store this version can read. */
function readSchemaVersion(db: Db, migrations: readonly Migration[], where: string): number {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  if (!tables.includes('schema_version')) {
    throw new Error(tables.length
      ? `${where} is an SQLite database but not a toolnorm event store (it has tables ${tables.slice(0, 5).join(', ')} and no schema_version)`
      : `${where} is an empty SQLite database, not a toolnorm event store`);
  }
  const current = (db.prepare('SELECT coalesce(max(version), 0) FROM schema_version').pluck().get() as number) ?? 0;
  // Checked like a migration would be, without applying anything: a newer store is refused.
  pendingMigrations(migrations, current, where);
  return current;
}
