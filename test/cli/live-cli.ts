// The real CLI in a child process (tsx) with stdin a real pipe, for the live suites: lines are
// written one at a time, and what comes out is watched line by line, in order.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ADAPTERS } from '../../src/adapters/registry.js';
import { isEncodedFormat, loadEncoder } from '../../src/cli/encoders.js';
import { NormalizePipeline, type OutputFormat } from '../../src/outputs/pipeline.js';
import { REPO_ROOT } from '../helpers/corpus.js';

/** Generous: the machine is shared; an order assertion waits this long before it fails. */
export const WAIT_MS = 20_000;

export class LiveCli {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly out: string[] = [];
  readonly err: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: { done: () => boolean; resolve: () => void }[] = [];

  constructor(args: string[]) {
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO_ROOT, stdio: 'pipe' });
    const wake = () => { this.waiters = this.waiters.filter((w) => (w.done() ? (w.resolve(), false) : true)); };
    createInterface({ input: this.proc.stdout }).on('line', (l) => { this.out.push(l); wake(); });
    createInterface({ input: this.proc.stderr }).on('line', (l) => { this.err.push(l); wake(); });
    this.exited = new Promise((resolve) => this.proc.on('close', (code, signal) => { wake(); resolve({ code, signal }); }));
  }

  /** Resolves true once `done()` holds, false if it still does not after `ms` (or the process ended). */
  until(done: () => boolean, ms = WAIT_MS): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.waiters = this.waiters.filter((w) => w !== waiter); resolve(done()); }, ms);
      const waiter = { done, resolve: () => { clearTimeout(t); resolve(true); } };
      this.waiters.push(waiter);
      void this.exited.then(() => { clearTimeout(t); resolve(done()); });
    });
  }

  write(line: string): void {
    this.proc.stdin.write(`${line}\n`);
  }

  end(): void {
    this.proc.stdin.end();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const DEMO = `${REPO_ROOT}/fixtures/claude/streamjson-all-tools/streamjson-all-tools.jsonl`;
const DEMO_SESSION = '236a8a83-1c69-47e3-af2a-419b8d41680e';

/**
 * Two Claude stream-json sessions one after the other (the recorded one, then the same with another
 * session id and tool ids): more than the 64-event grace window, so `--to parts` prints parts mid-stream too.
 */
export function twoSessions(): string[] {
  const one = readFileSync(DEMO, 'utf8').split('\n').filter((l) => l.trim());
  return [...one, ...one.map((l) => l.replaceAll(DEMO_SESSION, '236a8a83-1c69-47e3-af2a-419b8d41aaaa').replaceAll('toolu_', 'toolx_'))];
}

/**
 * Records the pipeline has produced after each line (and at the end), for `--to to`. With `live`,
 * as on a pipe that pauses after every line (the pipeline's `showHeld` after each): what a live run
 * must have written by then. Without, as a regular file gives them.
 */
export async function recordsAfterEachLine(lines: readonly string[], to: OutputFormat, options: { live?: boolean } = {}): Promise<{ afterLine: number[]; total: number; records: unknown[] }> {
  let n = 0;
  const records: unknown[] = [];
  const encoder = isEncodedFormat(to) ? await loadEncoder(to, {}) : undefined;
  const claude = ADAPTERS.find((a) => a.id === 'claude')!;
  const pipeline = new NormalizePipeline(claude, { to, ...(encoder ? { encoder } : {}) }, { output: (r) => { n++; records.push(r); }, diagnostic: () => {} });
  pipeline.beginFile('-');
  let offset = 0;
  const afterLine = lines.map((text, i) => {
    pipeline.line(text, { line: i + 1, offset });
    offset += Buffer.byteLength(text) + 1;
    if (options.live) pipeline.showHeld();
    return n;
  });
  pipeline.endFile('-');
  pipeline.end();
  return { afterLine, total: n, records };
}
