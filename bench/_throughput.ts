// The measurement shared by the adapter throughput benches (claude, codex, opencode): one method,
// so their figures compare. Each measurement runs in its own child process (one cannot pollute
// another's heap or JIT state) over the same input file:
//   baseline  read the lines with toolnorm's own reader (readLines, what the pipeline reads with) and
//             JSON.parse each one (for SSE, each `data:` payload): the strict baseline;
//   readline  the same with node:readline (`createInterface`, `for await`), the bare loop a consumer
//             writes, and how the Claude Agent SDK reads the CLI's stdout: the issue's baseline;
//   pipeline  the full `normalize --to parts` path (adapter → event validation → reducer → parts),
//             output discarded;
//   adapter   (--breakdown) the adapter alone, events counted and dropped.
// Every child first makes a warm-up pass over the input's first 2 MB, so modules are loaded before
// the clock starts. The machine is shared and noisy, so rounds alternate the modes and each round
// gives the ratio of neighbouring runs; the median of the rounds is reported, every round listed.
// Two ratios are printed, each with its verdict against the target (≥ 0.5× the JSON.parse
// throughput):
//   throughput  MB/s by the wall clock, the quantity the targets name: how fast a file goes through;
//   CPU time    user + system of every thread of the child (JIT compile and GC threads included),
//               which other load barely moves. It is the stricter figure: on a multi-core machine the
//               JIT compiles on a background thread beside the main one, which costs CPU time but
//               not wall time.
// A one-shot run of this size still spends much of its time before the JIT has compiled the hot
// code (V8 compiles it in the background, a few hundred ms of CPU for the pipeline), so each child
// then makes a second full pass in the same process: the warm figure, what a long input or a
// long-running process sees. The cold pass is what one `toolnorm normalize` of the file costs.
import { fork } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AdapterDefinition } from '../src/adapters/types.js';
import { compiled } from './_compiled.js';
import { warmupEnd } from './_measure.js';

/** The adapter issues' targets: at least half the JSON.parse throughput, under 200 MB peak RSS. */
const TARGET_RATIO = 0.5;
const TARGET_RSS_MB = 200;

type Mode = 'baseline' | 'readline' | 'pipeline' | 'adapter';
type AdapterId = 'claude' | 'codex' | 'opencode';
/** What the baseline parses: every line, or the payload of SSE `data:` lines. */
type Framing = 'jsonl' | 'sse';

export interface ChildResult {
  mode: Mode;
  bytes: number;
  lines: number;
  payloads: number;
  seconds: number;
  cpuSeconds: number;
  /** The second full pass, JIT warm. */
  warmSeconds: number;
  warmCpuSeconds: number;
  maxRssMb: number;
  parts: number;
  events: number;
  diagnostics: number;
  sessions: number;
}

export interface Round { base: ChildResult; readline: ChildResult; pipe: ChildResult; adapter?: ChildResult; ratio: number; wallRatio: number; warmRatio: number; warmWallRatio: number }

async function pass(adapterId: AdapterId, framing: Framing, mode: Mode, file: string, end?: number): Promise<Omit<ChildResult, 'mode' | 'bytes' | 'seconds' | 'cpuSeconds' | 'warmSeconds' | 'warmCpuSeconds' | 'maxRssMb'>> {
  // The built core is one bundle: its entry exports what the bench drives.
  const { readLines } = await compiled<typeof import('../src/index.js')>('src/index.js');
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024, ...(end !== undefined ? { end } : {}) });
  const out = { lines: 0, payloads: 0, parts: 0, events: 0, diagnostics: 0, sessions: 0 };
  if (mode === 'baseline' || mode === 'readline') {
    let keys = 0;
    const parse = (text: string) => {
      out.lines++;
      const payload = framing === 'sse' ? (text.startsWith('data:') ? text.slice(5) : '') : text;
      if (!payload) return;
      out.payloads++;
      keys += Object.keys(JSON.parse(payload) as object).length;
    };
    if (mode === 'readline') for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) parse(text);
    else for await (const l of readLines(stream)) parse(l.text);
    if (keys === 0) throw new Error('nothing parsed');
    return out;
  }
  const core = await compiled<typeof import('../src/index.js')>('src/index.js');
  const adapter: AdapterDefinition | undefined = core.adapterById(adapterId);
  if (!adapter) throw new Error(`the built core has no ${adapterId} adapter`);
  if (mode === 'adapter') {
    const a = adapter.create({ event: () => { out.events++; }, diagnostic: () => { out.diagnostics++; } }, { clock: () => 0 });
    a.beginFile?.(file);
    for await (const l of readLines(stream)) {
      out.lines++;
      a.line(l.text, { line: l.line, offset: l.offset });
    }
    a.endFile?.(file);
    a.end();
    return out;
  }
  const { NormalizePipeline } = core;
  const sessions = new Set<string>();
  const p = new NormalizePipeline(adapter, { to: 'parts', clock: () => 0 }, {
    output: () => { out.parts++; },
    diagnostic: () => { out.diagnostics++; },
    event: (e) => { if (e.type === 'tool.started') sessions.add(e.sessionId); },
  });
  p.beginFile(file);
  for await (const l of readLines(stream)) {
    out.lines++;
    p.line(l.text, { line: l.line, offset: l.offset });
  }
  p.endFile(file);
  out.events = p.end().events;
  out.sessions = sessions.size;
  return out;
}

