// Paths in titles, relative to the session cwd. Claude Code runs on Windows too (the 2.1.6 public
// recording has `c:\Projects\…` paths), where the POSIX helper would leave every path absolute.
import { displayPath } from '../../present/titles.js';

const WINDOWS_ABS = /^[a-zA-Z]:[\\/]/;

/** `path` relative to `cwd` when it lies inside it, else unchanged. Handles POSIX and Windows paths. */
export function relPath(path: string, cwd?: string): string {
  if (!cwd) return path;
  if (WINDOWS_ABS.test(path) && WINDOWS_ABS.test(cwd)) {
    const norm = (p: string) => p.replace(/\//g, '\\').replace(/\\+$/, '');
    const p = norm(path);
    const c = norm(cwd);
    // Windows paths compare case-insensitively.
    if (p.toLowerCase() === c.toLowerCase()) return '.';
    if (p.toLowerCase().startsWith(`${c.toLowerCase()}\\`)) return p.slice(c.length + 1);
    return path;
  }
  return displayPath(path, cwd);
}
