// Relative links in Markdown and `docs/…` citations in code, checked against the tree: the file
// must exist and an `#anchor` must name a heading of it, by GitHub's slug rules. Kept apart from
// the test so its rules can be tested on small inputs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface Link {
  /** The file the link is written in, relative to the repo root. */
  from: string;
  line: number;
  target: string;
}

export interface Broken extends Link {
  reason: string;
}

const FENCE = /^\s{0,3}(```|~~~)/;

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const m = FENCE.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1];
      else if (m[1] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push([i + 1, line]);
  });
  return out;
}

/** GitHub's heading slug: markup dropped, lower case, punctuation other than `-` and `_` removed, spaces to `-`. */
export function slug(heading: string): string {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return plain
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: heading slugs (repeats get -1, -2, …) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, line] of proseLines(text)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Inline links and images outside code, plus reference definitions; external targets are left out. */
export function linksOf(text: string, from: string): Link[] {
  const links: Link[] = [];
  for (const [line, raw] of proseLines(text)) {
    const prose = raw.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ from, line, target: m[1]! });
    const def = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (def) links.push({ from, line, target: def[1]! });
  }
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

const anchorCache = new Map<string, Set<string>>();

/** Why `target`, written in `from` (both relative to `root`), does not resolve; undefined when it does. */
export function checkTarget(root: string, from: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (path.startsWith('/')) return 'absolute path: a clone may live anywhere';
  const file = path === '' ? join(root, from) : resolve(root, dirname(from), decodeURIComponent(path));
  if (relative(root, file).startsWith('..')) return 'points outside the repository';
  if (!existsSync(file)) return `no such file: ${relative(root, file)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `an anchor on a file that is not Markdown: ${relative(root, file)}`;
  let anchors = anchorCache.get(file);
  if (!anchors) anchorCache.set(file, (anchors = anchorsOf(readFileSync(file, 'utf8'))));
  return anchors.has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, file)}`;
}

/** README.md and every Markdown file under docs/, relative to the root. */
export function markdownFiles(root: string): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out.sort();
}

/** Source files under the given folders (node_modules and build output skipped). */
export function codeFiles(root: string, dirs: readonly string[], skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(join(root, dir))) return;
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.') || skip.includes(rel)) continue;
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mts|js|mjs|py|go)$/.test(e.name)) out.push(rel);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

/** `docs/….md` and `docs/….md#anchor` citations in a code file, each read as a path from the repo root. */
export function citationsOf(text: string, from: string): Link[] {
  const links: Link[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w/.-])docs\/[\w./-]+\.md(?:#[\w-]+)?/g)) links.push({ from, line: i + 1, target: m[0] });
  });
  return links;
}
