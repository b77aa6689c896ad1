// The SQLite engine under SqliteEventStore: Node's built-in `node:sqlite` (Node >= 22.13, no
// native build, nothing to install) or the optional peer better-sqlite3 (the Node 20 path). The
// store is written against the small better-sqlite3-shaped surface below; `node:sqlite` is wrapped
// to it, so both engines run the same statements, transactions and error handling, and the same
// conformance, crash and kill suites (docs/stores.md#engines).
import { createRequire } from 'node:module';
import { loadDriver } from './driver.js';

const require = createRequire(import.meta.url);

export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/** A prepared statement. `pluck()` and `raw()` switch its row shape, as in better-sqlite3 (and return it). */
export interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): SqliteRunResult;
  pluck(): SqliteStatement;
  raw(): SqliteStatement;
}

export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R;
  /** BEGIN IMMEDIATE: takes the write lock up front, so the check inside cannot go stale. */
  immediate(...args: A): R;
}

/** The connection surface SqliteEventStore uses (better-sqlite3's `Database` has it as is). */
export interface SqliteDb {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
}

export interface SqliteOpenOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Busy timeout in milliseconds. */
  timeout: number;
}

export type SqliteEngine = 'node:sqlite' | 'better-sqlite3';

/** The engines, in the order `auto` tries them. */
export const SQLITE_ENGINES: readonly SqliteEngine[] = ['node:sqlite', 'better-sqlite3'];

/** `node:sqlite` without a flag and with `timeout`, `readOnly` and the statement API used here: Node 22.13+. */
export function nodeSqliteAvailable(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 13);
}

/**
 * The engine for `requested` (default: `TOOLNORM_SQLITE_ENGINE`, else `auto`). `auto` is
 * `node:sqlite` where the runtime has it and better-sqlite3 elsewhere (Node 20), so a default
 * install on Node 22.13+ needs nothing native.
 */
export function sqliteEngine(requested: SqliteEngine | 'auto' | undefined = envEngine()): SqliteEngine {
  if (requested === 'node:sqlite' || requested === 'better-sqlite3') return requested;
  return nodeSqliteAvailable() ? 'node:sqlite' : 'better-sqlite3';
}

function envEngine(): SqliteEngine | 'auto' | undefined {
  const v = process.env.TOOLNORM_SQLITE_ENGINE;
  if (v === undefined || v === '') return undefined;
  if (v === 'auto' || (SQLITE_ENGINES as readonly string[]).includes(v)) return v as SqliteEngine | 'auto';
  throw new Error(`TOOLNORM_SQLITE_ENGINE is ${JSON.stringify(v)}; it must be one of auto, ${SQLITE_ENGINES.join(', ')}`);
}

type BetterSqlite = new (path: string, options: SqliteOpenOptions) => SqliteDb;

let Better: BetterSqlite | undefined;

/** Opens `path` with `engine`; better-sqlite3 is loaded on first use (MissingDriverError when absent). */
export function openSqlite(engine: SqliteEngine, path: string, options: SqliteOpenOptions): SqliteDb {
  if (engine === 'better-sqlite3') return new (Better ??= loadDriver<BetterSqlite>('better-sqlite3'))(path, options);
  if (!nodeSqliteAvailable()) throw new Error(`the node:sqlite engine needs Node 22.13 or later; this is Node ${process.versions.node} (use better-sqlite3)`);
  return new NodeSqliteDb(path, options);
}

// ---- node:sqlite, wrapped to the surface above ----------------------------------------------

/** What toolnorm uses of `node:sqlite` (declared here: the Node 20 type definitions have no such module). */
interface NodeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): SqliteRunResult;
  setReturnArrays?(enabled: boolean): void;
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}
type NodeDatabaseCtor = new (path: string, options: { readOnly?: boolean; timeout?: number }) => NodeDatabase;

let NodeDatabaseSync: NodeDatabaseCtor | undefined;

/**
 * SQLite's result-code names for the extended codes node:sqlite reports as `errcode`, so errors
 * carry the same `code` (SQLITE_BUSY, SQLITE_READONLY_DIRECTORY, …) better-sqlite3 gives them:
 * StoreError's classification and the read-only fallback read it.
 */
const PRIMARY: Record<number, string> = {
  1: 'SQLITE_ERROR', 2: 'SQLITE_INTERNAL', 3: 'SQLITE_PERM', 4: 'SQLITE_ABORT', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM', 8: 'SQLITE_READONLY', 9: 'SQLITE_INTERRUPT', 10: 'SQLITE_IOERR', 11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND', 13: 'SQLITE_FULL', 14: 'SQLITE_CANTOPEN', 15: 'SQLITE_PROTOCOL', 16: 'SQLITE_EMPTY',
  17: 'SQLITE_SCHEMA', 18: 'SQLITE_TOOBIG', 19: 'SQLITE_CONSTRAINT', 20: 'SQLITE_MISMATCH', 21: 'SQLITE_MISUSE',
  22: 'SQLITE_NOLFS', 23: 'SQLITE_AUTH', 24: 'SQLITE_FORMAT', 25: 'SQLITE_RANGE', 26: 'SQLITE_NOTADB',
};
const EXTENDED: Record<number, string> = {
  261: 'SQLITE_BUSY_RECOVERY', 517: 'SQLITE_BUSY_SNAPSHOT', 773: 'SQLITE_BUSY_TIMEOUT',
  262: 'SQLITE_LOCKED_SHAREDCACHE',
  264: 'SQLITE_READONLY_RECOVERY', 520: 'SQLITE_READONLY_CANTLOCK', 776: 'SQLITE_READONLY_ROLLBACK',
  1032: 'SQLITE_READONLY_DBMOVED', 1288: 'SQLITE_READONLY_CANTINIT', 1544: 'SQLITE_READONLY_DIRECTORY',
  270: 'SQLITE_CANTOPEN_NOTEMPDIR', 526: 'SQLITE_CANTOPEN_ISDIR', 782: 'SQLITE_CANTOPEN_FULLPATH',
  1038: 'SQLITE_CANTOPEN_CONVPATH', 1550: 'SQLITE_CANTOPEN_SYMLINK',
  267: 'SQLITE_CORRUPT_VTAB', 523: 'SQLITE_CORRUPT_SEQUENCE', 779: 'SQLITE_CORRUPT_INDEX',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY', 2067: 'SQLITE_CONSTRAINT_UNIQUE', 787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL', 275: 'SQLITE_CONSTRAINT_CHECK',
};

