// A plain SQLite connection beside the store, on the engine the store under test uses
// (TOOLNORM_SQLITE_ENGINE, else node:sqlite where Node has it, else better-sqlite3): the suites
// then run unchanged under Node 20 (better-sqlite3) and Node 24 (node:sqlite, whose process could
// not load a better-sqlite3 built for Node 20).
import { openSqlite, sqliteEngine, type SqliteDb } from '../../src/store/sqlite-driver.js';

interface Database extends SqliteDb {}
class Database {
  constructor(path: string, options: { readonly?: boolean } = {}) {
    return openSqlite(sqliteEngine(), path, { readonly: options.readonly ?? false, timeout: 10_000 }) as Database;
  }
}
export default Database;
