// `toolnorm/store`: event stores. SQLite (better-sqlite3) and PostgreSQL (pg) are optional
// dependencies, loaded only when a store of that kind is opened; a missing driver is one clear
// MissingDriverError naming the package to install.
export { openStore, parseStoreUrl, describeStoreUrl, DEFAULT_STORE_URL, type OpenStoreOptions, type StoreKind, type StoreLocation } from './open.js';
export { SqliteEventStore, type SqliteStoreOptions } from './sqlite.js';
export { PostgresEventStore, type PostgresStoreOptions } from './postgres.js';
export { MemoryEventStore } from './memory.js';
export { followSession, type FollowOptions } from './follow.js';
export { SchemaVersionError } from './migrations.js';
export { StoreCorruptionError } from './serial.js';
export { MissingDriverError } from './driver.js';
export { ConcurrencyError, InvalidEventError, type EventStore, type StoredEvent, type AppendResult, type SessionInfo, type Snapshot, type ReadOptions } from './types.js';
