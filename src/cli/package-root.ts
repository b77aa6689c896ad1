// The installed package's root, found by walking up to toolnorm's package.json: the same code runs
// from src/ (tsx) and from dist/src/ (built), at different depths.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(from = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'toolnorm') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the toolnorm package root');
    dir = up;
  }
}
