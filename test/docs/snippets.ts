// Extracts the ```ts blocks of the README and docs/ so the snippets test can type-check them as
// the package's users would write them: `import … from 'toolnorm/…'` resolves to the sources of
// this checkout, third-party imports to the installed packages.
//
// A snippet that uses a name it does not define (a recording's `text`, your own `render`) says so
// on a line of its own: `// declare: const text: string`. The checker turns that line, in place, into
// `declare const text: string;`, so line numbers stay the snippet's own. Anything else undefined
// is an error, as it would be for a reader who copies the snippet.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Snippet {
  /** The markdown file, relative to the repository. */
  file: string;
  /** 1-based line of the snippet's first code line in that file. */
  line: number;
  code: string;
}

export const DECLARE = /^(\s*)\/\/ declare: (.+?);?\s*$/;

/** README.md and every .md under docs/, in a stable order. */
export function markdownSources(root: string): string[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))].map((p) => relative(root, p));
}

/** The ```ts / ```typescript blocks of one markdown text. */
export function snippetsOf(file: string, text: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(ts|typescript)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(`${indent}${fence}`); j++) body.push(lines[j]!.slice(indent!.length));
    out.push({ file, line: i + 2, code: body.join('\n') });
    i = j;
  }
  return out;
}

/** The module tsc checks: `// declare:` lines become declarations, and the file is always a module. */
export function checkedSource(code: string): string {
  return `${code.split('\n').map((l) => l.replace(DECLARE, '$1declare $2;')).join('\n')}\nexport {};\n`;
}

/**
 * `paths` for tsc from package.json's exports: each subpath's built types
 * (`./dist/src/store/index.d.ts`) map back to their source (`src/store/index.ts`).
 */
export function sourcePaths(root: string): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { types?: string }> };
  const paths: Record<string, string[]> = {};
  for (const [sub, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? undefined : target.types;
    if (!types) continue;
    const source = types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts');
    paths[sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`] = [join(root, source)];
  }
  return paths;
}
