// `npm run bench -- import [--rounds N] [--no-size]`: what a user's process pays to load toolnorm.
// Each sample is a fresh node process (cold module cache, cold V8) timing one dynamic import of a
// built entry with performance.now(); entries are interleaved round by round so a noisy machine
// hurts them alike. The baseline, measured in the same rounds, is importing ajv's compiler (what a
// program that validates JSON Schema itself loads); an empty module shows the floor of a cold import.
// With --size (default) it also packs this checkout and installs it normalize-only
// (--omit=dev --omit=optional, offline) to report the install size.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, lstatSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, median } from './_measure.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

const ENTRIES: Record<string, string> = {
  'ajv (baseline)': 'ajv/dist/2019.js',
  'an empty module': 'data:text/javascript,export default 1',
  "import 'toolnorm'": pathToFileURL(join(ROOT, 'dist/src/index.js')).href,
  "import 'toolnorm/store'": pathToFileURL(join(ROOT, 'dist/src/store/index.js')).href,
  "import 'toolnorm/executor'": pathToFileURL(join(ROOT, 'dist/src/executor/index.js')).href,
  "import 'toolnorm/compress'": pathToFileURL(join(ROOT, 'dist/src/compress/index.js')).href,
};

/** Wall and CPU milliseconds of one cold import (CPU is the steadier figure on a shared machine). */
function sample(spec: string): [number, number] {
  const code = `const c0 = process.cpuUsage(); const t0 = performance.now(); await import(${JSON.stringify(spec)}); const c = process.cpuUsage(c0); process.stdout.write(JSON.stringify([performance.now() - t0, (c.user + c.system) / 1000]));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`importing ${spec} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as [number, number];
}

function duBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    total += st.isDirectory() ? duBytes(p) : st.size;
  }
  return total;
}

async function installSize(): Promise<{ bytes: number; packages: number }> {
  const { consumerLock } = await import('../test/package/lock.js');
  const work = mkdtempSync(join(tmpdir(), 'toolnorm-bench-import-'));
  try {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json', '--loglevel=error'], { cwd: ROOT, encoding: 'utf8' });
    const tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
    const dir = join(work, 'consumer');
    mkdirSync(dir);
    const deps = { toolnorm: `file:${tarball}` };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: deps }));
    const pkg = (await import(pathToFileURL(join(ROOT, 'package.json')).href, { with: { type: 'json' } })).default;
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(consumerLock(ROOT, tarball, deps, pkg)));
    execFileSync('npm', ['ci', '--omit=dev', '--omit=optional', '--ignore-scripts', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    const nm = join(dir, 'node_modules');
    const packages = readdirSync(nm).flatMap((n) => (n.startsWith('@') ? readdirSync(join(nm, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n]));
    return { bytes: duBytes(nm), packages: packages.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const i = args.indexOf('--rounds');
  const rounds = i >= 0 ? Number(args[i + 1]) : 10;
  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(ENTRIES).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(ENTRIES).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, spec] of Object.entries(ENTRIES)) {
      const [w, c] = sample(spec);
      wall[name]!.push(w);
      cpu[name]!.push(c);
    }
  }
  const base = median(wall['ajv (baseline)']!);
  const baseCpu = median(cpu['ajv (baseline)']!);
  console.log(`import cost, cold process, median of ${rounds} interleaved rounds: wall ms (range), × the ajv baseline; CPU ms, ×`);
  for (const name of Object.keys(ENTRIES)) {
    const m = median(wall[name]!);
    const c = median(cpu[name]!);
    console.log(`  ${name.padEnd(28)} ${fmt(m).padStart(7)} ms (${fmt(Math.min(...wall[name]!))}–${fmt(Math.max(...wall[name]!))}) ${fmt(m / base, 2)}×   CPU ${fmt(c).padStart(6)} ms ${fmt(c / baseCpu, 2)}×`);
  }
  const core = median(wall["import 'toolnorm'"]!);
  console.log(`  goal: the core in ≤ 60 ms: ${core <= 60 ? 'meets' : 'below'} (${fmt(core)} ms wall, ${fmt(median(cpu["import 'toolnorm'"]!))} ms CPU)`);
  if (!args.includes('--no-size')) {
    const { bytes, packages } = await installSize();
    console.log(`normalize-only install (--omit=dev --omit=optional): ${packages} packages, ${fmt(bytes / 1e6, 2)} MB in node_modules, no native build`);
  }
}
