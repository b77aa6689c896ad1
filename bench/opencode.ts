// `npm run bench -- opencode [--mb N] [--global] [--rounds R]`: throughput and memory of the OpenCode adapter on
// a large SSE input. Builds ≥N MB (default 100) under bench/.data/ by concatenating the captured
// `GET /event` streams (or, with --global, the `GET /global/event` stream with its sync duplicates)
// with rewritten ids (part, message, session, event and permission ids differ per copy, so nothing
// is de-duplicated away and every copy's subagent links resolve), then measures, each in its own
// child process:
//   (a) baseline: read the same lines and JSON.parse each SSE data payload;
//   (b) pipeline: the full `normalize --to parts` path (SSE framing → adapter → validation →
//       reducer → parts), output discarded.
// Prints MB/s for both, the ratio (target ≥ 0.5×) and the pipeline's peak RSS (target < 200 MB).
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { warmupEnd } from './_measure.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { compiled } from './_compiled.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const CAPTURED = join(HERE, '..', '..', 'shared', 'corpus', 'opencode', 'captured');

interface ChildResult { mode: string; bytes: number; lines: number; seconds: number; cpuSeconds: number; maxRssMb: number; parts?: number; events?: number; diagnostics?: number; payloads?: number }

/** OpenCode ids: prefix + 12 hex (time and counter) + 14 random base62. */
const OPENCODE_ID = /\b(prt|msg|ses|evt|per)_([0-9a-f]{12})([0-9A-Za-z]{14})\b/g;

/** The same stream, made distinct for copy `k` (the random tail carries the copy number). */
function rewrite(text: string, k: number): string {
  const tag = k.toString(36).padStart(5, '0');
  return text.replace(OPENCODE_ID, (_m, prefix: string, hex: string, rand: string) => `${prefix}_${hex}${tag}${rand.slice(5)}`);
}

function streams(global: boolean): string[] {
  const files = global ? ['run1/global-events.sse'] : ['run1/events.sse', 'run2/events.sse'];
  return files.map((f) => {
    const path = join(CAPTURED, f);
    if (!existsSync(path)) throw new Error(`no OpenCode capture at ${path}; the benchmark needs ../shared/corpus/opencode`);
    const text = readFileSync(path, 'utf8');
    return text.endsWith('\n') ? text : `${text}\n`;
  });
}