async function child(adapterId: AdapterId, framing: Framing, mode: Mode, file: string, coldOnly = false): Promise<void> {
  await pass(adapterId, framing, mode, file, warmupEnd(file, 2 * 1024 * 1024));
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const r = await pass(adapterId, framing, mode, file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const warmStarted = process.hrtime.bigint();
  const warmCpu = process.cpuUsage();
  if (!coldOnly) await pass(adapterId, framing, mode, file);
  const warmSeconds = Number(process.hrtime.bigint() - warmStarted) / 1e9;
  const warmUsed = process.cpuUsage(warmCpu);
  const result: ChildResult = {
    mode, bytes: statSync(file).size, seconds, cpuSeconds: (used.user + used.system) / 1e6, warmSeconds, warmCpuSeconds: (warmUsed.user + warmUsed.system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024, ...r,
  };
  process.send!(result);
}

function runChild(adapterId: AdapterId, framing: Framing, mode: Mode, file: string, coldOnly: boolean): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', adapterId, framing, mode, file, ...(coldOnly ? ['--cold'] : [])], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.once('message', (m) => resolve(m as ChildResult));
    proc.once('error', reject);
    proc.once('exit', (code) => { if (code) reject(new Error(`${mode} child exited with ${code}`)); });
  });
}

/** Runs the rounds and prints the report; returns the median round for bench-specific checks. */
export async function measureThroughput(o: { adapter: AdapterId; framing?: Framing; file: string; args: string[] }): Promise<Round> {
  const framing = o.framing ?? 'jsonl';
  const roundsArg = o.args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Math.max(1, Number(o.args[roundsArg + 1])) : 5;
  const breakdown = o.args.includes('--breakdown');
  // --cold: no second full pass (halves the time of a 1 GB run; the warm figures are then not printed).
  const coldOnly = o.args.includes('--cold');
  const results: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const base = await runChild(o.adapter, framing, 'baseline', o.file, coldOnly);
    const readline = await runChild(o.adapter, framing, 'readline', o.file, coldOnly);
    const pipe = await runChild(o.adapter, framing, 'pipeline', o.file, coldOnly);
    const adapter = breakdown ? await runChild(o.adapter, framing, 'adapter', o.file, coldOnly) : undefined;
    results.push({
      base, readline, pipe, ratio: base.cpuSeconds / pipe.cpuSeconds, wallRatio: base.seconds / pipe.seconds,
      warmRatio: base.warmCpuSeconds / pipe.warmCpuSeconds, warmWallRatio: base.warmSeconds / pipe.warmSeconds, ...(adapter ? { adapter } : {}),
    });
    // Each round as it ends: a long run that is cut short still leaves its rounds.
    console.log(`round ${r + 1}: JSON.parse ${base.seconds.toFixed(2)} s wall (${base.cpuSeconds.toFixed(2)} s CPU), readline + JSON.parse ${readline.seconds.toFixed(2)} s wall (${readline.cpuSeconds.toFixed(2)} s CPU), pipeline ${pipe.seconds.toFixed(2)} s wall (${pipe.cpuSeconds.toFixed(2)} s CPU): cold ${(base.seconds / pipe.seconds).toFixed(2)}× wall, ${(base.cpuSeconds / pipe.cpuSeconds).toFixed(2)}× CPU`);
  }
  const median = [...results].sort((a, b) => a.ratio - b.ratio)[Math.floor(results.length / 2)]!;
  const { base, pipe, adapter } = median;
  const peak = Math.max(...results.map((x) => x.pipe.maxRssMb));
  const size = (x: ChildResult) => x.bytes / 1024 / 1024;
  const line = (x: ChildResult) => `${(size(x) / x.cpuSeconds).toFixed(1)} MB/s of CPU time, ${(size(x) / x.seconds).toFixed(1)} MB/s wall  (${x.cpuSeconds.toFixed(2)} s CPU, ${x.seconds.toFixed(2)} s wall`;
  const label = `${o.adapter} → parts pipeline:`.padEnd(28);
  console.log(`lines: ${base.lines}${framing === 'sse' ? ` (${base.payloads} data payloads)` : ''}; ${rounds} rounds; each run after a 2 MB warm-up pass. Cold pass of the round with the median CPU ratio:`);
  console.log(`(a) JSON.parse loop:          ${line(base)}, peak RSS ${base.maxRssMb.toFixed(0)} MB)`);
  console.log(`    node:readline + JSON.parse: ${line(median.readline)}, peak RSS ${median.readline.maxRssMb.toFixed(0)} MB)`);
  console.log(`(b) ${label}${line(pipe)}; ${pipe.events} events, ${pipe.parts} parts in ${pipe.sessions} session(s), ${pipe.diagnostics} diagnostics)`);
  if (adapter) console.log(`    ${o.adapter} adapter alone:`.padEnd(32) + `${line(adapter)}; ${adapter.events} events, no validation/reducer/parts) = ${(base.cpuSeconds / adapter.cpuSeconds).toFixed(2)}× JSON.parse by CPU`);
  // Each ratio is the median of its own rounds: the round with the median CPU ratio need not have
  // the median wall ratio.
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const verdict = (x: number) => `${x.toFixed(2)}× (${x >= TARGET_RATIO ? 'meets' : 'below'})`;
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const coldWall = results.map((x) => x.wallRatio);
  const warmWall = results.map((x) => x.warmWallRatio);
  const coldCpu = results.map((x) => x.ratio);
  const warmCpu = results.map((x) => x.warmRatio);
  const warm = [...results].sort((a, b) => a.warmRatio - b.warmRatio)[Math.floor(results.length / 2)]!;
  if (coldOnly) console.log('warm pass: skipped (--cold)');
  else console.log(`warm pass (a second full pass in the same process, JIT compiled): JSON.parse ${(size(warm.base) / warm.base.warmSeconds).toFixed(1)} MB/s wall, ${(size(warm.base) / warm.base.warmCpuSeconds).toFixed(1)} MB/s of CPU time; pipeline ${(size(warm.pipe) / warm.pipe.warmSeconds).toFixed(1)} MB/s wall, ${(size(warm.pipe) / warm.pipe.warmCpuSeconds).toFixed(1)} MB/s of CPU time`);
  console.log(`ratio pipeline / (readLines + JSON.parse), median of ${rounds} round(s) (target ≥ ${TARGET_RATIO.toFixed(2)}× the JSON.parse throughput):`);
  const warmOf = (xs: number[]) => (coldOnly ? '' : `, warm ${verdict(mid(xs))}`);
  const warmRounds = (xs: number[]) => (coldOnly ? '' : `; warm: ${list(xs)}`);
  console.log(`  throughput (MB/s, wall clock): cold ${verdict(mid(coldWall))}${warmOf(warmWall)}   rounds cold: ${list(coldWall)}${warmRounds(warmWall)}`);
  console.log(`  CPU time (all threads):        cold ${verdict(mid(coldCpu))}${warmOf(warmCpu)}   rounds cold: ${list(coldCpu)}${warmRounds(warmCpu)}`);
  const rl = (f: (x: Round) => number) => results.map(f);
  const coldRl = rl((x) => x.readline.cpuSeconds / x.pipe.cpuSeconds);
  const coldRlWall = rl((x) => x.readline.seconds / x.pipe.seconds);
  const warmRl = rl((x) => x.readline.warmCpuSeconds / x.pipe.warmCpuSeconds);
  const warmRlWall = rl((x) => x.readline.warmSeconds / x.pipe.warmSeconds);
  console.log(`ratio pipeline / (node:readline + JSON.parse), median of ${rounds} round(s), same target:`);
  console.log(`  throughput (MB/s, wall clock): cold ${verdict(mid(coldRlWall))}${warmOf(warmRlWall)}   rounds cold: ${list(coldRlWall)}${warmRounds(warmRlWall)}`);
  console.log(`  CPU time (all threads):        cold ${verdict(mid(coldRl))}${warmOf(warmRl)}   rounds cold: ${list(coldRl)}${warmRounds(warmRl)}`);
  console.log(`pipeline peak RSS:             ${peak.toFixed(0)} MB, highest of ${rounds} runs, both passes (target < ${TARGET_RSS_MB} MB: ${peak < TARGET_RSS_MB ? 'meets' : 'above'})`);
  return median;
}

if (process.argv[2] === '--child') await child(process.argv[3] as AdapterId, process.argv[4] as Framing, process.argv[5] as Mode, process.argv[6]!, process.argv[7] === '--cold');
