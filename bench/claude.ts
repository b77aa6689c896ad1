// `npm run bench -- claude [--mb N] [--runs N] [--sessions same|distinct]`: throughput and memory of the Claude adapter on a large
// input. Builds ≥N MB (default 100) under bench/.data/ by concatenating every Claude corpus session
// with rewritten ids (tool-use ids, uuids and session ids differ per copy, so nothing is de-duplicated
// away), then measures, each in its own child process:
//   (a) baseline: read the same lines and JSON.parse each one;
//   (b) pipeline: the full `normalize --to parts` path (adapter → validation → reducer → parts),
//       output discarded.
// Prints MB/s for both, the ratio (target ≥ 0.5×) and the pipeline's peak RSS (target < 200 MB).
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { compiled } from './_compiled.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const CORPUS = join(HERE, '..', '..', 'shared', 'corpus', 'claude');

interface ChildResult { mode: string; bytes: number; lines: number; seconds: number; maxRssMb: number; parts?: number; events?: number; diagnostics?: number }

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID = /\b(srvtoolu_|toolu_)[A-Za-z0-9_]+/g;

/**
 * Copy `k` of a recording: tool-use ids and message uuids made unique. Session ids are kept
 * (`keep`), so each recording reads as one long session, unless `--sessions distinct`.
 */
function rewrite(line: string, k: number, f: number, keep: ReadonlySet<string>): string {
  // Copy and recording both go into the tag: the captured recordings reuse mock tool ids, and two
  // recordings may share a session id, so a copy-only tag would make two calls collide.
  const tag = (k * 64 + f).toString(16).padStart(6, '0');
  return line.replace(UUID, (u) => (keep.has(u) ? u : `${u.slice(0, 24)}${tag}${u.slice(30)}`)).replace(TOOL_ID, (id) => `${id}_c${k}f${f}`);
}

function sessionIdsOf(sessions: string[][]): Set<string> {
  const ids = new Set<string>();
  for (const lines of sessions) {
    for (const l of lines) {
      const o = JSON.parse(l) as Record<string, unknown>;
      for (const v of [o.session_id, o.sessionId]) if (typeof v === 'string') ids.add(v);
    }
  }
  return ids;
}

function corpusSessions(): string[][] {
  const out: string[][] = [];
  for (const sub of ['public', 'captured']) {
    const dir = join(CORPUS, sub);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
      out.push(readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l.trim()));
    }
  }
  return out;
}


