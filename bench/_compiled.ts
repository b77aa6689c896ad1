// The adapter throughput benches measure the compiled package in dist/ — what `npx toolnorm` and
// library users run — rather than tsx's on-the-fly transpile, whose keepNames wrappers add a few
// percent on hot closures. `npm run bench` builds first; a stale dist/ is refused, not measured.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Imports `dist/<rel>` (e.g. `src/pipeline/normalize.js`), after checking dist/ is built from the current sources. */
export async function compiled<T>(rel: string): Promise<T> {
  const target = join(ROOT, 'dist', rel);
  if (!existsSync(target)) throw new Error(`dist/${rel} is missing: run \`npm run build\` (\`npm run bench\` does)`);
  const built = statSync(join(ROOT, 'dist', 'src', 'index.js')).mtimeMs;
  if (newestMtime(join(ROOT, 'src')) > built || newestMtime(join(ROOT, 'generated')) > built) {
    throw new Error('dist/ is older than src/ or generated/: run `npm run build` (`npm run bench` does) so the benchmark measures the current code');
  }
  return (await import(pathToFileURL(target).href)) as T;
}
