// PostgresEventStore: one history shared by many processes on many machines. Every guarantee is
// the database's, not the client's: an append is one statement (one implicit transaction) that
// moves the session head only WHERE head = expected, and (session_id, seq) is a primary key, so
// two writers can never both take a position. Followers wake on LISTEN/NOTIFY.
import type pg from 'pg';
import { loadDriver } from './driver.js';
import type { ToolEvent } from '../contract/index.js';
import { pendingMigrations, type Migration } from './migrations.js';
import { postgresMigrations } from './postgres-schema.js';
import { batchedEvents } from './batches.js';
import { batchTimes, checkExpectedSeq, eventRow, storedEvent, StoreCorruptionError } from './serial.js';
import { ConcurrencyError, type AppendBatch, type AppendResult, type EventStore, type ReadOptions, type SessionInfo, type Snapshot, type StoredEvent } from './types.js';
import { parsePostgresUrl, redact, type PostgresUrlOptions } from './url.js';
import { assertAppendable } from './validate.js';

/** Also from the URL: `schema` (default `public`, created when missing), `pool_size` (default 10), `notify` (default on). */
export interface PostgresStoreOptions extends PostgresUrlOptions {
  /** Schema migrations (tests inject extra versions; default: the released list). */
  migrations?: (quotedSchema: string) => readonly Migration[];
  /** Read only: no migration, and every session is `default_transaction_read_only`, so a read-only role or a standby is enough. */
  readOnly?: boolean;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,46}$/;

export { parsePostgresUrl, redact };

interface AppendQuery {
  sessionId: string;
  expectedSeq: number;
  n: number;
  text: string;
  values: unknown[];
}

interface Waiter {
  sessionId: string;
  afterSeq: number;
  done(): void;
}

export class PostgresEventStore implements EventStore {
  private closed = false;
  private listener?: Promise<pg.Client>;
  private readonly waiters = new Set<Waiter>();
  private readonly sql;

  private constructor(
    /** @internal The pg pool (its types are not part of toolnorm's public API). */
    readonly pool: pg.Pool,
    private readonly connectionString: string,
    readonly schema: string,
    readonly schemaVersion: number,
    private readonly notify: boolean,
    private readonly where: string,
  ) {
    const s = `"${schema}"`;
    const events = `${s}.toolnorm_events`;
    const streams = `${s}.toolnorm_streams`;
    // The rows travel as one JSON array of [type, partId, at, body]: several times cheaper for the
    // client than four text[] literals, and parsed once by the server.
    const insert = `ins AS (
      INSERT INTO ${events} (session_id, seq, type, part_id, at, body)
      SELECT $1, $2::int + t.ord::int, t.r->>0, t.r->>1, (t.r->>2)::bigint, t.r->>3
      FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(r, ord)
      WHERE EXISTS (SELECT 1 FROM gate))`;
    const result = `SELECT head${notify ? ', pg_notify($7, $8)' : ''} FROM gate`;
    this.sql = {
      // A new session: create its stream row, or take over an empty one (head 0) left by an
      // empty append. Two creators race on the unique session_id; the second sees head > 0.
      appendFirst: `WITH gate AS (
          INSERT INTO ${streams} AS s (session_id, head, first_at, last_at) VALUES ($1, $2::int + $3::int, $5::bigint, $6::bigint)
          ON CONFLICT (session_id) DO UPDATE
            SET head = EXCLUDED.head, first_at = coalesce(s.first_at, EXCLUDED.first_at), last_at = coalesce(EXCLUDED.last_at, s.last_at), updated_at = now()
            WHERE s.head = $2::int
          RETURNING s.head), ${insert} ${result}`,
      appendNext: `WITH gate AS (
          UPDATE ${streams} SET head = $2::int + $3::int, first_at = coalesce(first_at, $5::bigint), last_at = coalesce($6::bigint, last_at), updated_at = now()
          WHERE session_id = $1 AND head = $2::int
          RETURNING head), ${insert} ${result}`,
      head: `SELECT head FROM ${streams} WHERE session_id = $1`,
      range: `SELECT seq, body FROM ${events} WHERE session_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq`,
      sessions: `SELECT session_id, head, first_at, last_at FROM ${streams} ORDER BY id`,
      saveSnapshot: `INSERT INTO ${s}.toolnorm_snapshots (session_id, seq, data) VALUES ($1, $2, $3)
          ON CONFLICT (session_id, seq) DO UPDATE SET data = EXCLUDED.data, saved_at = now()`,
      loadSnapshot: `SELECT seq, data FROM ${s}.toolnorm_snapshots WHERE session_id = $1 AND ($2::bigint IS NULL OR seq <= $2::bigint) ORDER BY seq DESC LIMIT 1`,
    };
  }

