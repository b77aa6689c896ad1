// Schema versions and forward migrations of the durable stores.
import Database from './raw-sqlite.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaVersionError, pendingMigrations, type Migration } from '../../src/store/migrations.js';
import { PostgresEventStore } from '../../src/store/postgres.js';
import { postgresMigrations } from '../../src/store/postgres-schema.js';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite-schema.js';
import { removeTempDir, tempDir } from './backends.js';
import { dropTestSchemas, freshPostgresUrl, pgQuery, postgresAvailable } from './pg.js';
import { eventsRange } from './stream.js';

const PG = await postgresAvailable();

afterAll(async () => {
  await dropTestSchemas();
  removeTempDir();
});

describe('migration list', () => {
  it('applies only what is missing, refuses newer databases and broken lists', () => {
    const list: Migration[] = [1, 2, 3].map((version) => ({ version, description: `v${version}`, up: '' }));
    expect(pendingMigrations(list, 0, 'db').map((m) => m.version)).toEqual([1, 2, 3]);
    expect(pendingMigrations(list, 2, 'db').map((m) => m.version)).toEqual([3]);
    expect(pendingMigrations(list, 3, 'db')).toEqual([]);
    expect(() => pendingMigrations(list, 4, 'db')).toThrow(SchemaVersionError);
    expect(() => pendingMigrations(list, 4, 'db')).toThrow(/version 4.*up to 3; upgrade toolnorm/);
    expect(() => pendingMigrations([list[0]!, list[2]!], 0, 'db')).toThrow(/entry 1 has version 3/);
  });
});

// The next version after the released ones, as a future release would add it.
const NEXT = SQLITE_MIGRATIONS.length + 1;
const SQLITE_V2: Migration = { version: NEXT, description: 'index events by part', up: 'CREATE INDEX events_by_part ON events (stream, part_id); ALTER TABLE streams ADD COLUMN label TEXT' };

