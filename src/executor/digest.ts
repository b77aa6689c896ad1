// FileMutationRecord support: a file's size and sha256 before and after a call. Hashing is
// streamed in chunks and bounded: a file over the per-file bound, or one still being read when
// the caller's time is up, gets a digest that says why it has no sha256 (`unhashed`) instead of
// holding up the call. A record built from such digests is judged by stat, and says so.
import { createHash } from 'node:crypto';
import { constants as C, fstatSync, readSync, type BigIntStats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { FileDigest, FileMutationRecord } from '../contract/index.js';
import { verifyFd, type FileBoundary } from './safe-fs.js';

/** Files larger than this are not hashed (default of `maxFileHashBytes`). */
export const DEFAULT_MAX_FILE_HASH_BYTES = 64 * 1024 * 1024;

const CHUNK = 1024 * 1024;

/**
 * Yields to the event loop every few milliseconds, so a long walk or hash lets the call's
 * deadline timer fire; `stop()` says whether the caller's signal has fired since.
 */
export class Pace {
  private last = performance.now();
  constructor(private readonly signal?: AbortSignal) {}
  get stopped(): boolean { return this.signal?.aborted ?? false; }
  async stop(): Promise<boolean> {
    if (performance.now() - this.last > 20) {
      await new Promise((r) => setImmediate(r));
      this.last = performance.now();
    }
    return this.stopped;
  }
}

/** What stat says about a file: a digest is reused only while this stays the same. */
export const identityOf = (s: BigIntStats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;

export interface HashLimits {
  /** Larger files are not hashed (default 64 MiB). */
  maxBytes?: number;
  pace?: Pace;
}

/**
 * The digest of an open regular file, read in 1 MiB chunks. `st` is its fstat from before the
 * read; a file whose identity differs after the read changed while it was hashed. Size is counted
 * from the bytes hashed, so the two always describe the same content.
 */
export async function hashOpenFile(fd: number, st: BigIntStats, limits: HashLimits = {}): Promise<FileDigest> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_FILE_HASH_BYTES;
  const size = Number(st.size);
  if (size > maxBytes) return { size, unhashed: 'over_file_bound' };
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  let total = 0;
  for (;;) {
    if (limits.pace && (await limits.pace.stop())) return { size, unhashed: 'deadline' };
    // One byte past the bound is enough to know a growing file went over it.
    const n = readSync(fd, buf, 0, Math.min(CHUNK, maxBytes + 1 - total), null);
    if (n === 0) break;
    total += n;
    if (total > maxBytes) return { size: total, unhashed: 'over_file_bound' };
    hash.update(buf.subarray(0, n));
  }
  if (identityOf(fstatSync(fd, { bigint: true })) !== identityOf(st)) return { size: total, unhashed: 'changed_while_read' };
  return { size: total, sha256: hash.digest('hex') };
}

/** Identities of digests made by fileDigest, so mutationOf can judge unhashed ones by stat. */
const identities = new WeakMap<FileDigest, string>();

/**
 * Size and hash of a regular file; null when there is none (missing, or not a regular file).
 * With a boundary, the file is opened without following a final symlink and hashed only when
 * the descriptor lies inside the writable roots (else null), so a swapped directory cannot make
 * a record describe a file outside them. Hardlinked files are hashed: no content leaves here.
 */
export async function fileDigest(path: string, boundary?: FileBoundary, limits?: HashLimits): Promise<FileDigest | null> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    if (boundary) verifyFd(fh.fd, path, boundary, 'write');
    const st = fstatSync(fh.fd, { bigint: true });
    if (!st.isFile()) return null;
    const digest = await hashOpenFile(fh.fd, st, { pace: new Pace(), ...limits });
    identities.set(digest, identityOf(st));
    return digest;
  } catch {
    return null;
  } finally {
    await fh?.close();
  }
}

/** Whether two digests show the same content; undefined when one of them has no hash. */
export function sameContent(before: FileDigest, after: FileDigest): boolean | undefined {
  if (before.size !== after.size) return false;
  if (before.sha256 === undefined || after.sha256 === undefined) return undefined;
  return before.sha256 === after.sha256;
}

/**
 * @contract FileMutationRecord
 * Without both hashes, the same identity (inode, size, mtime, ctime, mode) counts as unchanged
 * and anything else as a modify: the digests' `unhashed` says the content was not compared.
 */
export function mutationOf(path: string, before: FileDigest | null, after: FileDigest | null): FileMutationRecord {
  const same = before && after ? sameContent(before, after) ?? (identities.has(before) && identities.get(before) === identities.get(after)) : false;
  const operation: FileMutationRecord['operation'] =
    before === null ? (after === null ? 'unchanged' : 'create')
      : after === null ? 'delete'
        : same ? 'unchanged' : 'modify';
  return { path, operation, before, after };
}
