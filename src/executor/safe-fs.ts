// Opens that cannot be redirected. The path gates approve a path by name, but a hostile
// workspace can swap a directory for a symlink, or put a symlink at the final component, between
// the check and the open. So every built-in file access:
//   - opens with O_NOFOLLOW, so a final-component symlink is refused, never followed;
//   - asks the kernel where the open descriptor really is (`/proc/self/fd/N`), and refuses it
//     unless that lies inside the roots, before a byte is read or written;
//   - refuses regular files with more than one link (a hardlink to a file outside the roots looks
//     like a file inside them); reads of such files are allowed only when the policy says so;
//   - writes into a temporary file created (O_EXCL|O_NOFOLLOW) through the verified directory
//     descriptor, then renames it into place through that same descriptor, after checking again
//     where the directory is. The final name is replaced, never followed.
// Where `/proc/self/fd` is missing (not Linux, or /proc not mounted) none of this can be
// verified, and every access is refused with reason `unverifiable` rather than attempted.
import { closeSync, constants as C, existsSync, fchmodSync, fstatSync, lstatSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { isInside } from './tool-path.js';

/** Why a boundary refused an access; the `reason` of a `denied` tool failure. */
export type BoundaryReason = 'symlink' | 'outside_root' | 'hardlink' | 'not_regular' | 'unverifiable';

export class BoundaryError extends Error {
  constructor(readonly reason: BoundaryReason, message: string) {
    super(message);
    this.name = 'BoundaryError';
  }
}

/** The part of the session policy a file access is judged by. */
export interface FileBoundary {
  readonly readRoots: readonly string[];
  readonly writeRoots: readonly string[];
  /** A privileged session may act outside the roots (the path gate's rule); links are still checked. */
  readonly unbounded: boolean;
  /** Reading a regular file with more than one link (default false: denied). */
  readonly allowHardlinkReads: boolean;
}

export type Access = 'read' | 'write';

const PROC_FD = '/proc/self/fd';
let procChecked: boolean | undefined;
const procAvailable = () => (procChecked ??= existsSync(`${PROC_FD}/0`) || existsSync(PROC_FD));

const READ_FLAGS = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;
const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
const TEMP_FLAGS = C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW;

/** Where the kernel says an open descriptor is. */
export function fdPath(fd: number): string {
  return readlinkSync(`${PROC_FD}/${fd}`);
}

function requireProc(what: string): void {
  if (!procAvailable()) {
    throw new BoundaryError('unverifiable', `${what}: this platform has no ${PROC_FD}, so where an open file really lies cannot be verified; the access is refused`);
  }
}

function rootsOf(b: FileBoundary, access: Access) {
  return access === 'write' ? b.writeRoots : b.readRoots;
}

/** Throws unless descriptor `fd` lies inside the roots of `access`. */
export function verifyFd(fd: number, shown: string, b: FileBoundary, access: Access): string {
  const real = fdPath(fd);
  if (b.unbounded) return real;
  const roots = rootsOf(b, access);
  // A deleted or unreachable file reads as "/x (deleted)" or "anon_inode:…": not inside anything.
  if (real.startsWith('/') && roots.some((r) => isInside(real, r))) return real;
  throw new BoundaryError('outside_root', `${shown} was opened at ${real}, which is outside the ${access === 'write' ? 'writable' : 'readable'} roots (${roots.join(', ')}); a directory or link changed during the call`);
}

function linkCheck(st: Stats, shown: string, b: FileBoundary, access: Access): void {
  if (!st.isFile()) {
    if (st.isDirectory()) throw Object.assign(new Error(`${shown} is a directory`), { code: 'EISDIR' });
    throw new BoundaryError('not_regular', `${shown} is not a regular file (a device, FIFO or socket); only regular files are read or written`);
  }
  if (st.nlink > 1 && (access === 'write' || !b.allowHardlinkReads)) {
    const why = access === 'write'
      ? 'writing it would change every other name of the file, which may lie outside the roots'
      : 'another name of the file may lie outside the roots; the policy does not allow reading hardlinked files';
    throw new BoundaryError('hardlink', `${shown} has ${st.nlink} links; ${why}`);
  }
}

function symlinkError(err: unknown, shown: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  // O_NOFOLLOW on a symlink fails with ELOOP; O_DIRECTORY|O_NOFOLLOW on one with ENOTDIR or ELOOP.
  if (code === 'ELOOP') return new BoundaryError('symlink', `${shown} is a symlink now (it changed after the policy check); it is not followed`);
  return err;
}

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stat: Stats;
  /** Where the kernel says the descriptor is. */
  readonly real: string;
}

/**
 * Opens a regular file for reading, final component not followed, verified inside the roots of
 * `access` (a file a tool is about to rewrite is checked against the writable roots, and a
 * hardlinked one is refused whatever the read policy says). The caller closes the handle.
 */
