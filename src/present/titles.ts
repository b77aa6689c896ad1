// Title helpers shared by every adapter's tool table: titles are action text a person reads.
import { isAbsolute, relative } from 'node:path/posix';

/** First line of a command, at most `max` characters (an ellipsis marks a cut). */
export function commandTitle(command: string, max = 80): string {
  // Commands can be long scripts: find the first line by index, and split into code points only
  // when it may be too long (a UTF-16 length within `max` means as many code points or fewer).
  const t = command.trim();
  const nl = t.indexOf('\n');
  const oneLine = (nl === -1 ? t : t.slice(0, nl)).trim();
  if (oneLine.length <= max) return oneLine;
  const cut = [...oneLine];
  return cut.length > max ? `${cut.slice(0, max - 1).join('')}…` : oneLine;
}

/** A `/`-rooted path with no empty, `.` or `..` segment and no trailing slash: what `resolve` returns unchanged. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/** A path as a person wants to read it: relative to the session cwd when inside it. */
export function displayPath(path: string, cwd?: string): string {
  if (!cwd || !isAbsolute(path) || !isAbsolute(cwd)) return path;
  // Nearly every path a tool names is normalized and under the cwd: then the relative path is the
  // rest of it, which spares `relative` (it resolves and re-splits both paths) for every title.
  if (path.length > cwd.length + 1 && path.charCodeAt(cwd.length) === 47 && path.startsWith(cwd) && cwd !== '/' && !NOT_NORMAL.test(path)) {
    return path.slice(cwd.length + 1);
  }
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  // Outside the cwd is `..` or `../…`; a name that merely starts with dots (`..env`, `...`) is inside.
  return rel === '..' || rel.startsWith('../') ? path : rel;
}

/** `host` of a URL, without `www.`; the input itself when it is not a URL. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** snake_case / camelCase / kebab-case words, lower-cased, for a humane fallback title. */
export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
}

export const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A non-empty single-line string, or undefined (multi-line or blank provider titles are not used as is). */
export function usableTitle(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  if (!t || t.includes('\n')) return undefined;
  return t;
}
