// ToolPath: the one path normalization rule (core-tools spec). Every filesystem tool and every
// path gate goes through it, and the path a gate approves is the path the tool is handed, so
// policy and execution act on the same file.
//
//   ~ and ~/…   → the home directory (injectable, so tests never touch the real one)
//   /abs        → kept
//   rel         → anchored on the session cwd, never process.cwd()
//   ~other/…    → NOT expanded: it is a relative path whose first segment is `~other`
//   ..          → resolved
//   symlinks    → resolved along the existing prefix (dangling links included), so a link out of a
//                 root is seen for what it is
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Linux PATH_MAX (bytes, with the terminating NUL) and NAME_MAX. */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;
/** Symlinks followed before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

export interface PathBase {
  /** Absolute session working directory. */
  readonly cwd: string;
  readonly home: string;
}

export type PathResolution =
  | {
      readonly ok: true;
      readonly given: string;
      /** After `~` expansion, cwd anchoring and `..` resolution, before symlinks. */
      readonly lexical: string;
      /** The path execution uses: the lexical path with its existing prefix resolved through symlinks. */
      readonly resolved: string;
      /** True when a symlink changed where the path points. */
      readonly viaSymlink: boolean;
      /** Set when a `~user` prefix was deliberately left alone. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly given: string; readonly reason: string };

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The checks that need no filesystem: empty, NUL bytes, length. */
export function pathTextProblem(given: string): string | undefined {
  if (given.length === 0) return 'the path is empty';
  if (given.includes('\0')) return `the path contains a NUL byte at index ${given.indexOf('\0')}`;
  if (bytes(given) >= PATH_MAX) return `the path is ${bytes(given)} bytes long; the limit is ${PATH_MAX - 1} (PATH_MAX)`;
  return undefined;
}

/** Expansion, anchoring and `..` resolution: pure, no filesystem access. */
export function lexicalPath(given: string, base: PathBase): { path: string; note?: string } {
  if (!isAbsolute(base.cwd)) throw new Error(`the session cwd must be absolute, got "${base.cwd}"`);
  if (given === '~') return { path: resolve(base.home) };
  if (given.startsWith('~/')) return { path: resolve(base.home, given.slice(2)) };
  const path = resolve(base.cwd, given);
  if (given.startsWith('~')) {
    const user = given.slice(1).split('/', 1)[0];
    return { path, note: `~${user} is not expanded (only ~ and ~/ are); it is a directory name relative to the session cwd` };
  }
  return { path };
}

// Synchronous on purpose: a path check is a handful of lstat calls of a few µs each, while the
// thread-pool round trip of the async ones costs ten times that per component.
function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    // Missing, or not searchable: either way the kernel would not follow anything here.
    return undefined;
  }
}

/**
 * Resolves symlinks along the existing prefix of an absolute, normalized path, component by
 * component, like realpath(3) but without failing on a missing tail. A dangling link is followed
 * too: writing through it would create its target, so its target is what policy must see.
 */
export async function realPrefix(path: string): Promise<string> {
  const pending = path.split(sep).filter(Boolean);
  let current: string = sep;
  let links = 0;
  while (pending.length) {
    const segment = pending.shift()!;
    if (segment === '.') continue;
    if (segment === '..') { current = dirname(current); continue; }
    const next = join(current, segment);
    const stat = lstatOrUndefined(next);
    if (!stat) {
      // Nothing below a missing component exists; the rest is resolved lexically.
      return resolve(next, ...pending);
    }
    if (stat.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new Error(`too many levels of symbolic links at ${next}`);
      const target = readlinkSync(next);
      pending.unshift(...target.split(sep).filter(Boolean));
      if (isAbsolute(target)) current = sep;
      continue;
    }
    current = next;
  }
  return current;
}

/** Resolves a path parameter the one canonical way. Never throws: problems come back as reasons. */
export async function resolveToolPath(given: string, base: PathBase): Promise<PathResolution> {
  if (typeof given !== 'string') return { ok: false, given: String(given), reason: `expected a path string, got ${typeof given}` };
  const problem = pathTextProblem(given);
  if (problem) return { ok: false, given, reason: problem };
  const { path: lexical, note } = lexicalPath(given, base);
  if (bytes(lexical) >= PATH_MAX) return { ok: false, given, reason: `the path resolves to ${bytes(lexical)} bytes; the limit is ${PATH_MAX - 1} (PATH_MAX)` };
  const long = lexical.split(sep).find((s) => bytes(s) > NAME_MAX);
  if (long !== undefined) return { ok: false, given, reason: `a path component is ${bytes(long)} bytes long; the limit is ${NAME_MAX} (NAME_MAX)` };
  let resolved: string;
  try {
    resolved = await realPrefix(lexical);
  } catch (err) {
    return { ok: false, given, reason: (err as Error).message };
  }
  return { ok: true, given, lexical, resolved, viaSymlink: resolved !== lexical, ...(note ? { note } : {}) };
}

/** True when `path` is `root` or below it (both absolute and normalized). */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The one ToolPath object, for callers that prefer a namespace. */
export const ToolPath = { resolve: resolveToolPath, lexical: lexicalPath, realPrefix, isInside, PATH_MAX, NAME_MAX } as const;
