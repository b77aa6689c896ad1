// `npm run bench -- memory [--mb 100,1024] [--to parts,acp] [--rounds 3] [--keep]`: peak RSS of one
// `toolnorm normalize --from claude` process over multi-session Claude input (corpus copies with a
// new session id per copy, so sessions keep starting and finishing), at each size and output. The
// inputs are generated into the system temp directory (never under the repo) and removed after
// unless --keep. The figure that matters is the ratio of the largest size to the smallest, measured
// in the same run: memory is flat when it stays near 1.0. Target (issue 16): the 1 GB run within
// 10% of the 100 MB run, and under 200 MB.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './claude.js';
import { fmt } from './_measure.js';

const CLI = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const TARGET_RATIO = 1.1;
const TARGET_RSS_MB = 200;

const listArg = (args: string[], name: string, fallback: string): string[] => {
  const i = args.indexOf(name);
  return (i >= 0 ? args[i + 1]! : fallback).split(',').filter(Boolean);
};

/** Peak RSS (MB) and wall time of one CLI run, read from GNU time's report for the child. */
function measure(file: string, to: string): Promise<{ rssMb: number; seconds: number; summary: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIME %M %e', process.execPath, CLI, 'normalize', '--from', 'claude', '--to', to, '--summary', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-20_000); });
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /TIME (\d+) ([\d.]+)/.exec(err);
      if (code !== 0 || !m) return reject(new Error(`normalize exited ${code}: ${err.slice(-500)}`));
      const summary = err.split('\n').filter((l) => l.startsWith('{"inputLines"')).pop() ?? '';
      resolve({ rssMb: Number(m[1]) / 1024, seconds: Number(m[2]), summary });
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[]): string => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

export async function run(args: string[]): Promise<void> {
  const sizes = listArg(args, '--mb', '100,1024').map(Number);
  const outputs = listArg(args, '--to', 'parts,acp');
  const rounds = Number(listArg(args, '--rounds', '3')[0]);
  const dir = join(tmpdir(), 'toolnorm-bench-memory');
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  try {
    for (const mb of sizes) {
      const file = join(dir, `claude-${mb}mb-distinct-sessions.jsonl`);
      files.push(file);
      await build(file, mb * 1024 * 1024, true);
    }
    // Rounds interleave every size and output, so a noisy neighbour moves them all alike; the
    // ratio of each round is taken within the round.
    const rss = new Map<string, number[]>();
    const ratios = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const to of outputs) {
        const mine: number[] = [];
        for (const file of files) {
          const r = await measure(file, to);
          const mb = statSync(file).size / 1024 / 1024;
          mine.push(r.rssMb);
          const key = `${fmt(mb, 0)} ${to}`;
          rss.set(key, [...(rss.get(key) ?? []), r.rssMb]);
          console.log(`round ${round}  ${fmt(mb, 0).padStart(6)} MB  --to ${to.padEnd(5)}  peak RSS ${fmt(r.rssMb).padStart(7)} MB  ${fmt(r.seconds)} s  ${r.summary.slice(0, 120)}`);
        }
        if (mine.length >= 2) ratios.set(to, [...(ratios.get(to) ?? []), mine[mine.length - 1]! / mine[0]!]);
      }
    }
    for (const to of outputs) {
      const sizesMb = files.map((f) => fmt(statSync(f).size / 1024 / 1024, 0));
      const small = rss.get(`${sizesMb[0]} ${to}`)!;
      const large = rss.get(`${sizesMb[sizesMb.length - 1]} ${to}`)!;
      const rs = ratios.get(to);
      if (!rs) continue;
      const ok = median(rs) <= TARGET_RATIO && median(large) < TARGET_RSS_MB;
      console.log(`--to ${to}: peak RSS ${sizesMb[0]} MB median ${fmt(median(small))} (${range(small)}), ${sizesMb[sizesMb.length - 1]} MB median ${fmt(median(large))} (${range(large)}); ratio median ${fmt(median(rs), 2)}× (${rs.map((r) => fmt(r, 2)).join(', ')}; target ≤ ${TARGET_RATIO}×), largest under ${TARGET_RSS_MB} MB: ${ok ? 'meets' : 'MISSES'} the target`);
    }
  } finally {
    if (!args.includes('--keep')) for (const f of files) rmSync(f, { force: true });
  }
}
