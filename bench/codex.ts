// `npm run bench -- codex [--mb N] [--rounds N] [--sessions same|distinct] [--breakdown]`: throughput and memory of
// the Codex adapter on a large rollout. Builds ≥N MB (default 100) under bench/.data/ by repeating
// the public 0.40 rollout (corpus/codex/public/rollout040-shell-plan-aborted.jsonl, 123 calls,
// 1.1 MB) with rewritten call ids, so nothing pairs across copies. By default the copies keep the
// session id and read as one long session; `--sessions distinct` gives each copy its own. Then measures,
// each in its own child process so one cannot pollute the other's memory:
//   (a) baseline: read the same lines and JSON.parse each one;
//   (b) pipeline: the full `normalize --from codex --to parts` path (adapter → event validation →
//       reducer → parts), output discarded.
// Prints MB/s for both (CPU time and wall), the ratio (target ≥ 0.5×) and the pipeline's peak RSS
// (target < 200 MB).
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { warmupEnd } from './_measure.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { compiled } from './_compiled.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const SOURCE = join(HERE, '..', '..', 'shared', 'corpus', 'codex', 'public', 'rollout040-shell-plan-aborted.jsonl');

interface ChildResult { mode: string; bytes: number; lines: number; seconds: number; cpuSeconds: number; maxRssMb: number; parts?: number; events?: number; diagnostics?: number; sessions?: number }

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const CALL_ID = /\bcall_(?!id")[A-Za-z0-9]+/g; // the ids, not the `call_id` key

/** Copy `k` of the rollout: new call ids, and with `distinct` a new session id (and any other uuid). */
function rewrite(line: string, k: number, distinct: boolean): string {
  const tag = k.toString(16).padStart(6, '0');
  const ids = line.replace(CALL_ID, (id) => `${id}_c${k}`);
  return distinct ? ids.replace(UUID, (u) => `${u.slice(0, 30)}${tag}`) : ids;
}

async function build(file: string, targetBytes: number, distinct: boolean): Promise<{ bytes: number; copies: number; calls: number }> {
  if (!existsSync(SOURCE)) throw new Error(`no Codex rollout at ${SOURCE}; the benchmark needs ../shared/corpus/codex`);
  const lines = readFileSync(SOURCE, 'utf8').split('\n').filter((l) => l.trim());
  const calls = lines.filter((l) => l.includes('"type":"function_call"')).length;
  const size = statSync(SOURCE).size;
  const copies = Math.ceil(targetBytes / size);
  if (existsSync(file) && statSync(file).size >= targetBytes) return { bytes: statSync(file).size, copies, calls: calls * copies };
  mkdirSync(DATA, { recursive: true });
  const out = createWriteStream(file);
  let bytes = 0;
  for (let k = 0; k < copies; k++) {
    const chunk = `${lines.map((l) => rewrite(l, k, distinct)).join('\n')}\n`;
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { bytes, copies, calls: calls * copies };
}

function runChild(mode: 'baseline' | 'pipeline' | 'adapter', file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', mode, file], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as ChildResult));
    child.once('error', reject);
    child.once('exit', (code) => { if (code) reject(new Error(`${mode} child exited with ${code}`)); });
  });
}

interface Pass { lines: number; parts?: number; events?: number; diagnostics?: number; sessions?: number }

