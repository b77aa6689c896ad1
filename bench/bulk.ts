// `npm run bench -- bulk [--files N] [--mb N] [--rounds N] [--jobs N]`: `normalize DIR --to acp` on a
// folder of session files, on every core (`--jobs`, default the cores available) and with `--jobs 1`,
// against the peer (@agentclientprotocol/claude-agent-acp) converting the same bytes in one process
// the way `npm run bench -- peer` drives it (bench/peer.ts, its `--peer-child`).
//
// The folder (bench/.data/bulk-<files>x<mb>mb/, built once): N files (default 200) of ≈ MB/N each
// (default 100 MB in all), file f made of copies of the Claude corpus recording f mod R, every tool-use
// id and uuid rewritten per copy and every session id per file, so each file is one session of its
// own and nothing is de-duplicated away. The peer reads the same files concatenated in the order
// `normalize DIR` reads them (one process, one session state per session id, as one agent keeps them).
//
// Each round runs the three sides, each a whole process (toolnorm) or a fresh child (peer), rounds
// interleaved: throughput (input MB/s by the wall clock) and CPU time (user + system, every thread)
// of each, and the ratios of toolnorm to the peer measured in the same round. Every round also checks
// that `--jobs N` printed exactly the bytes `--jobs 1` printed.
import { spawn, fork } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmt, median } from './_measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = join(ROOT, 'bench', '.data');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID = /\b(srvtoolu_|toolu_)[A-Za-z0-9_]+/g;

function recordings(): string[][] {
  const out: string[][] = [];
  for (const sub of ['public', 'captured']) {
    const dir = join(CORPUS, sub);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) out.push(readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l.trim()));
  }
  if (!out.length) throw new Error(`no Claude corpus at ${CORPUS}; the benchmark needs ../shared/corpus/claude`);
  return out;
}

/**
 * Copy `k` of a line of file `f`: uuids tagged by file and copy, session ids (`sessions`) by file
 * only, so each file is one session; tool ids by both.
 */
function rewrite(line: string, f: number, k: number, sessions: ReadonlySet<string>): string {
  const tag = (g: number) => (f * 4096 + g).toString(16).padStart(6, '0');
  return line.replace(UUID, (u) => `${u.slice(0, 24)}${tag(sessions.has(u) ? 0 : k + 1)}${u.slice(30)}`).replace(TOOL_ID, (id) => `${id}_f${f}c${k}`);
}

/** The folder, its files in the order `normalize DIR` reads them, and the bytes in all. */
export function buildFolder(files: number, mb: number): { dir: string; paths: string[]; bytes: number } {
  const dir = join(DATA, `bulk-${files}x${mb}mb`);
  const names = Array.from({ length: files }, (_, f) => `session-${String(f).padStart(4, '0')}.jsonl`);
  const paths = names.map((n) => join(dir, n));
  if (!paths.every((p) => existsSync(p))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const recs = recordings();
    const per = (mb * 1024 * 1024) / files;
    for (let f = 0; f < files; f++) {
      const lines = recs[f % recs.length]!;
      const parts: string[] = [];
      let size = 0;
      const sessions = new Set<string>();
      for (const l of lines) for (const m of l.matchAll(/"session_?[iI]d":"([0-9a-f-]{36})"/g)) sessions.add(m[1]!);
      for (let k = 0; size < per; k++) {
        const text = `${lines.map((l) => rewrite(l, f, k, sessions)).join('\n')}\n`;
        parts.push(text);
        size += Buffer.byteLength(text);
      }
      writeFileSync(paths[f]!, parts.join(''));
    }
  }
  return { dir, paths, bytes: paths.reduce((n, p) => n + statSync(p).size, 0) };
}

interface Measured { seconds: number; cpuSeconds: number }

/** A whole `node` process with bench/_report-usage.mjs preloaded, stdout to a file: wall time, and the CPU time it reports. */
function measured(args: string[], outFile: string): Promise<Measured> {
  const fd = openSync(outFile, 'w');
  const started = process.hrtime.bigint();
  return new Promise<Measured>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', join(ROOT, 'bench', '_report-usage.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', fd, 'inherit', 'pipe'] });
    let report = '';
    proc.stdio[3]!.on('data', (d: Buffer) => { report += d.toString(); });
    proc.once('error', reject);
    proc.once('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // normalize exits 1 when the corpus makes diagnostics that are errors; the output is still whole.
      if (code !== 0 && code !== 1) return reject(new Error(`toolnorm exited with ${code}`));
      resolve({ seconds, cpuSeconds: (JSON.parse(report) as { cpuSeconds: number }).cpuSeconds });
    });
  }).finally(() => closeSync(fd));
}