describe('SQLite schema versions', () => {
  const file = (name: string) => join(tempDir(), `${name}-${Date.now()}.db`);

  it('a new file is created at the latest version, recorded in schema_version', async () => {
    const path = file('fresh');
    const store = new SqliteEventStore(path);
    expect(store.schemaVersion).toBe(SQLITE_MIGRATIONS.length);
    expect(store.db.prepare('SELECT version, description FROM schema_version').all()).toEqual([{ version: 1, description: 'streams, events and snapshots' }, { version: 2, description: 'events without a time' }]);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await store.close();
  });

  it('forward migration: an existing store gains the next version and keeps its events', async () => {
    const path = file('forward');
    let store = new SqliteEventStore(path);
    await store.append('s', eventsRange('s', 0, 30), 0);
    await store.close();
    store = new SqliteEventStore(path, { migrations: [...SQLITE_MIGRATIONS, SQLITE_V2] });
    try {
      expect(store.schemaVersion).toBe(NEXT);
      expect(store.db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual([1, 2, 3]);
      expect(store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'events_by_part'").pluck().get()).toBe('events_by_part');
      const back = [];
      for await (const e of store.read('s')) back.push(e);
      expect(back).toEqual(eventsRange('s', 0, 30).map((e, i) => ({ ...e, seq: i + 1 })));
      expect(await store.append('s', eventsRange('s', 30, 31), 30)).toMatchObject({ lastSeq: 31 });
    } finally {
      await store.close();
    }
    // Opening again applies nothing twice.
    store = new SqliteEventStore(path, { migrations: [...SQLITE_MIGRATIONS, SQLITE_V2] });
    expect(store.db.prepare('SELECT count(*) FROM schema_version').pluck().get()).toBe(NEXT);
    await store.close();
  });

  it('version 2 (events without a time): a version-1 store keeps its events, then takes events with no `at`; readers open either read-only', async () => {
    const path = file('v1');
    let store = new SqliteEventStore(path, { migrations: SQLITE_MIGRATIONS.slice(0, 1) });
    await store.append('s', eventsRange('s', 0, 5), 0);
    await store.close();
    const old = new SqliteEventStore(path, { readOnly: true });
    expect(old.schemaVersion).toBe(1);
    await old.close();
    store = new SqliteEventStore(path);
    try {
      expect(store.schemaVersion).toBe(2);
      const { at: _at, ...untimed } = eventsRange('s', 5, 6)[0]!;
      await store.append('s', [untimed], 5);
      const back = [];
      for await (const e of store.read('s')) back.push(e);
      expect(back).toEqual([...eventsRange('s', 0, 5), untimed].map((e, i) => ({ ...e, seq: i + 1 })));
      expect(store.db.prepare('SELECT at FROM events WHERE seq = 6').pluck().get()).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('a database from a newer toolnorm is refused, untouched', async () => {
    const path = file('newer');
    await new SqliteEventStore(path, { migrations: [...SQLITE_MIGRATIONS, SQLITE_V2] }).close();
    expect(() => new SqliteEventStore(path)).toThrow(SchemaVersionError);
    expect(() => new SqliteEventStore(path)).toThrow(new RegExp(`schema version ${NEXT}, but this toolnorm knows versions up to ${NEXT - 1}`));
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(NEXT);
    db.close();
  });

  it('a failing migration rolls back whole: the version and the tables stay as they were', async () => {
    const path = file('failing');
    await new SqliteEventStore(path).close();
    const broken: Migration = { version: NEXT, description: 'broken', up: 'CREATE TABLE half_done (x INTEGER); CREATE TABLE oops (' };
    expect(() => new SqliteEventStore(path, { migrations: [...SQLITE_MIGRATIONS, broken] })).toThrow();
    const store = new SqliteEventStore(path);
    expect(store.schemaVersion).toBe(NEXT - 1);
    expect(store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    await store.close();
  });

  it('refuses an SQLite file that is not an event store, and a missing file when told not to create', () => {
    const path = file('foreign');
    const db = new Database(path);
    db.exec('CREATE TABLE customers (id INTEGER)');
    db.close();
    expect(() => new SqliteEventStore(path)).toThrow(/not a toolnorm event store \(it has tables customers/);
    expect(() => new SqliteEventStore(file('missing'), { create: false })).toThrow(/no event store at/);
  });
});

describe.skipIf(!PG)('PostgreSQL schema versions', () => {
  const NEXT_PG = postgresMigrations('"x"').length + 1;
  const v2 = (s: string): Migration => ({ version: NEXT_PG, description: 'index events by part', up: `CREATE INDEX toolnorm_events_by_part ON ${s}.toolnorm_events (session_id, part_id)` });

  it('creates its schema at the latest version; a forward migration keeps the events; newer versions are refused', async () => {
    const url = freshPostgresUrl();
    const schema = new URL(url).searchParams.get('schema')!;
    let store = await PostgresEventStore.open(url);
    expect(store.schemaVersion).toBe(NEXT_PG - 1);
    await store.append('s', eventsRange('s', 0, 12), 0);
    await store.close();

    store = await PostgresEventStore.open(url, { migrations: (s) => [...postgresMigrations(s), v2(s)] });
    try {
      expect(store.schemaVersion).toBe(NEXT_PG);
      expect(await pgQuery(url, `SELECT version, description FROM "${schema}".toolnorm_schema_version ORDER BY version`)).toEqual([
        { version: 1, description: 'streams, events and snapshots' },
        { version: 2, description: 'events without a time' },
        { version: 3, description: 'index events by part' },
      ]);
      expect(await pgQuery(url, 'SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, 'toolnorm_events_by_part'])).toHaveLength(1);
      const back = [];
      for await (const e of store.read('s')) back.push(e);
      expect(back).toEqual(eventsRange('s', 0, 12).map((e, i) => ({ ...e, seq: i + 1 })));
    } finally {
      await store.close();
    }
    await expect(PostgresEventStore.open(url)).rejects.toThrow(new RegExp(`schema version ${NEXT_PG}, but this toolnorm knows versions up to ${NEXT_PG - 1}`));
  });

  it('a failing migration rolls back whole', async () => {
    const url = freshPostgresUrl();
    const schema = new URL(url).searchParams.get('schema')!;
    await (await PostgresEventStore.open(url)).close();
    const broken = (s: string): Migration => ({ version: NEXT_PG, description: 'broken', up: `CREATE TABLE ${s}.half_done (x int); SELECT nonsense FROM nowhere` });
    await expect(PostgresEventStore.open(url, { migrations: (s) => [...postgresMigrations(s), broken(s)] })).rejects.toThrow(/nowhere/);
    expect(await pgQuery(url, `SELECT max(version) AS v FROM "${schema}".toolnorm_schema_version`)).toEqual([{ v: NEXT_PG - 1 }]);
    expect(await pgQuery(url, 'SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [schema, 'half_done'])).toEqual([]);
  });

  it('eight stores opening one fresh schema at once apply each migration exactly once', async () => {
    const url = freshPostgresUrl();
    const schema = new URL(url).searchParams.get('schema')!;
    const stores = await Promise.all(Array.from({ length: 8 }, () => PostgresEventStore.open(url)));
    expect(stores.map((s) => s.schemaVersion)).toEqual(Array(8).fill(NEXT_PG - 1));
    await Promise.all(stores.map((s) => s.close()));
    expect(await pgQuery(url, `SELECT count(*)::int AS n FROM "${schema}".toolnorm_schema_version`)).toEqual([{ n: NEXT_PG - 1 }]);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(PostgresEventStore.open(process.env.TOOLNORM_PG_URL!, { schema: 'x"; DROP TABLE y; --' })).rejects.toThrow(/plain identifier/);
  });
});