  /** Connects, applies pending migrations (once, under an advisory lock) and returns the store. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresEventStore> {
    const parsed = parsePostgresUrl(url);
    const opts = { ...parsed.options, ...options };
    const schema = opts.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema)) throw new Error(`schema name "${schema}" must be a plain identifier (letters, digits, _; at most 47 characters)`);
    const where = `${redact(url)} (schema ${schema})`;
    const pool = new (loadDriver<typeof pg>('pg')).Pool({
      connectionString: parsed.connectionString,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      application_name: 'toolnorm',
      ...(opts.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
    });
    // An idle pooled connection dropped by the server must not crash the process; the next
    // query gets a fresh connection or a clear error.
    pool.on('error', () => {});
    try {
      const migrations = (opts.migrations ?? postgresMigrations)(`"${schema}"`);
      const version = opts.readOnly ? await readPostgresVersion(pool, schema, migrations, where) : await migratePostgres(pool, schema, migrations, where);
      return new PostgresEventStore(pool, parsed.connectionString, schema, version, opts.notify ?? true, where);
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
  }

  get channel(): string {
    return `toolnorm_events_${this.schema}`;
  }

  private open(): void {
    if (this.closed) throw new Error(`the event store at ${this.where} is closed`);
  }

  async append(sessionId: string, events: readonly ToolEvent[], expectedSeq: number): Promise<AppendResult> {
    this.open();
    const q = await this.appendQuery(sessionId, events, expectedSeq);
    return this.runAppend(this.pool, q);
  }

  /**
   * Several sessions' batches in one transaction (a group commit: one commit, so one WAL flush,
   * for all of them), each checked as `append` checks it; all are written or none.
   */
  async appendMany(batches: readonly AppendBatch[]): Promise<AppendResult[]> {
    this.open();
    const queries = [];
    for (const b of batches) queries.push(await this.appendQuery(b.sessionId, b.events, b.expectedSeq));
    if (queries.length === 1) return [await this.runAppend(this.pool, queries[0]!)];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const results: AppendResult[] = [];
      for (const q of queries) results.push(await this.runAppend(client, q));
      await client.query('COMMIT');
      return results;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** The checked, serialized statement of one batch (nothing sent yet). */
  private async appendQuery(sessionId: string, events: readonly ToolEvent[], expectedSeq: number): Promise<AppendQuery> {
    assertAppendable(sessionId, events);
    const rows = events.map(eventRow);
    if (!checkExpectedSeq(expectedSeq)) throw new ConcurrencyError(sessionId, expectedSeq, await this.head(sessionId));
    const { firstAt, lastAt } = batchTimes(rows);
    const n = rows.length;
    const values: unknown[] = [sessionId, expectedSeq, n, JSON.stringify(rows.map((r) => [r.type, r.partId, r.at, r.body])), firstAt, lastAt];
    // A session id too long for a notification payload wakes every follower instead.
    if (this.notify) values.push(this.channel, sessionId.length < 7000 ? `${expectedSeq + n}\n${sessionId}` : '');
    return { sessionId, expectedSeq, n, text: expectedSeq === 0 ? this.sql.appendFirst : this.sql.appendNext, values };
  }

  private async runAppend(on: pg.Pool | pg.PoolClient, q: AppendQuery): Promise<AppendResult> {
    const { sessionId, expectedSeq, n } = q;
    let res: pg.QueryResult;
    try {
      res = await on.query(q.text, q.values);
    } catch (err) {
      // The primary key is the last line of defence; its violation is a lost race, said as such.
      if ((err as { code?: string }).code === '23505') throw new ConcurrencyError(sessionId, expectedSeq, await this.head(sessionId));
      throw err;
    }
    if (res.rowCount === 0) throw new ConcurrencyError(sessionId, expectedSeq, await this.head(sessionId));
    return { sessionId, firstSeq: expectedSeq + 1, lastSeq: expectedSeq + n };
  }

  read(sessionId: string, options: ReadOptions = {}): AsyncIterable<StoredEvent> {
    return batchedEvents<[number, string]>(async () => {
      this.open();
      const head = await this.head(sessionId);
      let a = Math.max(1, options.fromSeq ?? 1);
      const to = Math.min(head, options.toSeq ?? head);
      const batch = Math.max(1, options.batchSize ?? 1000);
      // Seqs are gapless, so the next range is known before this one arrives: keep one query in
      // flight while the caller consumes the current batch.
      const fetch = (from: number) => {
        const p = this.pool.query({ text: this.sql.range, values: [sessionId, from, Math.min(to, from + batch - 1)], rowMode: 'array' });
        p.catch(() => {}); // awaited below; this only keeps an abandoned prefetch from crashing the process
        return p;
      };
      let next = a <= to ? fetch(a) : undefined;
      return async () => {
        if (a > to) return undefined;
        const b = Math.min(to, a + batch - 1);
        const res = await next!;
        next = b + 1 <= to ? fetch(b + 1) : undefined;
        const rows = res.rows as [number, string][];
        for (let k = 0; k <= b - a; k++) {
          const row = rows[k];
          if (!row || row[0] !== a + k) throw new StoreCorruptionError(sessionId, a + k, this.where);
        }
        const page = { rows, firstSeq: a };
        a = b + 1;
        return page;
      };
    }, (row, seq) => storedEvent(row[1], seq, sessionId, this.where));
  }

  async head(sessionId: string): Promise<number> {
    this.open();
    const res = await this.pool.query({ text: this.sql.head, values: [sessionId], rowMode: 'array' });
    return (res.rows[0]?.[0] as number | undefined) ?? 0;
  }

  async sessions(): Promise<SessionInfo[]> {
    this.open();
    const res = await this.pool.query({ text: this.sql.sessions, rowMode: 'array' });
    return (res.rows as [string, number, string | null, string | null][]).map(([sessionId, lastSeq, firstAt, lastAt]) => {
      const info: SessionInfo = { sessionId, lastSeq };
      if (firstAt !== null) info.firstAt = Number(firstAt);
      if (lastAt !== null) info.lastAt = Number(lastAt);
      return info;
    });
  }

  async saveSnapshot(snapshot: Snapshot): Promise<void> {
    this.open();
    await this.pool.query(this.sql.saveSnapshot, [snapshot.sessionId, snapshot.seq, JSON.stringify(snapshot.data)]);
  }

  async loadSnapshot(sessionId: string, maxSeq?: number): Promise<Snapshot | undefined> {
    this.open();
    const bound = maxSeq === undefined || maxSeq === Number.POSITIVE_INFINITY ? null : Math.floor(maxSeq);
    const res = await this.pool.query({ text: this.sql.loadSnapshot, values: [sessionId, bound], rowMode: 'array' });
    const row = res.rows[0] as [number, string] | undefined;
    return row && { sessionId, seq: row[0], data: JSON.parse(row[1]) };
  }

  /**
   * Resolves once the session's head is past `afterSeq` (woken by NOTIFY from any writer on any
   * machine), or after `timeoutMs`, whichever comes first; callers re-read from their seq.
   */
  async waitForAppend(sessionId: string, afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.open();
    try {
      await this.listen();
    } catch {
      // No listener (e.g. a pooler that drops LISTEN): the timeout turns this into polling.
    }
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        sessionId,
        afterSeq,
        done: () => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.done);
          resolve();
        },
      };
      this.waiters.add(waiter);
      timer = setTimeout(waiter.done, timeoutMs);
      signal?.addEventListener('abort', waiter.done, { once: true });
      if (signal?.aborted) waiter.done();
      // Checked after registering, so an append that committed just before LISTEN took effect
      // is not waited out.
      this.head(sessionId).then((h) => { if (h > afterSeq) waiter.done(); }, () => {});
    });
  }

  private listen(): Promise<pg.Client> {
    if (!this.listener) {
      const attempt = (async () => {
        const client = new (loadDriver<typeof pg>('pg')).Client({ connectionString: this.connectionString, application_name: 'toolnorm-listen' });
        client.on('notification', (msg) => this.onNotification(msg.payload ?? ''));
        client.on('error', () => {
          // Dropped connection: the next wait listens again; current waiters fall back to their timeout.
          if (this.listener === attempt) this.listener = undefined;
          client.end().catch(() => {});
        });
        await client.connect();
        await client.query(`LISTEN "${this.channel}"`);
        return client;
      })();
      attempt.catch(() => { if (this.listener === attempt) this.listener = undefined; });
      this.listener = attempt;
    }
    return this.listener;
  }

  private onNotification(payload: string): void {
    const nl = payload.indexOf('\n');
    const head = nl > 0 ? Number(payload.slice(0, nl)) : Number.POSITIVE_INFINITY;
    const session = nl > 0 ? payload.slice(nl + 1) : undefined;
    for (const w of [...this.waiters]) {
      if ((session === undefined || w.sessionId === session) && head > w.afterSeq) w.done();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.waiters]) w.done();
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.then((c) => c.end(), () => {}).catch(() => {});
    await this.pool.end();
  }
}

