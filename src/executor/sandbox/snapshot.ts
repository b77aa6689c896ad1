// What a command changed in the writable roots, as FileMutationRecords. Before the command, a
// walk records every entry's stat identity (device, inode, size, mtime and ctime in ns, mode)
// and each regular file's content hash; after it, a second walk compares identities first and
// hashes only what stat says changed. ctime cannot be set from user space, so a write that
// restores size and mtime is still seen, and so is a chmod.
//
// Records: regular files and symlinks (a link is not followed: its digest is of its target
// text). A path that left one place and the same inode that appeared at another is a rename.
// Directories and other entries are only counted (`otherChanges`).
//
// Honesty over completeness: a directory the walk could not read, or did not reach before a
// bound, is a gap. A file seen on one side whose other side lies in a gap is `unknown`, never
// created or deleted, and the walk says it is incomplete and names the unreadable paths.
//
// Bounds, so a huge tree cannot stall every command: at most `limit` entries per walk, at most
// `maxFileHashBytes` per file and `maxHashBytes` per walk hashed (beyond them a file's digest
// says `unhashed` and records judge it by stat), and no work after `signal` fires (the call's
// deadline; the rest of the tree is a gap). Hashes are cached by identity across calls, so an
// unchanged tree costs stat calls only.
import { createHash } from 'node:crypto';
import { closeSync, constants as C, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileDigest, FileMutationRecord } from '../../contract/index.js';
import { DEFAULT_MAX_FILE_HASH_BYTES, hashOpenFile, identityOf, Pace, sameContent } from '../digest.js';

type Kind = 'file' | 'symlink' | 'dir' | 'other';

interface Entry {
  readonly kind: Kind;
  readonly id: string;
  /** Device, inode and birth time: the same file wherever it is (renames). */
  readonly inode: string;
  /** Permission bits, st_mode & 07777. */
  readonly mode: number;
  readonly digest?: FileDigest;
  readonly target?: string;
}

export interface Snapshot {
  readonly entries: ReadonlyMap<string, Entry>;
  /** Paths whose contents the walk does not know (unreadable, or not reached), with why. */
  readonly gaps: ReadonlyMap<string, string>;
  /** Entries that could not be read, by path, with the error code. */
  readonly unreadable: ReadonlyMap<string, string>;
  /** Why the walk stopped before the end (a bound, the deadline). */
  readonly stopped?: string;
  readonly complete: boolean;
  readonly why?: string;
}

export interface SnapshotOptions {
  limit: number;
  /** Most bytes hashed per walk (default 256 MiB). */
  maxHashBytes?: number;
  /** Files larger than this are not hashed (default 64 MiB). */
  maxFileHashBytes?: number;
  /** The walk stops when it fires; what it did not reach is a gap. */
  signal?: AbortSignal;
}

export interface ChangeReport {
  readonly mutations: FileMutationRecord[];
  /** Paths seen on one side only whose other side lies in a gap: nothing is known of their fate. */
  readonly unknown: string[];
  readonly unreadable: ReadonlyMap<string, string>;
  readonly otherChanges: number;
  readonly complete: boolean;
  readonly why?: string;
}

const DEFAULT_MAX_HASH_BYTES = 256 * 1024 * 1024;

/** Digests by identity, shared by the walks of one tool instance. Only real hashes are kept. */
export class DigestCache {
  private readonly map = new Map<string, FileDigest>();
  get(id: string) { return this.map.get(id); }
  set(id: string, d: FileDigest) {
    if (d.sha256 === undefined) return;
    if (this.map.size > 100_000) this.map.clear();
    this.map.set(id, d);
  }
}

