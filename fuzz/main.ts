// `npm run fuzz -- <claude|codex|opencode|acp|all> [--lines N] [--seed S] [--batch B]`
// Mutates recorded lines with every family of fuzz/families.ts and runs the built CLI
// (`node dist/src/cli/main.js normalize --summary`, so build first: `npm run build`) on batches of
// them, alternating `--to parts` and `--to acp`. Each run must exit 0, print no stack trace, print
// only valid lines, and reconcile its summary (fuzz/check.ts). A failing batch is bisected down to
// the smallest failing case, then line, which is printed with the seed that rebuilds it. Inputs
// go to the system temp directory and are removed. Exit status 1 when anything failed.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { FAMILIES, TOOL_SIZES, caseFor, type Family } from './families.js';
import { FUZZ_PROVIDERS, corpusLines, type FuzzProvider } from './corpus.js';
import { RunChecker, type FuzzOutput } from './check.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

interface RunResult { problems: string[]; rssKb: number; parts: number; diagnostics: number; codes: Map<string, number> }

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

async function writeLines(file: string, lines: Iterable<Buffer>): Promise<number> {
  const out = createWriteStream(file);
  let n = 0;
  for (const l of lines) {
    n++;
    out.write(l);
    if (!out.write('\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return n;
}

/** Runs the CLI on a file and checks its streams as they come. */
function runCli(provider: FuzzProvider, file: string, to: FuzzOutput, inputLines: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'FUZZ-RSS-KB %M', process.execPath, CLI, 'normalize', '--from', provider, '--to', to, '--summary', '--validate', 'all', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const check = new RunChecker(to);
    let rssKb = 0;
    let open = 2;
    let exit: number | null = null;
    const done = () => {
      if (--open > 0) return;
      const problems = check.finish(exit, inputLines);
      resolve({ problems, rssKb, parts: check.summary?.parts ?? 0, diagnostics: check.diagnosticLines, codes: check.codes });
    };
    createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (l) => check.stdoutLine(l)).on('close', done);
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (l) => {
      const m = /^FUZZ-RSS-KB (\d+)$/.exec(l);
      if (m) rssKb = Number(m[1]);
      else check.stderrLine(l);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      exit = code;
      done();
    });
  });
}

interface Case { seed: number; family: Family }

/** The smallest failing piece of a failing batch: bisect the cases, then try each line alone. */
async function minimize(provider: FuzzProvider, corpus: string[], cases: Case[], to: FuzzOutput, dir: string): Promise<{ lines: Buffer[]; problems: string[]; case?: Case }> {
  const linesOf = (cs: Case[]) => cs.flatMap((c) => caseFor(corpus, c.seed, TOOL_SIZES, c.family).lines);
  const fails = async (lines: Buffer[]) => {
    const file = join(dir, 'min.jsonl');
    const n = await writeLines(file, lines);
    return (await runCli(provider, file, to, n)).problems;
  };
  let current = cases;
  let problems = await fails(linesOf(current));
  while (current.length > 1 && problems.length) {
    const half = current.slice(0, Math.ceil(current.length / 2));
    const rest = current.slice(half.length);
    const p = await fails(linesOf(half));
    if (p.length) { current = half; problems = p; continue; }
    const q = await fails(linesOf(rest));
    if (q.length) { current = rest; problems = q; continue; }
    break; // fails only in combination: report the pair of halves
  }
  let lines = linesOf(current);
  if (current.length === 1) {
    for (const l of lines) {
      const p = await fails([l]);
      if (p.length) { lines = [l]; problems = p; break; }
    }
  }
  return { lines, problems, ...(current.length === 1 ? { case: current[0] } : {}) };
}