async function build(file: string, targetBytes: number, global: boolean): Promise<number> {
  if (existsSync(file) && statSync(file).size >= targetBytes) return statSync(file).size;
  const sources = streams(global);
  mkdirSync(DATA, { recursive: true });
  const out = createWriteStream(file);
  let bytes = 0;
  for (let k = 0; bytes < targetBytes; k++) {
    for (const text of sources) {
      const chunk = rewrite(text, k);
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

function runChild(mode: 'baseline' | 'pipeline', file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', mode, file], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as ChildResult));
    child.once('error', reject);
    child.once('exit', (code) => { if (code) reject(new Error(`${mode} child exited with ${code}`)); });
  });
}

interface Pass { lines: number; payloads: number; parts: number; events: number; diagnostics: number }

/** One run over `file` (or its first `end` bytes): the baseline loop or the whole pipeline. */
async function pass(mode: string, file: string, end?: number): Promise<Pass> {
  const { readLines } = await compiled<typeof import('../src/pipeline/lines.js')>('src/pipeline/lines.js');
  const { NormalizePipeline } = await compiled<typeof import('../src/pipeline/normalize.js')>('src/pipeline/normalize.js');
  const { opencodeAdapter } = await compiled<typeof import('../src/adapters/opencode/index.js')>('src/adapters/opencode/index.js');
  const out: Pass = { lines: 0, payloads: 0, parts: 0, events: 0, diagnostics: 0 };
  const input = createReadStream(file, { highWaterMark: 1024 * 1024, ...(end !== undefined ? { end } : {}) });
  if (mode === 'baseline') {
    let keys = 0;
    for await (const l of readLines(input)) {
      out.lines++;
      if (l.text.startsWith('data:')) {
        out.payloads++;
        keys += Object.keys(JSON.parse(l.text.slice(5)) as object).length;
      }
    }
    if (keys === 0) throw new Error('nothing parsed');
    return out;
  }
  const p = new NormalizePipeline(opencodeAdapter, { to: 'parts', clock: () => 0 }, { output: () => { out.parts++; }, diagnostic: () => { out.diagnostics++; } });
  p.beginFile(file);
  for await (const l of readLines(input)) {
    out.lines++;
    p.line(l.text, { line: l.line, offset: l.offset });
  }
  p.endFile(file);
  out.events = p.end().events;
  return out;
}

async function child(mode: string, file: string): Promise<void> {
  // Modules load and the JIT warms up on the first 2 MB (the same for both modes) before the
  // clock starts: the figure is the steady throughput of a large input.
  await pass(mode, file, warmupEnd(file, 2 * 1024 * 1024));
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const r = await pass(mode, file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const result: ChildResult = {
    mode, bytes: statSync(file).size, lines: r.lines, seconds, cpuSeconds: (used.user + used.system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024, payloads: r.payloads, parts: r.parts, events: r.events, diagnostics: r.diagnostics,
  };
  process.send!(result);
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const global = args.includes('--global');
  const file = join(DATA, `opencode-${global ? 'global' : 'event'}-${mb}mb.sse`);
  const built = await build(file, mb * 1024 * 1024, global);
  const what = global ? 'GET /global/event SSE (payload envelopes + sync duplicates)' : 'GET /event SSE';
  console.log(`input: ${(built / 1024 / 1024).toFixed(1)} MB of OpenCode ${what} (captured streams, ids rewritten per copy) → ${file.slice(file.indexOf('bench/'))}`);
  // The machine is shared and noisy: rounds alternate baseline and pipeline, and each round gives
  // the ratio of two neighbouring runs. The ratio is taken on CPU time (user + system, all threads
  // of the child, GC included), which other load on the machine barely moves; wall-clock figures
  // are printed beside it. The median round is reported.
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Math.max(1, Number(args[roundsArg + 1])) : 5;
  const results: { base: ChildResult; pipe: ChildResult; ratio: number; wallRatio: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    const base = await runChild('baseline', file);
    const pipe = await runChild('pipeline', file);
    results.push({ base, pipe, ratio: base.cpuSeconds / pipe.cpuSeconds, wallRatio: base.seconds / pipe.seconds });
  }
  const size = (x: ChildResult) => x.bytes / 1024 / 1024;
  const { base, pipe, ratio, wallRatio } = [...results].sort((a, b) => a.ratio - b.ratio)[Math.floor(results.length / 2)]!;
  const peak = Math.max(...results.map((x) => x.pipe.maxRssMb));
  const line = (x: ChildResult) => `${(size(x) / x.cpuSeconds).toFixed(1)} MB/s of CPU time, ${(size(x) / x.seconds).toFixed(1)} MB/s wall  (${x.cpuSeconds.toFixed(2)} s CPU, ${x.seconds.toFixed(2)} s wall`;
  console.log(`lines: ${base.lines} (${base.payloads} data payloads); ${rounds} rounds, the median round shown`);
  console.log(`(a) JSON.parse loop:           ${line(base)}, peak RSS ${base.maxRssMb.toFixed(0)} MB)`);
  console.log(`(b) opencode → parts pipeline: ${line(pipe)}; ${pipe.events} events, ${pipe.parts} parts, ${pipe.diagnostics} diagnostics)`);
  console.log(`ratio pipeline / JSON.parse:   ${ratio.toFixed(2)}× by CPU time, ${wallRatio.toFixed(2)}× wall  (target ≥ 0.50×; rounds by CPU: ${results.map((x) => x.ratio.toFixed(2)).join(', ')})`);
  console.log(`pipeline peak RSS:             ${peak.toFixed(0)} MB, highest of ${rounds} runs  (target < 200 MB)`);
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
