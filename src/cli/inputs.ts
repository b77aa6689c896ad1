// Resolves the command line's FILE... into readable inputs: files, directories (expanded, with
// the top-level files before those in subfolders, so a session precedes its subagent files) and `-`.
import { createReadStream, fstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { READ_CHUNK_BYTES } from '../pipeline/lines.js';

export interface Input {
  /** As the user named it (or relative to the named directory), never an absolute machine path. */
  name: string;
  size?: number;
  /** Found by expanding a directory (not named by the user): skipped with a diagnostic when it is not a recording. */
  inDirectory?: boolean;
  /**
   * Not a regular file (a pipe, a FIFO, a socket, a terminal): its lines arrive over time, so what
   * they produce is written as soon as the input waits, not in large buffered writes.
   */
  live?: boolean;
  open(): Readable;
}

/** A regular file is read as fast as the disk goes; anything else may wait between lines. */
const isLive = (stat: Stats) => !stat.isFile();

/**
 * Whether a stream (stdin, a child's stdout) is live: only a stream backed by a regular file is not.
 * A stream with no descriptor (an in-process Readable) may wait between lines, so it counts as live.
 */
export function streamIsLive(stream: Readable): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return true;
  try {
    return isLive(fstatSync(fd));
  } catch {
    return true;
  }
}

/** One input read from a stream the caller owns (stdin, an agent's stdout): e.g. for `record`. */
export function streamInput(name: string, stream: Readable, live = streamIsLive(stream)): Input {
  return { name, live, open: () => stream };
}

function expandDir(dir: string, shown: string): Input[] {
  const files: Input[] = [];
  const subdirs: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) subdirs.push(entry.name);
    else if (entry.isFile()) files.push({ ...fileInput(join(dir, entry.name), join(shown, entry.name)), inDirectory: true });
  }
  for (const sub of subdirs) files.push(...expandDir(join(dir, sub), join(shown, sub)));
  return files;
}

function fileInput(path: string, shown: string, stat: Stats = statSync(path)): Input {
  const live = isLive(stat);
  return { name: shown, ...(live ? { live } : { size: stat.size }), open: () => createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }) };
}

/** Throws an Error naming the path and reason when an input cannot be read. */
export function resolveInputs(args: readonly string[], cwd: string, stdin: Readable): Input[] {
  const inputs: Input[] = [];
  for (const arg of args) {
    if (arg === '-') {
      inputs.push(streamInput('-', stdin));
      continue;
    }
    const path = resolve(cwd, arg);
    let stat;
    try {
      stat = statSync(path);
    } catch (err) {
      throw new Error(`cannot read ${arg}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
    }
    if (stat.isDirectory()) inputs.push(...expandDir(path, relative(cwd, path) || arg));
    else inputs.push(fileInput(path, arg, stat));
  }
  return inputs;
}
