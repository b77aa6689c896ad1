// Paths in `metadata.files` and `metadata.search` are absolute. Recordings come from other
// machines (Windows ones too), so nothing here may fall back to this process's cwd: a relative
// path resolves only against an absolute session cwd, in that cwd's own path flavour.
import { posix, win32 } from 'node:path';

export const isAbsolutePath = (path: string) => posix.isAbsolute(path) || win32.isAbsolute(path);

/** The absolute form of `path`, or undefined when it cannot be known without guessing. */
export function absolutePath(path: string, cwd?: string): string | undefined {
  if (isAbsolutePath(path)) return path;
  // `~` is a shell/ToolPath notation, not a directory name: anchoring it on the cwd would invent a path.
  if (path.startsWith('~') || !cwd) return undefined;
  if (posix.isAbsolute(cwd)) return posix.resolve(cwd, path);
  if (/^[A-Za-z]:[\\/]|^\\\\/.test(cwd)) return win32.resolve(cwd, path);
  return undefined;
}

/** Absolute when it can be; otherwise the path as the provider wrote it (the contract says so). */
export const resolvedPath = (path: string, cwd?: string): string => absolutePath(path, cwd) ?? path;