async function fuzzProvider(provider: FuzzProvider, total: number, seed0: number, batchLines: number): Promise<boolean> {
  const corpus = corpusLines(provider, ROOT);
  if (!corpus.length) throw new Error(`no recorded ${provider} lines under fixtures/ or ../shared/corpus`);
  const dir = mkdtempSync(join(tmpdir(), `toolnorm-fuzz-${provider}-`));
  const t0 = Date.now();
  let lines = 0;
  let cases = 0;
  let batches = 0;
  let failures = 0;
  let parts = 0;
  let diagnostics = 0;
  let peakKb = 0;
  const byFamily = new Map<Family, number>(FAMILIES.map((f) => [f, 0]));
  const codes = new Map<string, number>();
  const tally = { crashes: 0, stackTraces: 0, invalidLines: 0, unreconciled: 0, bugDiagnostics: 0 };
  try {
    let seed = seed0;
    while (lines < total) {
      const batch: Case[] = [];
      const file = join(dir, 'batch.jsonl');
      const gen = function* () {
        let n = 0;
        while (n < batchLines && lines + n < total) {
          const c = caseFor(corpus, seed, TOOL_SIZES);
          batch.push({ seed, family: c.family });
          byFamily.set(c.family, byFamily.get(c.family)! + 1);
          seed++;
          for (const l of c.lines) {
            n++;
            yield l;
          }
        }
      };
      const n = await writeLines(file, gen());
      const to: FuzzOutput = batches % 2 === 0 ? 'parts' : 'acp';
      const r = await runCli(provider, file, to, n);
      lines += n;
      cases += batch.length;
      batches++;
      parts += r.parts;
      diagnostics += r.diagnostics;
      peakKb = Math.max(peakKb, r.rssKb);
      for (const [k, v] of r.codes) codes.set(k, (codes.get(k) ?? 0) + v);
      if (r.problems.length) {
        failures++;
        for (const p of r.problems) {
          if (p.startsWith('crash')) tally.crashes++;
          else if (p.startsWith('stack trace')) tally.stackTraces++;
          else if (p.startsWith('invalid output') || p.startsWith('invalid diagnostic') || p.startsWith('unexpected stderr')) tally.invalidLines++;
          else if (p.startsWith('summary') || p.startsWith('no summary')) tally.unreconciled++;
          else tally.bugDiagnostics++;
        }
        console.log(`${provider}: batch ${batches} (--to ${to}, ${n} lines) failed:\n  ${r.problems.slice(0, 5).join('\n  ')}`);
        const min = await minimize(provider, corpus, batch, to, dir);
        console.log(`  minimal failing input (${min.lines.length} line${min.lines.length === 1 ? '' : 's'}${min.case ? `, family ${min.case.family}, seed ${min.case.seed}` : ''}):`);
        for (const l of min.lines) console.log(`    ${JSON.stringify(l.toString('latin1').slice(0, 2000))}`);
        console.log(`  its problems: ${min.problems.slice(0, 3).join(' | ')}`);
      }
      process.stderr.write(`\r${provider}: ${lines.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} lines`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write('\n');
  const seconds = (Date.now() - t0) / 1000;
  const top = [...codes].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`${provider}: ${lines.toLocaleString('en-US')} lines in ${cases.toLocaleString('en-US')} cases, ${batches} CLI runs; ${failures} failing runs: ${tally.crashes} crashes, ${tally.stackTraces} stack traces, ${tally.invalidLines} invalid lines, ${tally.unreconciled} unreconciled summaries, ${tally.bugDiagnostics} bug diagnostics; ${parts.toLocaleString('en-US')} parts, ${diagnostics.toLocaleString('en-US')} diagnostics (${top}); wall ${seconds.toFixed(1)} s; peak RSS ${(peakKb / 1024).toFixed(1)} MB`);
  console.log(`${provider}: cases per family: ${[...byFamily].map(([f, c]) => `${f} ${c}`).join(', ')}`);
  return failures === 0;
}

const args = process.argv.slice(2);
const which = args[0];
if (!which || (which !== 'all' && !FUZZ_PROVIDERS.includes(which as FuzzProvider))) {
  console.error(`usage: npm run fuzz -- <${FUZZ_PROVIDERS.join('|')}|all> [--lines N] [--seed S] [--batch B]  (build first: npm run build)`);
  process.exit(2);
}
const total = arg(args, '--lines', 20_000);
const seed = arg(args, '--seed', 1);
const batch = arg(args, '--batch', 50_000);
let ok = true;
for (const p of which === 'all' ? FUZZ_PROVIDERS : [which as FuzzProvider]) ok = (await fuzzProvider(p, total, seed, batch)) && ok;
process.exit(ok ? 0 : 1);