async function build(file: string, targetBytes: number, distinctSessions: boolean): Promise<number> {
  if (existsSync(file) && statSync(file).size >= targetBytes) return statSync(file).size;
  const sessions = corpusSessions();
  if (sessions.length === 0) throw new Error(`no Claude corpus at ${CORPUS}; the benchmark needs ../shared/corpus/claude`);
  const keep = distinctSessions ? new Set<string>() : sessionIdsOf(sessions);
  mkdirSync(DATA, { recursive: true });
  const out = createWriteStream(file);
  let bytes = 0;
  for (let k = 0; bytes < targetBytes; k++) {
    for (const [f, lines] of sessions.entries()) {
      const chunk = `${lines.map((l) => rewrite(l, k, f, keep)).join('\n')}\n`;
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

function runChild(mode: 'baseline' | 'adapter' | 'pipeline', file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', mode, file], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as ChildResult));
    child.once('error', reject);
    child.once('exit', (code) => { if (code) reject(new Error(`${mode} child exited with ${code}`)); });
  });
}

async function child(mode: string, file: string): Promise<void> {
  // Modules load (and tsx transpiles them) before the clock starts.
  const { readLines } = await compiled<typeof import('../src/pipeline/lines.js')>('src/pipeline/lines.js');
  const { NormalizePipeline } = await compiled<typeof import('../src/pipeline/normalize.js')>('src/pipeline/normalize.js');
  const { claudeAdapter } = await compiled<typeof import('../src/adapters/claude/index.js')>('src/adapters/claude/index.js');
  const bytes = statSync(file).size;
  let lines = 0;
  const started = process.hrtime.bigint();
  const result: ChildResult = { mode, bytes, lines: 0, seconds: 0, maxRssMb: 0 };
  if (mode === 'baseline') {
    let keys = 0;
    for await (const l of readLines(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
      lines++;
      if (l.text) keys += Object.keys(JSON.parse(l.text) as object).length;
    }
    if (keys === 0) throw new Error('nothing parsed');
  } else if (mode === 'adapter') {
    // The adapter alone, events discarded: separates its cost from the shared pipeline's.
    let events = 0;
    const a = claudeAdapter.create({ event: () => { events++; }, diagnostic: () => {} }, { clock: () => 0 });
    a.beginFile?.(file);
    for await (const l of readLines(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
      lines++;
      a.line(l.text, { line: l.line, offset: l.offset });
    }
    a.endFile?.(file);
    a.end();
    result.events = events;
  } else {
    let parts = 0;
    let diagnostics = 0;
    const p = new NormalizePipeline(claudeAdapter, { to: 'parts', clock: () => 0 }, { output: () => { parts++; }, diagnostic: () => { diagnostics++; } });
    p.beginFile(file);
    for await (const l of readLines(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
      lines++;
      p.line(l.text, { line: l.line, offset: l.offset });
    }
    p.endFile(file);
    const summary = p.end();
    result.parts = parts;
    result.events = summary.events;
    result.diagnostics = diagnostics;
  }
  result.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  result.lines = lines;
  result.maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.send!(result);
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const sessionsArg = args.indexOf('--sessions');
  const distinct = sessionsArg >= 0 && args[sessionsArg + 1] === 'distinct';
  const file = join(DATA, `claude-${mb}mb${distinct ? '-distinct-sessions' : ''}.jsonl`);
  const built = await build(file, mb * 1024 * 1024, distinct);
  console.log(`input: ${(built / 1024 / 1024).toFixed(1)} MB of Claude Code sessions (corpus copies with rewritten tool ids and uuids; ${distinct ? 'a new session id per copy' : 'each recording one long session'}) → ${file.slice(file.indexOf('bench/'))}`);
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1])) : 3;
  const mbps = (r: ChildResult) => r.bytes / 1024 / 1024 / r.seconds;
  // Alternate the two measurements and keep the best of each: the machines here are shared and
  // noisy, and the best run is the one least disturbed by others.
  const bases: ChildResult[] = [];
  const adapters: ChildResult[] = [];
  const pipes: ChildResult[] = [];
  for (let i = 0; i < runs; i++) {
    bases.push(await runChild('baseline', file));
    adapters.push(await runChild('adapter', file));
    pipes.push(await runChild('pipeline', file));
  }
  const best = (rs: ChildResult[]) => rs.reduce((a, b) => (mbps(b) > mbps(a) ? b : a));
  const base = best(bases);
  const pipe = { ...best(pipes), maxRssMb: Math.max(...pipes.map((r) => r.maxRssMb)) };
  console.log(`runs: ${runs} of each, best kept (pipeline MB/s per run: ${pipes.map((r) => mbps(r).toFixed(1)).join(', ')}; JSON.parse: ${bases.map((r) => mbps(r).toFixed(1)).join(', ')})`);
  console.log(`lines: ${base.lines}`);
  console.log(`(a) JSON.parse loop:        ${mbps(base).toFixed(1)} MB/s  (${base.seconds.toFixed(2)} s, peak RSS ${base.maxRssMb.toFixed(0)} MB)`);
  console.log(`(b) claude → parts pipeline: ${mbps(pipe).toFixed(1)} MB/s  (${pipe.seconds.toFixed(2)} s, ${pipe.events} events, ${pipe.parts} parts, ${pipe.diagnostics} diagnostics)`);
  const adapter = best(adapters);
  console.log(`    of which the adapter alone: ${mbps(adapter).toFixed(1)} MB/s  (${adapter.seconds.toFixed(2)} s with events discarded; the rest is validation, reducer and projection)`);
  console.log(`ratio pipeline / JSON.parse: ${(mbps(pipe) / mbps(base)).toFixed(2)}×  (target ≥ 0.50×)`);
  console.log(`pipeline peak RSS:          ${pipe.maxRssMb.toFixed(0)} MB, highest of the runs  (target < 200 MB)`);
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
