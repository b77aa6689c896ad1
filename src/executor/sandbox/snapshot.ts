// What a command changed in the writable roots, as FileMutationRecords. Before the command, a
// walk records each regular file's identity (device, inode, size, mtime and ctime in ns) and
// content hash; after it, a second walk compares identities and hashes only what differs. ctime
// cannot be set from user space, so a write that restores size and mtime is still seen.
//
// Bounds, so a huge tree cannot stall every command: at most `limit` entries per walk (files,
// directories and links counted alike) and at most `maxHashBytes` hashed per walk. Hashes are
// cached by identity across calls, so an unchanged tree costs stat calls only. A walk that hits
// a bound says so (`complete: false`), and a changed file it could not describe before the
// command is listed in `unrecorded` rather than given a record that would be a guess.
// Symlinks are not followed; only regular files get records (a created symlink or directory is
// counted in `otherChanges`).
import { createHash } from 'node:crypto';
import { closeSync, constants as C, fstatSync, openSync, readdirSync, readSync, type BigIntStats, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { FileDigest, FileMutationRecord } from '../../contract/index.js';
import { mutationOf } from '../digest.js';

interface Entry {
  readonly id: string;
  readonly digest: FileDigest | null;
}

export interface Snapshot {
  readonly files: Map<string, Entry>;
  /** Paths of links, directories and other non-regular entries, by their identity. */
  readonly others: Map<string, string>;
  readonly complete: boolean;
  readonly why?: string;
}

export interface SnapshotOptions {
  limit: number;
  maxHashBytes?: number;
}

export interface ChangeReport {
  readonly mutations: FileMutationRecord[];
  /** Changed regular files with no honest before/after digest (a walk bound was hit). */
  readonly unrecorded: string[];
  readonly otherChanges: number;
  readonly complete: boolean;
  readonly why?: string;
}

const idOf = (s: BigIntStats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/** Digests by identity, shared by the walks of one tool instance. */
export class DigestCache {
  private readonly map = new Map<string, FileDigest>();
  get(id: string) { return this.map.get(id); }
  set(id: string, d: FileDigest) {
    if (this.map.size > 100_000) this.map.clear();
    this.map.set(id, d);
  }
}

function hashFile(path: string): { digest: FileDigest; id: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) return undefined;
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(256 * 1024);
    let size = 0;
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) {
      hash.update(buf.subarray(0, n));
      size += n;
    }
    return { digest: { size, sha256: hash.digest('hex') }, id: idOf(st) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export function snapshot(roots: readonly string[], options: SnapshotOptions, cache: DigestCache): Snapshot {
  const files = new Map<string, Entry>();
  const others = new Map<string, string>();
  let budget = options.maxHashBytes ?? 256 * 1024 * 1024;
  let seen = 0;
  let why: string | undefined;
  const stack = [...roots];
  while (stack.length && why === undefined) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > options.limit) { why = `more than ${options.limit} entries in the writable roots`; break; }
      const path = join(dir, name);
      let st: BigIntStats | undefined;
      try { st = lstatSync(path, { bigint: true }); } catch { continue; }
      if (!st) continue;
      if (st.isDirectory()) { stack.push(path); others.set(path, `dir:${st.ino}`); continue; }
      if (!st.isFile()) { others.set(path, `${st.isSymbolicLink() ? 'link' : 'other'}:${st.ino}:${st.ctimeNs}`); continue; }
      const id = idOf(st);
      let digest = cache.get(id) ?? null;
      if (!digest && budget > 0) {
        const h = hashFile(path);
        if (h) {
          budget -= h.digest.size;
          cache.set(h.id, h.digest);
          digest = h.id === id ? h.digest : null;
        }
      }
      if (!digest && budget <= 0) why ??= `more than ${options.maxHashBytes ?? 256 * 1024 * 1024} bytes to hash in the writable roots`;
      files.set(path, { id, digest });
    }
  }
  return { files, others, complete: why === undefined, ...(why ? { why } : {}) };
}

/** The records of what changed between two walks. */
export function changes(before: Snapshot, after: Snapshot): ChangeReport {
  const mutations: FileMutationRecord[] = [];
  const unrecorded: string[] = [];
  const paths = new Set([...before.files.keys(), ...after.files.keys()]);
  for (const path of [...paths].sort()) {
    const b = before.files.get(path);
    const a = after.files.get(path);
    if (b && a && b.id === a.id) continue;
    // A walk that stopped early may have missed the file on one side: only a complete walk can
    // say that a file is absent.
    if ((!b && !before.complete) || (!a && !after.complete) || (b && !b.digest) || (a && !a.digest)) { unrecorded.push(path); continue; }
    const record = mutationOf(path, b?.digest ?? null, a?.digest ?? null);
    // A touch changes the identity, not the content: nothing to record.
    if (record.operation !== 'unchanged') mutations.push(record);
  }
  let otherChanges = 0;
  for (const [p, id] of after.others) if (before.others.get(p) !== id) otherChanges++;
  for (const p of before.others.keys()) if (!after.others.has(p)) otherChanges++;
  const complete = before.complete && after.complete;
  const why = before.why ?? after.why;
  return { mutations, unrecorded, otherChanges, complete, ...(why ? { why } : {}) };
}
