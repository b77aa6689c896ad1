// `npm run build [-- --out DIR]`: declarations from tsc, JavaScript from esbuild.
// The JavaScript is bundled per public entry (every subpath export and the CLI) with shared code
// split into chunks: a cold `import 'toolnorm'` then opens a handful of files instead of ~80, and
// module loading, not our code, was most of its cost. Packages stay external (they are
// dependencies, or optional and loaded on demand); nothing is minified, so stack traces and class
// names stay readable.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

// Every JavaScript file the package exports, plus the CLI's bin.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const targets = new Set([pkg.bin.toolnorm]);
for (const t of Object.values(pkg.exports)) if (typeof t === 'object' && t.default.endsWith('.js')) targets.add(t.default);
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
chmodSync(join(out, pkg.bin.toolnorm.replace(/^(\.\/)?dist\//, '')), 0o755);
