// `npm run build [-- --out DIR]`: declarations from tsc, JavaScript from esbuild.
// The JavaScript is bundled per public entry (every subpath export and the CLI) with shared code
// split into chunks: a cold `import 'toolnorm'` then opens a handful of files instead of ~80, and
// module loading, not our code, was most of its cost. Packages stay external (they are
// dependencies, or optional and loaded on demand); nothing is minified, so stack traces and class
// names stay readable.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const out = i >= 0 ? resolve(process.argv[i + 1]) : join(root, 'dist');
rmSync(out, { recursive: true, force: true });

const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
mkdirSync(join(out, 'generated'), { recursive: true });
copyFileSync(join(root, 'generated/validators.d.ts'), join(out, 'generated/validators.d.ts'));

// Every JavaScript file the package exports, plus the CLI (which bin/toolnorm.js runs).
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const CLI = 'dist/src/cli/main.js';
// The CLI's worker thread for `normalize --jobs N` (src/cli/bulk.ts) is loaded by path: an entry of its own.
const targets = new Set([CLI, 'dist/src/cli/bulk-worker.js']);
for (const t of Object.values(pkg.exports)) if (typeof t === 'object' && t.default.endsWith('.js')) targets.add(t.default.replace(/^\.\//, ''));
const entryPoints = [...targets].map((t) => {
  const rel = t.replace(/^\.\//, '').replace(/^dist\//, '').replace(/\.js$/, '.ts');
  return join(root, rel);
});
await build({
  entryPoints,
  outbase: root,
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
});
chmodSync(join(out, CLI.replace(/^dist\//, '')), 0o755);

// CommonJS doors for `require('toolnorm/…')`: each re-exports the ESM entry, which Node >= 20.19
// loads with require(esm), so there is one module instance either way. They exist so a `require`
// resolution finds CommonJS-format files (.cjs, .d.cts) instead of an ESM file, which
// @arethetypeswrong/cli's node16 profile reports as CJSResolvesToESM.
for (const t of Object.values(pkg.exports)) {
  if (typeof t !== 'object' || !t.require) continue;
  const base = basename(t.default);
  writeFileSync(join(out, t.require.default.replace(/^\.\/dist\//, '')), `'use strict';\nmodule.exports = require('./${base}');\n`);
  writeFileSync(join(out, t.require.types.replace(/^\.\/dist\//, '')), `export * from './${base}';\n`);
}