export async function openVerified(path: string, shown: string, b: FileBoundary, access: Access = 'read'): Promise<OpenedFile> {
  requireProc(shown);
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (err) {
    throw symlinkError(err, shown);
  }
  try {
    const real = verifyFd(handle.fd, shown, b, access);
    const stat = await handle.stat();
    linkCheck(stat, shown, b, access);
    return { handle, stat, real };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export interface ReadOptions {
  access?: Access;
  /** Larger files are refused with code `too_large` before anything is read. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export class TooLargeError extends Error {
  readonly code = 'too_large';
  constructor(readonly size: number, readonly limit: number, shown: string) {
    super(`${shown} is ${size} bytes; files over ${limit} bytes are not read`);
  }
}

/** The file's bytes, or undefined when there are more than `limit` (at most limit + 1 are read). */
async function readAtMost(h: FileHandle, expected: number, limit: number, signal?: AbortSignal): Promise<Buffer | undefined> {
  let buf = Buffer.allocUnsafe(Math.min(expected, limit) + 1);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > limit) return undefined;
      const bigger = Buffer.allocUnsafe(Math.min(limit + 1, buf.length * 2));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    signal?.throwIfAborted();
    const { bytesRead } = await h.read(buf, n, buf.length - n, n);
    if (bytesRead === 0) return buf.subarray(0, n);
    n += bytesRead;
  }
}

/** The whole content of a verified regular file. */
export async function readVerified(path: string, shown: string, b: FileBoundary, options: ReadOptions = {}): Promise<{ data: Buffer; stat: Stats }> {
  const f = await openVerified(path, shown, b, options.access ?? 'read');
  try {
    const limit = options.maxBytes;
    if (limit !== undefined && f.stat.size > limit) throw new TooLargeError(f.stat.size, limit, shown);
    if (limit === undefined) return { data: await f.handle.readFile(options.signal ? { signal: options.signal } : {}), stat: f.stat };
    // The stat is only what the size was: a file that grows past the limit while it is read is
    // refused too, having read at most one byte past the limit.
    const data = await readAtMost(f.handle, f.stat.size, limit, options.signal);
    if (data === undefined) throw new TooLargeError(Math.max(limit + 1, (await f.handle.stat()).size), limit, shown);
    return { data, stat: f.stat };
  } finally {
    await f.handle.close();
  }
}

export interface WriteOutcome {
  /** A regular file was replaced (its mode is kept). */
  readonly existed: boolean;
}

/**
 * A write in progress: a fresh temporary file in the verified directory, not yet renamed into
 * place. The caller writes to `fd`, then calls commit(), and close() in every case.
 */
export interface PendingWrite {
  readonly fd: number;
  /** A regular file is being replaced (the temporary file already has its mode). */
  readonly existed: boolean;
  /** Closes the temporary file and renames it over the final name, after checking again where the directory is. */
  commit(): void;
  /** Releases the descriptors; removes the temporary file unless commit() renamed it. */
  close(): void;
}

/**
 * Starts replacing (or creating) `path`: opens its directory (not followed), verifies it inside
 * the writable roots, refuses a final component that is a symlink, a directory or a file with
 * other links, and creates the temporary file through the directory descriptor. Writing through
 * a PendingWrite lets content be streamed in without holding it all (file_copy).
 */
export function beginVerifiedWrite(path: string, shown: string, b: FileBoundary): PendingWrite {
  requireProc(shown);
  const name = basename(path);
  let dirFd: number | undefined;
  try {
    dirFd = openSync(dirname(path), DIR_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      if (code === 'ENOTDIR' && !lstatSync(dirname(path), { throwIfNoEntry: false })?.isSymbolicLink()) throw err;
      throw new BoundaryError('symlink', `the directory of ${shown} is a symlink now (it changed after the policy check); it is not followed`);
    }
    if (code === 'ENOENT') throw Object.assign(new Error(`the directory of ${shown} does not exist`), { code: 'ENOENT_DIR' });
    throw err;
  }
  const at = `${PROC_FD}/${dirFd}/`;
  let temp: string | undefined;
  let fd: number | undefined;
  const release = () => {
    if (fd !== undefined) { closeSync(fd); fd = undefined; }
    if (temp !== undefined) {
      try { unlinkSync(at + temp); } catch { /* never created, or already gone */ }
      temp = undefined;
    }
    if (dirFd !== undefined) { closeSync(dirFd); dirFd = undefined; }
  };
  try {
    verifyFd(dirFd, `the directory of ${shown}`, b, 'write');
    const existing = lstatSync(at + name, { throwIfNoEntry: false });
    if (existing) {
      if (existing.isSymbolicLink()) throw new BoundaryError('symlink', `${shown} is a symlink; it is not followed and not replaced`);
      linkCheck(existing, shown, b, 'write');
    }
    temp = `.${name.slice(0, 64)}.${randomBytes(6).toString('hex')}.toolnorm-tmp`;
    fd = openSync(at + temp, TEMP_FLAGS, 0o666);
    // The new file must be the one just made, in the verified directory.
    const st = fstatSync(fd);
    if (st.nlink !== 1 || !st.isFile()) throw new BoundaryError('not_regular', `the temporary file for ${shown} is not a fresh regular file`);
    if (existing) fchmodSync(fd, existing.mode & 0o7777);
    const opened = fd;
    return {
      fd: opened,
      existed: existing !== undefined,
      commit() {
        if (fd === undefined || temp === undefined || dirFd === undefined) throw new Error(`the write of ${shown} was already committed or closed`);
        closeSync(fd);
        fd = undefined;
        // The directory's identity at the rename: the same descriptor, still inside the roots.
        verifyFd(dirFd, `the directory of ${shown}`, b, 'write');
        renameSync(at + temp, at + name);
        temp = undefined;
      },
      close: release,
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** Writes all of `data` at the descriptor's position. */
export function writeAllSync(fd: number, data: Uint8Array, length = data.length): void {
  for (let off = 0; off < length;) off += writeSync(fd, data, off, length - off);
}

/**
 * Replaces (or creates) `path` with `data`: a temporary file in the verified directory, renamed
 * over the final name through the directory descriptor after its location is checked again.
 * A final component that is a symlink, a directory, or a file with other links is refused.
 */
export function writeVerified(path: string, shown: string, b: FileBoundary, data: string | Uint8Array): WriteOutcome {
  const w = beginVerifiedWrite(path, shown, b);
  try {
    writeAllSync(w.fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    w.commit();
    return { existed: w.existed };
  } finally {
    w.close();
  }
}