/** Applies pending migrations in one transaction under an advisory lock: concurrent openers on
 * several machines apply each version exactly once. */
async function migratePostgres(pool: pg.Pool, schema: string, migrations: readonly Migration[], where: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolnorm:schema:${schema}`]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (!exists.rowCount) await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".toolnorm_schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const res = await client.query({ text: `SELECT coalesce(max(version), 0) FROM "${schema}".toolnorm_schema_version`, rowMode: 'array' });
    const current = Number(res.rows[0]?.[0] ?? 0);
    let version = current;
    for (const m of pendingMigrations(migrations, current, where)) {
      await client.query(m.up);
      await client.query(`INSERT INTO "${schema}".toolnorm_schema_version (version, description) VALUES ($1, $2)`, [m.version, m.description]);
      version = m.version;
    }
    await client.query('COMMIT');
    return version;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The schema version of a store opened read-only, checked like a migration would be, with nothing applied. */
async function readPostgresVersion(pool: pg.Pool, schema: string, migrations: readonly Migration[], where: string): Promise<number> {
  const table = await pool.query({ text: 'SELECT to_regclass($1) IS NOT NULL', values: [`"${schema}".toolnorm_schema_version`], rowMode: 'array' });
  if (!table.rows[0]?.[0]) throw new Error(`${where} holds no toolnorm event store (no toolnorm_schema_version table)`);
  const res = await pool.query({ text: `SELECT coalesce(max(version), 0) FROM "${schema}".toolnorm_schema_version`, rowMode: 'array' });
  const current = Number(res.rows[0]?.[0] ?? 0);
  pendingMigrations(migrations, current, where);
  return current;
}
