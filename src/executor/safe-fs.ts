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

/** The whole content of a verified regular file. */
export async function readVerified(path: string, shown: string, b: FileBoundary, options: ReadOptions = {}): Promise<{ data: Buffer; stat: Stats }> {
  const f = await openVerified(path, shown, b, options.access ?? 'read');
  try {
    if (options.maxBytes !== undefined && f.stat.size > options.maxBytes) throw new TooLargeError(f.stat.size, options.maxBytes, shown);
    const data = await f.handle.readFile(options.signal ? { signal: options.signal } : {});
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
 * Replaces (or creates) `path` with `data`: a temporary file in the verified directory, renamed
 * over the final name through the directory descriptor after its location is checked again.
 * A final component that is a symlink, a directory, or a file with other links is refused.
 */
export function writeVerified(path: string, shown: string, b: FileBoundary, data: string | Uint8Array): WriteOutcome {
  requireProc(shown);
  const name = basename(path);
  let dirFd: number;
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
  try {
    verifyFd(dirFd, `the directory of ${shown}`, b, 'write');
    const existing = lstatSync(at + name, { throwIfNoEntry: false });
    if (existing) {
      if (existing.isSymbolicLink()) throw new BoundaryError('symlink', `${shown} is a symlink; it is not followed and not replaced`);
      linkCheck(existing, shown, b, 'write');
    }
    temp = `.${name.slice(0, 64)}.${randomBytes(6).toString('hex')}.toolnorm-tmp`;
    const fd = openSync(at + temp, TEMP_FLAGS, 0o666);
    try {
      // The new file must be the one just made, in the verified directory.
      const st = fstatSync(fd);
      if (st.nlink !== 1 || !st.isFile()) throw new BoundaryError('not_regular', `the temporary file for ${shown} is not a fresh regular file`);
      if (existing) fchmodSync(fd, existing.mode & 0o7777);
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
    } finally {
      closeSync(fd);
    }
    // The directory's identity at the rename: the same descriptor, still inside the roots.
    verifyFd(dirFd, `the directory of ${shown}`, b, 'write');
    renameSync(at + temp, at + name);
    temp = undefined;
    return { existed: existing !== undefined };
  } finally {
    if (temp !== undefined) {
      try { unlinkSync(at + temp); } catch { /* never created, or already gone */ }
    }
    closeSync(dirFd);
  }
}
