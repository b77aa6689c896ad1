// Store URLs: what each form means, and the errors for the ones that mean nothing.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../src/store/memory.js';
import { DEFAULT_STORE_URL, describeStoreUrl, openStore, parseStoreUrl } from '../../src/store/open.js';
import { parsePostgresUrl, redact } from '../../src/store/postgres.js';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { removeTempDir, tempDir } from './backends.js';

afterAll(removeTempDir);

describe('store URLs', () => {
  it('parses sqlite, postgres and memory URLs; relative SQLite paths resolve against the given cwd', () => {
    expect(DEFAULT_STORE_URL).toBe('sqlite:.toolnorm/events.db');
    expect(parseStoreUrl(undefined, '/repo')).toEqual({ kind: 'sqlite', target: resolve('/repo', '.toolnorm/events.db') });
    expect(parseStoreUrl('sqlite:data/ev.db', '/repo')).toEqual({ kind: 'sqlite', target: resolve('/repo', 'data/ev.db') });
    expect(parseStoreUrl('sqlite:/abs/ev.db', '/repo')).toEqual({ kind: 'sqlite', target: '/abs/ev.db' });
    expect(parseStoreUrl('sqlite:///abs/ev.db', '/repo')).toEqual({ kind: 'sqlite', target: '/abs/ev.db' });
    expect(parseStoreUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', target: ':memory:' });
    expect(parseStoreUrl('postgres://u:p@db.example:5432/tn')).toEqual({ kind: 'postgres', target: 'postgres://u:p@db.example:5432/tn' });
    expect(parseStoreUrl('postgresql://db/tn').kind).toBe('postgres');
    expect(parseStoreUrl('memory:').kind).toBe('memory');
  });

  it('says what it expected for a URL it does not know, without printing a password', () => {
    expect(() => parseStoreUrl('mysql://root:hunter2@db/x')).toThrow(/unknown store URL "mysql:\/\/root:\*\*\*@db\/x"; expected sqlite:PATH, postgres:\/\/… or memory:/);
    expect(() => parseStoreUrl('events.db')).toThrow(/unknown store URL/);
    expect(() => parseStoreUrl('sqlite:')).toThrow(/needs a file path/);
    expect(describeStoreUrl('postgres://me:secret@h/db')).toBe('postgres://me:***@h/db');
    expect(redact('postgres://me@h/db')).toBe('postgres://me@h/db');
  });

  it('takes schema, pool_size and notify from a postgres URL and hands the driver the rest', () => {
    expect(parsePostgresUrl('postgres://u:p@h:5433/db?schema=fleet&pool_size=4&notify=off&sslmode=require')).toEqual({
      connectionString: 'postgres://u:p@h:5433/db?sslmode=require',
      options: { schema: 'fleet', poolSize: 4, notify: false },
    });
    expect(parsePostgresUrl('postgresql://h/db').options).toEqual({});
    expect(() => parsePostgresUrl('postgres://h/db?pool_size=0')).toThrow(/pool_size must be a positive integer/);
  });

  it('opens SQLite (creating the directory), refuses to create when asked not to, and memory: is a fresh memory store', async () => {
    const dir = join(tempDir(), `open-${Date.now()}`, 'nested');
    const store = await openStore('sqlite:nested/x.db', { cwd: join(dir, '..') });
    expect(store).toBeInstanceOf(SqliteEventStore);
    expect(existsSync(join(dir, 'x.db'))).toBe(true);
    await store.close();
    await expect(openStore('sqlite:nothing-here.db', { cwd: dir, create: false })).rejects.toThrow(/no event store at .*nothing-here\.db/);
    expect(existsSync(join(dir, 'nothing-here.db'))).toBe(false);
    expect(await openStore('memory:')).toBeInstanceOf(MemoryEventStore);
  });

  it('an unreachable PostgreSQL is a clear error, not a hang', async () => {
    const started = Date.now();
    await expect(openStore('postgres://nobody@127.0.0.1:1/none')).rejects.toThrow(/ECONNREFUSED|connect/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