const kindOf = (s: BigIntStats): Kind => (s.isFile() ? 'file' : s.isSymbolicLink() ? 'symlink' : s.isDirectory() ? 'dir' : 'other');
const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'EIO';
const textDigest = (text: string): FileDigest => ({ size: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') });

async function hashPath(path: string, lst: BigIntStats, maxBytes: number, pace: Pace): Promise<FileDigest> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the lstat must not hang the walk.
    fd = openSync(path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch {
    return { size: Number(lst.size), unhashed: 'unreadable' };
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (identityOf(st) !== identityOf(lst)) return { size: Number(lst.size), unhashed: 'changed_while_read' };
    return await hashOpenFile(fd, st, { maxBytes, pace });
  } catch {
    return { size: Number(lst.size), unhashed: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/**
 * Walks the roots. With `previous` (the walk before the command), an entry whose identity has
 * not changed takes its digest from there, so only what stat says changed is hashed.
 */
export async function snapshot(roots: readonly string[], options: SnapshotOptions, cache: DigestCache, previous?: Snapshot): Promise<Snapshot> {
  const entries = new Map<string, Entry>();
  const gaps = new Map<string, string>();
  const unreadable = new Map<string, string>();
  const maxWalk = options.maxHashBytes ?? DEFAULT_MAX_HASH_BYTES;
  const maxFile = options.maxFileHashBytes ?? DEFAULT_MAX_FILE_HASH_BYTES;
  const pace = new Pace(options.signal);
  let budget = maxWalk;
  let seen = 0;
  let stopped: string | undefined;
  const stack = [...roots];
  const digestOf = async (path: string, st: BigIntStats, id: string): Promise<FileDigest> => {
    const cached = cache.get(id);
    if (cached) return cached;
    if (pace.stopped) return { size: Number(st.size), unhashed: 'deadline' };
    if (budget < Number(st.size)) return { size: Number(st.size), unhashed: Number(st.size) > maxFile ? 'over_file_bound' : 'over_walk_budget' };
    const digest = await hashPath(path, st, maxFile, pace);
    if (digest.sha256 !== undefined) budget -= digest.size;
    cache.set(id, digest);
    return digest;
  };
  walk: while (stack.length) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      gaps.set(dir, codeOf(err));
      unreadable.set(dir, codeOf(err));
      continue;
    }
    for (const name of names) {
      if (++seen > options.limit) stopped = `more than ${options.limit} entries in the writable roots`;
      else if (await pace.stop()) stopped = 'the call ran out of time before the walk was done';
      if (stopped) {
        // The directory being listed and every one not yet reached are unknown ground.
        for (const d of [dir, ...stack]) gaps.set(d, stopped);
        break walk;
      }
      const path = join(dir, name);
      let st: BigIntStats;
      try {
        st = lstatSync(path, { bigint: true });
      } catch (err) {
        // Gone between the listing and the lstat: absent, as a later listing would show.
        if (codeOf(err) === 'ENOENT') continue;
        gaps.set(path, codeOf(err));
        unreadable.set(path, codeOf(err));
        continue;
      }
      const kind = kindOf(st);
      const id = kind === 'dir' ? `dir:${st.dev}:${st.ino}:${st.mode}` : identityOf(st);
      const base = { kind, id, inode: `${st.dev}:${st.ino}:${st.birthtimeNs}`, mode: Number(st.mode & 0o7777n) };
      const prior = previous?.entries.get(path);
      if (prior && prior.id === id) { entries.set(path, prior); if (kind === 'dir') stack.push(path); continue; }
      if (kind === 'dir') { stack.push(path); entries.set(path, base); continue; }
      if (kind === 'symlink') {
        try {
          const target = readlinkSync(path);
          entries.set(path, { ...base, target, digest: textDigest(target) });
        } catch (err) {
          gaps.set(path, codeOf(err));
          unreadable.set(path, codeOf(err));
        }
        continue;
      }
      entries.set(path, kind === 'file' ? { ...base, digest: await digestOf(path, st, id) } : base);
    }
  }
  const why = whyIncomplete(stopped ? [stopped] : [], unreadable);
  return { entries, gaps, unreadable, ...(stopped ? { stopped } : {}), complete: gaps.size === 0, ...(why ? { why } : {}) };
}

function whyIncomplete(stops: readonly string[], unreadable: ReadonlyMap<string, string>): string | undefined {
  const named = [...unreadable].slice(0, 3).map(([p, code]) => `${p} (${code})`).join(', ');
  const more = unreadable.size > 3 ? ` and ${unreadable.size - 3} more` : '';
  const why = [...stops, ...(unreadable.size ? [`could not read ${named}${more}`] : [])].join('; ');
  return why || undefined;
}

/** Whether the walk knows what is at `path` (no gap at it or above it). */
function covers(walk: Snapshot, path: string): boolean {
  for (let p = path; ; p = dirname(p)) {
    if (walk.gaps.has(p)) return false;
    if (dirname(p) === p) return true;
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');
const recorded = (e: Entry | undefined) => e !== undefined && (e.kind === 'file' || e.kind === 'symlink');

function record(path: string, operation: FileMutationRecord['operation'], b: Entry | undefined, a: Entry | undefined, from?: string): FileMutationRecord {
  const link = (b ?? a)!.kind === 'symlink';
  const modes = { before: b && !link ? octal(b.mode) : null, after: a && !link ? octal(a.mode) : null };
  return {
    path,
    operation,
    ...(from ? { from } : {}),
    ...(link ? { type: 'symlink' as const } : {}),
    before: b?.digest ?? null,
    after: a?.digest ?? null,
    ...(modes.before !== modes.after ? { mode: modes } : {}),
    ...(link ? { target: { before: b?.target ?? null, after: a?.target ?? null } } : {}),
  };
}

/** The records of what changed between two walks. */
export function changes(before: Snapshot, after: Snapshot): ChangeReport {
  const mutations: FileMutationRecord[] = [];
  const unknown: string[] = [];
  const gone = new Map<string, string>();
  const made: string[] = [];
  let otherChanges = 0;
  const paths = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort();
  for (const path of paths) {
    const b = before.entries.get(path);
    const a = after.entries.get(path);
    if (b && a && b.id === a.id) continue;
    // Only a walk that read the place can say a file is absent from it.
    if ((!b && !covers(before, path)) || (!a && !covers(after, path))) { if (recorded(b) || recorded(a)) unknown.push(path); continue; }
    if (!recorded(b) && !recorded(a)) { otherChanges++; continue; }
    if (b && a && b.kind === a.kind) {
      const same = sameContent(b.digest!, a.digest!);
      // A touch changes the identity, not the content or mode: nothing to record. Unhashed
      // content cannot be shown unchanged, so it is recorded as stat saw it.
      if (same === true && b.mode === a.mode && b.target === a.target) continue;
      mutations.push(record(path, 'modify', b, a));
      continue;
    }
    // Appeared, disappeared, or changed kind: a directory or FIFO on one side is only counted.
    if (recorded(b)) gone.set(b!.inode, path);
    else if (b) otherChanges++;
    if (recorded(a)) made.push(path);
    else if (a) otherChanges++;
  }
  const renamedFrom = new Map<string, string>();
  const claimed = new Set<string>();
  for (const path of made) {
    const from = gone.get(after.entries.get(path)!.inode);
    if (from !== undefined && !claimed.has(from)) { renamedFrom.set(path, from); claimed.add(from); }
  }
  for (const path of made) {
    const from = renamedFrom.get(path);
    mutations.push(from ? record(path, 'rename', before.entries.get(from), after.entries.get(path), from) : record(path, 'create', undefined, after.entries.get(path)));
  }
  for (const path of gone.values()) if (!claimed.has(path)) mutations.push(record(path, 'delete', before.entries.get(path), undefined));
  mutations.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  const complete = before.complete && after.complete;
  const unreadable = new Map([...before.unreadable, ...after.unreadable]);
  const why = whyIncomplete([...new Set([before.stopped, after.stopped].filter((w): w is string => !!w))], unreadable);
  return { mutations, unknown, unreadable, otherChanges, complete, ...(why ? { why } : {}) };
}

/** metadata.snapshot of a bash part: counts, and the paths behind an incomplete report. */
export function snapshotMetadata(report: ChangeReport): Record<string, unknown> {
  const unreadable = [...report.unreadable].map(([path, error]) => ({ path, error }));
  return {
    files: report.mutations.length,
    ...(report.unknown.length ? { unknown: report.unknown.slice(0, 100), unknownCount: report.unknown.length } : {}),
    ...(unreadable.length ? { unreadable: unreadable.slice(0, 100), unreadableCount: unreadable.length } : {}),
    ...(report.otherChanges ? { otherChanges: report.otherChanges } : {}),
    ...(report.complete ? {} : { complete: false, why: report.why }),
  };
}

/**
 * The signal of the walk after the command: the call's own, plus `graceMs` once it has fired,
 * so a command stopped by its deadline still gets a (short) look at what it changed, within the
 * executor's grace period.
 */
export function afterSignal(signal: AbortSignal, graceMs = 1000): AbortSignal {
  const controller = new AbortController();
  const arm = () => { setTimeout(() => controller.abort(), graceMs).unref(); };
  if (signal.aborted) arm();
  else signal.addEventListener('abort', arm, { once: true });
  return controller.signal;
}
