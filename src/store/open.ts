// Store URLs, as the CLI and library users write them:
//   sqlite:PATH (relative to the working directory) · postgres://… or postgresql://… · memory:
// With no URL, the embedded default: sqlite:.toolnorm/events.db.
import { isAbsolute, resolve } from 'node:path';
import { MemoryEventStore } from './memory.js';
import { PostgresEventStore, redact } from './postgres.js';
import { DEFAULT_SQLITE_PATH, SqliteEventStore } from './sqlite.js';
import type { EventStore } from './types.js';

export const DEFAULT_STORE_URL = `sqlite:${DEFAULT_SQLITE_PATH}`;

export interface OpenStoreOptions {
  /** Directory relative SQLite paths are resolved against (default: the process working directory). */
  cwd?: string;
  /** Create a missing SQLite file (default true). Readers pass false, so a typo is an error, not an empty store. */
  create?: boolean;
}

export type StoreKind = 'sqlite' | 'postgres' | 'memory';

export interface StoreLocation {
  kind: StoreKind;
  /** SQLite: the resolved file path; PostgreSQL: the URL; memory: ''. */
  target: string;
}

const SCHEMES: readonly { prefix: string; kind: StoreKind }[] = [
  { prefix: 'sqlite:', kind: 'sqlite' },
  { prefix: 'postgres://', kind: 'postgres' },
  { prefix: 'postgresql://', kind: 'postgres' },
  { prefix: 'memory:', kind: 'memory' },
];

export function parseStoreUrl(url: string | undefined, cwd = process.cwd()): StoreLocation {
  const u = url ?? DEFAULT_STORE_URL;
  const scheme = SCHEMES.find((s) => u.startsWith(s.prefix));
  if (!scheme) throw new Error(`unknown store URL "${redact(u)}"; expected sqlite:PATH, postgres://… or memory:`);
  if (scheme.kind === 'postgres') return { kind: 'postgres', target: u };
  if (scheme.kind === 'memory') return { kind: 'memory', target: '' };
  // sqlite:PATH, also sqlite://PATH as some tools write it.
  let path = u.slice(scheme.prefix.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (!path) throw new Error('sqlite: needs a file path, e.g. sqlite:.toolnorm/events.db');
  return { kind: 'sqlite', target: path === ':memory:' || isAbsolute(path) ? path : resolve(cwd, path) };
}

export async function openStore(url?: string, options: OpenStoreOptions = {}): Promise<EventStore> {
  const loc = parseStoreUrl(url, options.cwd);
  switch (loc.kind) {
    case 'sqlite':
      return new SqliteEventStore(loc.target, { create: options.create ?? true });
    case 'postgres':
      return PostgresEventStore.open(loc.target);
    case 'memory':
      return new MemoryEventStore();
  }
}

/** The URL as it may be printed (no password). */
export const describeStoreUrl = (url: string | undefined) => redact(url ?? DEFAULT_STORE_URL);