async function pass(mode: string, file: string, end?: number): Promise<Pass> {
  const { readLines } = await compiled<typeof import('../src/pipeline/lines.js')>('src/pipeline/lines.js');
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024, ...(end !== undefined ? { end } : {}) });
  let lines = 0;
  if (mode === 'baseline') {
    let keys = 0;
    for await (const l of readLines(stream)) {
      lines++;
      if (l.text) keys += Object.keys(JSON.parse(l.text) as object).length;
    }
    if (keys === 0) throw new Error('nothing parsed');
    return { lines };
  }
  const { NormalizePipeline } = await compiled<typeof import('../src/pipeline/normalize.js')>('src/pipeline/normalize.js');
  const { codexAdapter } = await compiled<typeof import('../src/adapters/codex/index.js')>('src/adapters/codex/index.js');
  if (mode === 'adapter') {
    // The adapter alone: events counted and dropped (no validation, reducer or parts).
    let events = 0;
    const a = codexAdapter.create({ event: () => { events++; }, diagnostic: () => {} }, { clock: () => 0 });
    for await (const l of readLines(stream)) {
      lines++;
      a.line(l.text, { line: l.line, offset: l.offset });
    }
    a.end();
    return { lines, events };
  }
  let parts = 0;
  let diagnostics = 0;
  const sessions = new Set<string>();
  const p = new NormalizePipeline(codexAdapter, { to: 'parts', clock: () => 0 }, {
    output: () => { parts++; },
    diagnostic: () => { diagnostics++; },
    event: (e) => { if (e.type === 'tool.started') sessions.add(e.sessionId); },
  });
  p.beginFile(file);
  for await (const l of readLines(stream)) {
    lines++;
    p.line(l.text, { line: l.line, offset: l.offset });
  }
  p.endFile(file);
  const summary = p.end();
  return { lines, parts, events: summary.events, diagnostics, sessions: sessions.size };
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
  process.send!({ mode, bytes: statSync(file).size, seconds, cpuSeconds: (used.user + used.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024, ...r } satisfies ChildResult);
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Math.max(1, Number(args[roundsArg + 1])) : 5;
  const sessionsArg = args.indexOf('--sessions');
  const distinct = sessionsArg >= 0 && args[sessionsArg + 1] === 'distinct';
  const file = join(DATA, `codex-rollout-${mb}mb${distinct ? '-distinct-sessions' : ''}.jsonl`);
  const built = await build(file, mb * 1024 * 1024, distinct);
  console.log(`input: ${(built.bytes / 1024 / 1024).toFixed(1)} MB = ${built.copies} copies of the 0.40 rollout with rewritten call ids (${built.calls} calls; ${distinct ? 'a new session id per copy' : 'one long session'}) → ${file.slice(file.indexOf('bench/'))}`);
  // The machine is shared and noisy: rounds alternate baseline and pipeline, and each round gives
  // the ratio of two neighbouring runs. The ratio is taken on CPU time (user + system, all threads
  // of the child, GC included), which other load on the machine barely moves; wall-clock figures
  // are printed beside it. The median round is reported.
  const breakdown = args.includes('--breakdown');
  const results: { base: ChildResult; pipe: ChildResult; ratio: number; wallRatio: number; adapter?: ChildResult }[] = [];
  for (let r = 0; r < rounds; r++) {
    const base = await runChild('baseline', file);
    const pipe = await runChild('pipeline', file);
    const adapter = breakdown ? await runChild('adapter', file) : undefined;
    results.push({ base, pipe, ratio: base.cpuSeconds / pipe.cpuSeconds, wallRatio: base.seconds / pipe.seconds, ...(adapter ? { adapter } : {}) });
  }
  const size = (x: ChildResult) => x.bytes / 1024 / 1024;
  const { base, pipe, ratio, wallRatio, adapter } = [...results].sort((a, b) => a.ratio - b.ratio)[Math.floor(results.length / 2)]!;
  const peak = Math.max(...results.map((x) => x.pipe.maxRssMb));
  const line = (x: ChildResult) => `${(size(x) / x.cpuSeconds).toFixed(1)} MB/s of CPU time, ${(size(x) / x.seconds).toFixed(1)} MB/s wall  (${x.cpuSeconds.toFixed(2)} s CPU, ${x.seconds.toFixed(2)} s wall`;
  console.log(`lines: ${base.lines}; ${rounds} rounds, the median round shown`);
  console.log(`(a) JSON.parse loop:        ${line(base)}, peak RSS ${base.maxRssMb.toFixed(0)} MB)`);
  console.log(`(b) codex → parts pipeline: ${line(pipe)}; ${pipe.events} events, ${pipe.parts} parts in ${pipe.sessions} session(s), ${pipe.diagnostics} diagnostics)`);
  if (adapter) console.log(`    codex adapter alone:     ${line(adapter)}; ${adapter.events} events, no validation/reducer/parts) = ${(base.cpuSeconds / adapter.cpuSeconds).toFixed(2)}× JSON.parse by CPU`);
  console.log(`ratio pipeline / JSON.parse: ${ratio.toFixed(2)}× by CPU time, ${wallRatio.toFixed(2)}× wall  (target ≥ 0.50×; rounds by CPU: ${results.map((x) => x.ratio.toFixed(2)).join(', ')})`);
  console.log(`pipeline peak RSS:          ${peak.toFixed(0)} MB, highest of ${rounds} runs  (target < 200 MB)`);
  if (pipe.parts !== built.calls) console.log(`WARNING: ${pipe.parts} parts for ${built.calls} calls`);
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