/** node:sqlite's error, with `code` set to SQLite's name for its result code. */
function sqliteError(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown };
  if (e && typeof e === 'object' && e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const name = EXTENDED[e.errcode] ?? PRIMARY[e.errcode & 0xff];
    if (name) Object.defineProperty(e, 'code', { value: name, configurable: true, writable: true, enumerable: true });
  }
  return err;
}

/** better-sqlite3 binds an array argument as its elements: `run([a, b])` is `run(a, b)`. */
function flat(params: unknown[]): unknown[] {
  return params.length === 1 && Array.isArray(params[0]) ? (params[0] as unknown[]) : params;
}

class NodeSqliteStatement implements SqliteStatement {
  private mode: 'object' | 'pluck' | 'raw' = 'object';
  /** node:sqlite hands back arrays itself (setReturnArrays), so a raw page needs no pass of its own. */
  private arrays = false;
  constructor(private readonly st: NodeStatement) {}

  pluck(): this {
    return this.shape('pluck');
  }

  raw(): this {
    return this.shape('raw');
  }

  private shape(mode: 'pluck' | 'raw'): this {
    this.mode = mode;
    // Arrays straight from SQLite where this Node has it (22.16+), else converted per row below.
    if (this.st.setReturnArrays) {
      this.st.setReturnArrays(true);
      this.arrays = true;
    }
    return this;
  }

  private row(r: unknown): unknown {
    if (r === undefined || this.mode === 'object') return r;
    const values = Array.isArray(r) ? r : Object.values(r as object);
    return this.mode === 'pluck' ? values[0] : values;
  }

  get(...params: unknown[]): unknown {
    try {
      return this.row(this.st.get(...flat(params)));
    } catch (err) {
      throw sqliteError(err);
    }
  }

  all(...params: unknown[]): unknown[] {
    let rows: unknown[];
    try {
      rows = this.st.all(...flat(params));
    } catch (err) {
      throw sqliteError(err);
    }
    if (this.mode === 'object' || (this.mode === 'raw' && this.arrays)) return rows;
    for (let i = 0; i < rows.length; i++) rows[i] = this.row(rows[i]);
    return rows;
  }

  run(...params: unknown[]): SqliteRunResult {
    try {
      return this.st.run(...flat(params));
    } catch (err) {
      throw sqliteError(err);
    }
  }
}

class NodeSqliteDb implements SqliteDb {
  private readonly db: NodeDatabase;
  private depth = 0;

  constructor(path: string, options: SqliteOpenOptions) {
    NodeDatabaseSync ??= (require('node:sqlite') as { DatabaseSync: NodeDatabaseCtor }).DatabaseSync;
    try {
      // A read-only open never creates the file; a writable one creates it unless the caller
      // checked it exists first (SqliteEventStore does, for `fileMustExist`).
      this.db = new NodeDatabaseSync(path, { readOnly: options.readonly ?? false, timeout: options.timeout });
    } catch (err) {
      throw sqliteError(err);
    }
  }

  prepare(sql: string): SqliteStatement {
    try {
      return new NodeSqliteStatement(this.db.prepare(sql));
    } catch (err) {
      throw sqliteError(err);
    }
  }

  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (err) {
      throw sqliteError(err);
    }
  }

  pragma(sql: string, options: { simple?: boolean } = {}): unknown {
    const st = this.prepare(`PRAGMA ${sql}`);
    return options.simple ? st.pluck().get() : st.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const run = (begin: string, args: A): R => {
      // Nested calls run inside the outer transaction as a savepoint, as better-sqlite3 does.
      const nested = this.depth > 0;
      const savepoint = `toolnorm_${this.depth}`;
      this.exec(nested ? `SAVEPOINT ${savepoint}` : begin);
      this.depth++;
      try {
        const result = fn(...args);
        this.exec(nested ? `RELEASE ${savepoint}` : 'COMMIT');
        return result;
      } catch (err) {
        try {
          this.exec(nested ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
        } catch {
          // SQLite already rolled back (SQLITE_FULL, SQLITE_IOERR, …): nothing is left to undo.
        }
        throw err;
      } finally {
        this.depth--;
      }
    };
    const tx = ((...args: A) => run('BEGIN', args)) as SqliteTransaction<A, R>;
    tx.immediate = (...args: A) => run('BEGIN IMMEDIATE', args);
    return tx;
  }

  close(): void {
    this.db.close();
  }
}
