// `npm run bench -- ab [--rounds N] (--base DIR | --flag FLAG) -- CLI-ARGS…`: two whole `toolnorm`
// processes on the same arguments, alternated N times (default 5), stdout discarded: this build's
// `dist/` against another build (`--base DIR`, a folder holding that build's `dist/`, e.g. a copy
// kept before a change), or this build with and without a flag (`--flag --validate=all`). Prints
// each side's median wall and CPU time (user + system of every thread) and the median of the
// per-pair ratios, the figure to quote: neighbouring runs share the machine's load.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median } from './_measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join(ROOT, 'bench', '_report-usage.mjs');

interface Run { seconds: number; cpuSeconds: number }

function runCli(cli: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // The preloaded hook writes the process's own CPU time to fd 3 at exit.
    const child = spawn(process.execPath, ['--import', REPORT, cli, ...args], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let usage = '';
    child.stdio[3]!.on('data', (c: Buffer) => { usage += c; });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0 || !usage) return reject(new Error(`toolnorm ${args.join(' ')} (${cli}) exited ${code}${usage ? '' : ' without a usage report'}`));
      resolve({ seconds, cpuSeconds: (JSON.parse(usage) as { cpuSeconds: number }).cpuSeconds });
    });
  });
}

export async function run(argv: string[]): Promise<void> {
  const cut = argv.indexOf('--');
  if (cut < 0) throw new Error('usage: npm run bench -- ab [--rounds N] (--base DIR | --flag FLAG) -- CLI-ARGS…');
  const own = argv.slice(0, cut);
  const args = argv.slice(cut + 1);
  const opt = (name: string) => { const i = own.indexOf(name); return i >= 0 ? own[i + 1] : undefined; };
  const rounds = Number(opt('--rounds') ?? 5);
  const base = opt('--base');
  const flag = opt('--flag');
  if (!base === !flag) throw new Error('ab: give exactly one of --base DIR or --flag FLAG');
  const cli = join(ROOT, 'dist', 'src', 'cli', 'main.js');
  const sides: [string, () => Promise<Run>][] = base
    ? [['base', () => runCli(join(base, 'dist', 'src', 'cli', 'main.js'), args)], ['this build', () => runCli(cli, args)]]
    : [[`with ${flag}`, () => runCli(cli, [...args, ...flag!.split('=')])], ['without', () => runCli(cli, args)]];
  const runs: Run[][] = [[], []];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) runs[k]!.push(await sides[k]![1]());
  }
  const range = (xs: number[], d = 2) => `${fmt(median(xs), d)} [${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}]`;
  console.log(`ab: ${rounds} interleaved pairs of \`toolnorm ${args.join(' ')}\``);
  for (let k = 0; k < 2; k++) console.log(`  ${sides[k]![0].padEnd(22)} wall ${range(runs[k]!.map((x) => x.seconds))} s, CPU ${range(runs[k]!.map((x) => x.cpuSeconds))} s`);
  const cpu = runs[0]!.map((a, i) => a.cpuSeconds / runs[1]![i]!.cpuSeconds);
  const wall = runs[0]!.map((a, i) => a.seconds / runs[1]![i]!.seconds);
  console.log(`  ${sides[0]![0]} / ${sides[1]![0]}, per pair: CPU ${range(cpu, 3)}×, wall ${range(wall, 3)}×`);
}
