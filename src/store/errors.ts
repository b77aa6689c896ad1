// What went wrong with a store, said as such: every store failure the CLI reports names the store
// and one of a few causes (a conflict, a full disk, read-only, locked), with the driver's own code,
// so it is never mistaken for a problem with the input being read.
import { ConcurrencyError } from './types.js';

export type StoreFailure = 'conflict' | 'full' | 'read-only' | 'locked' | 'unavailable' | 'other';

/** Driver codes (SQLite result codes, PostgreSQL SQLSTATEs, errno) → cause. */
const CAUSES: readonly { test: RegExp; failure: StoreFailure; reason: string }[] = [
  { test: /^(SQLITE_FULL|ENOSPC|EDQUOT|53100)$/, failure: 'full', reason: 'the disk is full' },
  { test: /^(SQLITE_READONLY\w*|EROFS|25006)$/, failure: 'read-only', reason: 'the store is read-only' },
  { test: /^(SQLITE_PERM|SQLITE_AUTH|EACCES|EPERM|42501)$/, failure: 'read-only', reason: 'no permission to write to the store' },
  { test: /^(SQLITE_BUSY\w*|SQLITE_LOCKED\w*|55P03)$/, failure: 'locked', reason: 'the store is locked by another process' },
  { test: /^(40001|40P01|23505)$/, failure: 'conflict', reason: 'a concurrent writer got there first' },
  { test: /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|57P01|57P03|08\w{3})$/, failure: 'unavailable', reason: 'the database server cannot be reached' },
];

export class StoreError extends Error {
  constructor(readonly store: string, readonly failure: StoreFailure, message: string, readonly reason?: unknown) {
    super(`store ${store}: ${message}`);
    this.name = 'StoreError';
  }
}

/** Wraps any error from a store operation, naming the store and the cause. */
export function storeError(store: string, err: unknown): StoreError {
  if (err instanceof StoreError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ConcurrencyError) return new StoreError(store, 'conflict', `conflict: ${message}`, err);
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    const cause = CAUSES.find((c) => c.test.test(code));
    if (cause) return new StoreError(store, cause.failure, `${cause.reason} (${code}: ${message})`, err);
    return new StoreError(store, 'other', `${message} (${code})`, err);
  }
  return new StoreError(store, 'other', message, err);
}
