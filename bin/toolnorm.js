#!/usr/bin/env node
// The `toolnorm` command. A published package runs its built CLI (dist/ is in the tarball). A fresh
// clone has no dist/ yet: the build runs when the package is packed (`prepack`), never at install,
// so no consumer ever runs an install script; instead the first run from a clone builds dist/ once.
// After editing src/, `npm run build` refreshes it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  const build = new URL('../scripts/build.mjs', import.meta.url);
  if (!existsSync(build)) {
    process.stderr.write(`toolnorm: this installation has no ${fileURLToPath(main)}; reinstall the package\n`);
    process.exit(1);
  }
  process.stderr.write('toolnorm: first run from a clone: building dist/ (npm run build)\n');
  // Build output goes to stderr, so stdout stays the command's own output.
  const r = spawnSync(process.execPath, [fileURLToPath(build)], { stdio: ['ignore', 2, 2] });
  if (r.status !== 0 || !existsSync(main)) {
    process.stderr.write('toolnorm: the build failed (see above); run `npm run build` to retry\n');
    process.exit(r.status || 1);
  }
}
await import(main.href);
