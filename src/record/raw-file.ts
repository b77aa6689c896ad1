// The recorder layer (spec rule 9 keeps raw provider output "in the recorder/audit layer"): the
// agent's stdout, byte for byte, in one file. Every chunk is written to the file synchronously,
// before the normalizer sees it, so the file is never behind what was normalized, and a kill of
// toolnorm at any moment leaves exactly the bytes received so far (a torn last line at worst).
import { closeSync, fsyncSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseStoreUrl } from '../store/url.js';

/** Folder of default raw files, beside a SQLite store or, without one, in the working directory. */
export const RECORDINGS_DIR = 'recordings';
/** Without a SQLite store, default raw files go to `.toolnorm/recordings/` (where the default store lives). */
export const DEFAULT_RECORDINGS_DIR = join('.toolnorm', RECORDINGS_DIR);

export class RawFile {
  private fd: number | undefined;
  bytes = 0;

  private constructor(readonly path: string, fd: number) {
    this.fd = fd;
  }

  /**
   * Opens a new file; never overwrites one (an audit file is not clobbered by a second run).
   * Throws an Error naming the path and the reason.
   */
  static create(path: string): RawFile {
    try {
      mkdirSync(dirname(path), { recursive: true });
      return new RawFile(path, openSync(path, 'wx'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new Error(code === 'EEXIST' ? `${path} already exists (a raw recording is never overwritten; name another --raw FILE)` : `cannot create ${path}: ${(err as Error).message}`);
    }
  }

  /** Appends the bytes as they are (a short write is continued, never dropped). */
  write(chunk: Buffer): void {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    let done = 0;
    while (done < chunk.length) done += writeSync(this.fd, chunk, done, chunk.length - done);
    this.bytes += chunk.length;
  }

  /** Flushes to disk and closes; safe to call twice. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Closes and deletes the file (the agent never started, so nothing was recorded). */
  discard(): void {
    this.close();
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone.
    }
  }
}

/** `20261201T215647Z`: sorts by time, and is a safe file name everywhere. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** The agent's program name, reduced to characters safe in a file name (`codex`, `claude`, `node`). */
function programName(command: string): string {
  return basename(command).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40) || 'agent';
}

/**
 * Where a raw recording goes when `--raw` is not given: `recordings/` beside a SQLite store
 * (`sqlite:.toolnorm/events.db` → `.toolnorm/recordings/`), else `.toolnorm/recordings/` in the
 * working directory (also for PostgreSQL, which has no folder of its own). The name is the UTC time
 * and the program, `20261201T215647Z-codex.jsonl`; `-2`, `-3`… are added while that name is taken.
 */
export function createDefaultRawFile(opts: { store?: string; cwd: string; command: string; now?: Date }): RawFile {
  const store = opts.store === undefined ? undefined : parseStoreUrl(opts.store, opts.cwd);
  const dir = store?.kind === 'sqlite' && store.target !== ':memory:' ? join(dirname(store.target), RECORDINGS_DIR) : resolve(opts.cwd, DEFAULT_RECORDINGS_DIR);
  const base = `${stamp(opts.now ?? new Date())}-${programName(opts.command)}`;
  for (let n = 1; ; n++) {
    const path = join(dir, `${base}${n === 1 ? '' : `-${n}`}.jsonl`);
    try {
      return RawFile.create(path);
    } catch (err) {
      if (!(err as Error).message.includes('already exists') || n >= 1000) throw err;
    }
  }
}

/** The raw file as a user names it on the next command line: relative to the working directory when inside it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
