// `npm run bench -- outputs [--mb N] [--rounds N]`: throughput of each ecosystem output format on
// the Claude input of `bench -- claude` (≥N MB, default 100, built under bench/.data/), next to
// `--to parts` in the same run. Each measurement is a child process running the full normalize
// pipeline with that format's encoder, every output record serialized with JSON.stringify as the
// CLI does (then dropped); rounds alternate the formats and the median round is reported.
import { fork } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamEncoderFactory } from '../src/pipeline/encoder.js';
import type { OutputFormat } from '../src/pipeline/normalize.js';
import { compiled } from './_compiled.js';
import { warmupEnd } from './_measure.js';
import { build } from './claude.js';

const FORMATS = ['parts', 'ai-sdk', 'ai-sdk-stream', 'ag-ui', 'otel'] as const;
type Format = (typeof FORMATS)[number];
interface Result { format: Format; bytes: number; seconds: number; cpuSeconds: number; records: number; outBytes: number; parts: number; maxRssMb: number }

async function encoderOf(format: Format): Promise<StreamEncoderFactory | undefined> {
  if (format === 'ai-sdk') return (await compiled<typeof import('../src/ai-sdk/index.js')>('src/ai-sdk/index.js')).aiSdkPartEncoder();
  if (format === 'ai-sdk-stream') return (await compiled<typeof import('../src/ai-sdk/index.js')>('src/ai-sdk/index.js')).aiSdkStreamEncoder();
  if (format === 'ag-ui') return (await compiled<typeof import('../src/ag-ui/index.js')>('src/ag-ui/index.js')).agUiEncoder();
  if (format === 'otel') return (await compiled<typeof import('../src/otel/index.js')>('src/otel/index.js')).otlpEncoder();
  return undefined;
}

async function pass(format: Format, file: string, end?: number) {
  // The package's own entry: dist/ bundles its modules, so only the entry points are files there.
  const { readLines, adapterById, NormalizePipeline } = await compiled<typeof import('../src/index.js')>('src/index.js');
  const claudeAdapter = adapterById('claude')!;
  const encoder = await encoderOf(format);
  const out = { records: 0, outBytes: 0, parts: 0 };
  const p = new NormalizePipeline(claudeAdapter, { to: format as OutputFormat, clock: () => 0, ...(encoder ? { encoder } : {}) }, {
    output: (r) => { out.records++; out.outBytes += JSON.stringify(r).length + 1; },
    diagnostic: () => {},
  });
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024, ...(end !== undefined ? { end } : {}) });
  p.beginFile(file);
  for await (const l of readLines(stream)) p.line(l.text, { line: l.line, offset: l.offset });
  p.endFile(file);
  out.parts = p.end().parts;
  return out;
}

async function child(format: Format, file: string): Promise<void> {
  await pass(format, file, warmupEnd(file, 2 * 1024 * 1024));
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const r = await pass(format, file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const result: Result = { format, bytes: statSync(file).size, seconds, cpuSeconds: (used.user + used.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024, ...r };
  process.send!(result);
}

function runChild(format: Format, file: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--outputs-child', format, file], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.once('message', (m) => resolve(m as Result));
    proc.once('error', reject);
    proc.once('exit', (code) => { if (code) reject(new Error(`${format} child exited with ${code}`)); });
  });
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Math.max(1, Number(args[roundsArg + 1])) : 3;
  const file = join(fileURLToPath(new URL('.', import.meta.url)), '.data', `claude-${mb}mb.jsonl`);
  const built = await build(file, mb * 1024 * 1024, false);
  console.log(`input: ${(built / 1024 / 1024).toFixed(1)} MB of Claude Code sessions (as bench -- claude) → ${file.slice(file.indexOf('bench/'))}; ${rounds} round(s), formats alternating, each after a 2 MB warm-up pass`);
  const all: Record<Format, Result[]> = { parts: [], 'ai-sdk': [], 'ai-sdk-stream': [], 'ag-ui': [], otel: [] };
  const ratios: Record<Format, number[]> = { parts: [], 'ai-sdk': [], 'ai-sdk-stream': [], 'ag-ui': [], otel: [] };
  const cpuRatios: Record<Format, number[]> = { parts: [], 'ai-sdk': [], 'ai-sdk-stream': [], 'ag-ui': [], otel: [] };
  for (let r = 0; r < rounds; r++) {
    const round = {} as Record<Format, Result>;
    for (const f of FORMATS) round[f] = await runChild(f, file);
    for (const f of FORMATS) {
      all[f].push(round[f]);
      // Each format against the parts run of the same round: neighbours share the machine's load.
      ratios[f].push(round.parts.seconds / round[f].seconds);
      cpuRatios[f].push(round.parts.cpuSeconds / round[f].cpuSeconds);
    }
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const size = built / 1024 / 1024;
  const list = (xs: number[]) => `${mid(xs).toFixed(2)}× [${xs.map((x) => x.toFixed(2)).join(', ')}]`;
  console.log(`${'format'.padEnd(20)}${'MB/s wall'.padStart(10)}${'MB/s CPU'.padStart(10)}   ${'vs parts: wall (median [rounds])'.padEnd(34)}${'CPU time (median [rounds])'.padEnd(34)}${'output'.padStart(10)}${'records'.padStart(10)}${'peak RSS'.padStart(10)}`);
  for (const f of FORMATS) {
    const res = [...all[f]].sort((a, b) => a.seconds - b.seconds)[Math.floor(all[f].length / 2)]!;
    console.log(`${`--to ${f}`.padEnd(20)}${(size / res.seconds).toFixed(1).padStart(10)}${(size / res.cpuSeconds).toFixed(1).padStart(10)}   ${list(ratios[f]).padEnd(34)}${list(cpuRatios[f]).padEnd(34)}${`${(res.outBytes / 1024 / 1024).toFixed(1)} MB`.padStart(10)}${String(res.records).padStart(10)}${`${res.maxRssMb.toFixed(0)} MB`.padStart(10)}`);
  }
  console.log(`(${all.parts[0]!.parts} parts in every run; MB/s of input; ratios > 1 are faster than --to parts)`);
}

// Not '--child': importing bench/claude.ts loads _throughput.ts, which answers to that one.
if (process.argv[2] === '--outputs-child') await child(process.argv[3] as Format, process.argv[4]!);
