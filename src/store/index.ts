// `toolnorm/store`: event stores. SQLite runs on Node's built-in node:sqlite (Node 22.13+) or the
// optional peer better-sqlite3 (Node 20); PostgreSQL (pg) is an optional dependency. A driver is loaded
// only when a store of that kind is opened; a missing one is one clear MissingDriverError naming it.
export { openStore, parseStoreUrl, describeStoreUrl, DEFAULT_STORE_URL, type OpenStoreOptions, type StoreKind, type StoreLocation } from './open.js';
export { SqliteEventStore, type SqliteStoreOptions, type SqliteEngine } from './sqlite.js';
export { PostgresEventStore, type PostgresStoreOptions } from './postgres.js';
export { MemoryEventStore } from './memory.js';
export { followSession, type FollowOptions } from './follow.js';
export { SchemaVersionError } from './migrations.js';
export { StoreCorruptionError } from './serial.js';
export { MissingDriverError } from './driver.js';
export { ConcurrencyError, InvalidEventError, type EventStore, type StoredEvent, type AppendResult, type SessionInfo, type Snapshot, type ReadOptions } from './types.js';
