// Access to ../shared/corpus. A clone without ../shared still passes: corpus suites are skipped
// with a visible message, except under CI, where a missing corpus is a failure.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SHARED = resolve(REPO_ROOT, '..', 'shared');
export const CORPUS = join(SHARED, 'corpus');

export function corpusAvailable(): boolean {
  if (existsSync(CORPUS)) return true;
  if (process.env.CI) throw new Error(`../shared/corpus is missing at ${relative(REPO_ROOT, CORPUS)}; CI must run the corpus suites`);
  console.warn('[toolnorm tests] ../shared/corpus not found: corpus suites are SKIPPED (they run under CI)');
  return false;
}

/** Every regular file below corpus/<sub>, sorted, as paths relative to the corpus root. */
export function corpusFiles(sub: string, filter: (name: string) => boolean = () => true): string[] {
  const root = join(CORPUS, sub);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (filter(name)) out.push(relative(CORPUS, p));
    }
  };
  walk(root);
  return out;
}
