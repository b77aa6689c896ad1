// Which SQLite engine the store runs on: node:sqlite where Node has it (22.13+), better-sqlite3 on
// Node 20. CI runs test/store under both (Node 20 in the full suite, Node 24 in its own section),
// so the conformance, crash and kill suites pass on each engine; this file pins the choice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { nodeSqliteAvailable, openSqlite, sqliteEngine } from '../../src/store/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const onNode22 = nodeSqliteAvailable();
const forced = process.env.TOOLNORM_SQLITE_ENGINE;

describe('the SQLite engine', () => {
  it('node:sqlite is there from Node 22.13 on, and not on Node 20', () => {
    expect(nodeSqliteAvailable('20.19.5')).toBe(false);
    expect(nodeSqliteAvailable('22.12.0')).toBe(false);
    expect(nodeSqliteAvailable('22.13.0')).toBe(true);
    expect(nodeSqliteAvailable('24.0.0')).toBe(true);
  });

  it.skipIf(forced !== undefined && forced !== 'auto')('auto picks node:sqlite where the runtime has it, better-sqlite3 otherwise', () => {
    expect(sqliteEngine('auto')).toBe(onNode22 ? 'node:sqlite' : 'better-sqlite3');
    const store = new SqliteEventStore(join(dir, 'auto.db'));
    try {
      expect(store.engine).toBe(onNode22 ? 'node:sqlite' : 'better-sqlite3');
    } finally {
      void store.close();
    }
  });

  it('an unknown TOOLNORM_SQLITE_ENGINE is a clear error naming the choices', () => {
    const before = process.env.TOOLNORM_SQLITE_ENGINE;
    process.env.TOOLNORM_SQLITE_ENGINE = 'sqlite4';
    try {
      expect(() => sqliteEngine()).toThrow('TOOLNORM_SQLITE_ENGINE is "sqlite4"; it must be one of auto, node:sqlite, better-sqlite3');
    } finally {
      if (before === undefined) delete process.env.TOOLNORM_SQLITE_ENGINE;
      else process.env.TOOLNORM_SQLITE_ENGINE = before;
    }
  });

  it.skipIf(onNode22)('on Node 20, asking for node:sqlite says which Node it needs', () => {
    expect(() => openSqlite('node:sqlite', join(dir, 'n.db'), { timeout: 100 })).toThrow(/the node:sqlite engine needs Node 22\.13 or later; this is Node 20\./);
  });

  it.skipIf(!onNode22)('node:sqlite errors carry SQLite result-code names, as better-sqlite3 does', () => {
    const path = join(dir, 'codes.db');
    const w = openSqlite('node:sqlite', path, { timeout: 100 });
    w.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
    w.prepare('INSERT INTO t VALUES (?)').run(1);
    expect(() => w.prepare('INSERT INTO t VALUES (?)').run([1])).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }));
    const r = openSqlite('node:sqlite', path, { readonly: true, timeout: 100 });
    expect(() => r.exec('INSERT INTO t VALUES (2)')).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }));
    // Row shapes and transactions as better-sqlite3 has them.
    expect(r.prepare('SELECT x FROM t').pluck().all()).toEqual([1]);
    expect(r.prepare('SELECT x, x + 1 AS y FROM t').raw().get()).toEqual([1, 2]);
    expect(w.pragma('journal_mode', { simple: true })).toBe('delete');
    const tx = w.transaction((n: number) => {
      w.prepare('INSERT INTO t VALUES (?)').run(n);
      if (n === 3) throw new Error('undo');
    });
    tx.immediate(2);
    expect(() => tx.immediate(3)).toThrow('undo');
    expect(w.prepare('SELECT x FROM t ORDER BY x').pluck().all()).toEqual([1, 2]);
    r.close();
    w.close();
  });
});