/** bench/peer.ts's peer child on `file`: it times itself from its first read to its last write. */
function runPeer(file: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const proc = fork(join(ROOT, 'bench', 'peer.ts'), ['--peer-child', file, 'plain'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.once('message', (m) => resolve(m as Measured));
    proc.once('error', reject);
    proc.once('exit', (code) => { if (code) reject(new Error(`the peer child exited with ${code}`)); });
  });
}

function sameBytes(a: string, b: string): boolean {
  return statSync(a).size === statSync(b).size && readFileSync(a).equals(readFileSync(b));
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { files: { type: 'string', default: '200' }, mb: { type: 'string', default: '100' }, rounds: { type: 'string', default: '3' }, jobs: { type: 'string', default: String(availableParallelism()) } } });
  const files = Number(values.files);
  const rounds = Number(values.rounds);
  const jobs = Number(values.jobs);
  const { dir, paths, bytes } = buildFolder(files, Number(values.mb));
  const concat = join(DATA, `bulk-${files}x${values.mb}mb.concat.jsonl`);
  if (!existsSync(concat) || statSync(concat).size !== bytes) writeFileSync(concat, Buffer.concat(paths.map((p) => readFileSync(p))));
  const out = join(DATA, 'bulk-out');
  mkdirSync(out, { recursive: true });
  const cli = join(ROOT, 'dist/src/cli/main.js');
  console.log(`bulk bench: ${files} files, ${fmt(bytes / 1e6)} MB in all; normalize DIR --to acp --jobs ${jobs} and --jobs 1 against the peer in one process; ${rounds} interleaved rounds; Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}`);
  const mbps: Record<string, number[]> = { [`toolnorm --jobs ${jobs}`]: [], 'toolnorm --jobs 1': [], peer: [] };
  const cpu: Record<string, number[]> = { [`toolnorm --jobs ${jobs}`]: [], 'toolnorm --jobs 1': [], peer: [] };
  const keep = (name: string, m: Measured) => {
    mbps[name]!.push(bytes / 1e6 / m.seconds);
    cpu[name]!.push(bytes / 1e6 / m.cpuSeconds);
    process.stderr.write(`  ${name}: ${fmt(m.seconds, 2)} s wall, ${fmt(m.cpuSeconds, 2)} s CPU\n`);
  };
  for (let r = 1; r <= rounds; r++) {
    process.stderr.write(`round ${r}\n`);
    const outN = join(out, 'jobs-n.ndjson');
    const out1 = join(out, 'jobs-1.ndjson');
    // The order alternates per round, so neither side always runs on a warmer page cache.
    const sides: [string, () => Promise<Measured>][] = [
      [`toolnorm --jobs ${jobs}`, () => measured([cli, 'normalize', '--to', 'acp', '--quiet', '--jobs', String(jobs), dir], outN)],
      ['peer', () => runPeer(concat)],
      ['toolnorm --jobs 1', () => measured([cli, 'normalize', '--to', 'acp', '--quiet', '--jobs', '1', dir], out1)],
    ];
    for (const [name, side] of r % 2 ? sides : [...sides].reverse()) keep(name, await side());
    if (!sameBytes(outN, out1)) throw new Error(`round ${r}: --jobs ${jobs} printed other bytes than --jobs 1 (${outN}, ${out1})`);
  }
  rmSync(out, { recursive: true, force: true });
  console.log('');
  for (const name of Object.keys(mbps)) console.log(`${name.padEnd(22)} ${fmt(median(mbps[name]!)).padStart(8)} MB/s wall [${fmt(Math.min(...mbps[name]!))}–${fmt(Math.max(...mbps[name]!))}], ${fmt(median(cpu[name]!)).padStart(8)} MB per CPU-second`);
  const ratio = (name: string, of: Record<string, number[]>) => {
    const rs = of[name]!.map((x, i) => x / of.peer![i]!);
    return `${fmt(median(rs), 2)}× [${fmt(Math.min(...rs), 2)}–${fmt(Math.max(...rs), 2)}]`;
  };
  console.log('');
  console.log(`toolnorm --jobs ${jobs} / peer, same round: ${ratio(`toolnorm --jobs ${jobs}`, mbps)} throughput (goal ≥ 1.5×), ${ratio(`toolnorm --jobs ${jobs}`, cpu)} per CPU-second`);
  console.log(`toolnorm --jobs 1 / peer, same round: ${ratio('toolnorm --jobs 1', mbps)} throughput, ${ratio('toolnorm --jobs 1', cpu)} per CPU-second`);
  console.log(`--jobs ${jobs} printed the same bytes as --jobs 1 in every round`);
}
