// Store URLs, as the CLI and library users write them:
//   sqlite:PATH (relative to the working directory) · postgres://… or postgresql://… · memory:
// Pure parsing, so that naming a store does not load a database driver.
import { isAbsolute, resolve } from 'node:path';

export const DEFAULT_SQLITE_PATH = '.toolnorm/events.db';
export const DEFAULT_STORE_URL = `sqlite:${DEFAULT_SQLITE_PATH}`;

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

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/** The URL as it may be printed (no password); undefined is the default store. */
export const describeStoreUrl = (url: string | undefined) => redact(url ?? DEFAULT_STORE_URL);

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

export interface PostgresUrlOptions {
  schema?: string;
  poolSize?: number;
  notify?: boolean;
}

/** Our own URL parameters, removed before the URL is handed to the driver. */
const PG_PARAMS = { schema: 'schema', poolSize: 'pool_size', notify: 'notify' } as const;

/** `?schema=…&pool_size=…&notify=off` from a postgres:// URL, and the URL without them. */
export function parsePostgresUrl(url: string): { connectionString: string; options: PostgresUrlOptions } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a PostgreSQL URL: ${redact(url)}`);
  }
  const options: PostgresUrlOptions = {};
  const p = parsed.searchParams;
  const schema = p.get(PG_PARAMS.schema);
  if (schema !== null) options.schema = schema;
  const pool = p.get(PG_PARAMS.poolSize);
  if (pool !== null) {
    const n = Number(pool);
    if (!Number.isInteger(n) || n < 1) throw new Error(`pool_size must be a positive integer, got ${pool}`);
    options.poolSize = n;
  }
  const notify = p.get(PG_PARAMS.notify);
  if (notify !== null) options.notify = !['0', 'off', 'false', 'no'].includes(notify.toLowerCase());
  for (const k of Object.values(PG_PARAMS)) p.delete(k);
  return { connectionString: parsed.toString(), options };
}
