// URL → store. The drivers are loaded only for the store asked for, so a command that names no
// PostgreSQL URL never pays for loading `pg`.
import { MemoryEventStore } from './memory.js';
import type { EventStore } from './types.js';
import { parseStoreUrl } from './url.js';

export { DEFAULT_STORE_URL, describeStoreUrl, parseStoreUrl, type StoreKind, type StoreLocation } from './url.js';

export interface OpenStoreOptions {
  /** Directory relative SQLite paths are resolved against (default: the process working directory). */
  cwd?: string;
  /** Create a missing SQLite file (default true). Readers pass false, so a typo is an error, not an empty store. */
  create?: boolean;
  /**
   * Open for reading only (readers: `sessions`, `replay`, `follow`): nothing is written, not even a
   * migration, so a read-only file, directory or database role is enough. Implies `create: false`.
   */
  readOnly?: boolean;
}

/** Opens `url` (default `sqlite:.toolnorm/events.db`), creating and migrating the schema as needed. */
export async function openStore(url?: string, options: OpenStoreOptions = {}): Promise<EventStore> {
  const loc = parseStoreUrl(url, options.cwd);
  switch (loc.kind) {
    case 'sqlite': {
      const { SqliteEventStore } = await import('./sqlite.js');
      return new SqliteEventStore(loc.target, { create: options.readOnly ? false : options.create ?? true, readOnly: options.readOnly });
    }
    case 'postgres': {
      const { PostgresEventStore } = await import('./postgres.js');
      return PostgresEventStore.open(loc.target, { readOnly: options.readOnly });
    }
    case 'memory':
      return new MemoryEventStore();
  }
}
