// `normalize DIR` (or many FILEs) in parallel: the inputs are cut into units, each unit is
// normalized as its own run (its own pipeline, store sink and summary) on a worker thread, and the
// main thread writes the units' stdout and stderr in input order and adds up their summaries.
//
// Why units rather than one pipeline: one pipeline over many files carries state from file to
// file (the grace window, parts still open printed at the very end, the adapters' call trackers),
// so its output cannot be cut at file boundaries and run in parallel. A unit is a recording plus
// the files that belong with it (`S.jsonl` with the folder `S/` beside it, where Claude Code
// keeps that session's subagents, and `S.*` files of the same stem), which is where that state is
// shared in practice. `--jobs 1` runs the same units one after the other in this thread, so every
// job count prints the same bytes, and the same diagnostics, summary and exit code.
//
// Store writes stay per session and exact: a unit appends only once every unit before it has
// finished its appends (its events wait in its sink meanwhile), so the store sees the appends in the
// same order as under `--jobs 1`, whatever finishes first.
import { createReadStream, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Summary } from '../pipeline/normalize.js';
import { READ_CHUNK_BYTES } from '../pipeline/lines.js';
import type { StoreSink } from '../store/sink.js';
import type { Input } from './inputs.js';
import type { CommandIO } from './commands/types.js';
import { UsageError } from './commands/types.js';
import { SIGNAL_EXIT_CODES, watchInterrupts } from './interrupts.js';
import { OutputError, outputFailure, safeWrite } from './output-errors.js';
import { progressBar } from './progress.js';

/** An input as it crosses to a worker (an Input's `open` cannot). */
export interface UnitFile {
  name: string;
  path: string;
  size: number;
  inDirectory: boolean;
}

/** What a unit run hands back. */
export interface UnitResult {
  index: number;
  code: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Absent when the unit ended on an error before its summary (a store or output failure). */
  summary?: Summary;
}

/**
 * How `normalize` runs one unit: the files it reads instead of its FILE arguments, where its
 * summary goes (instead of stderr), the store sink wrapper that waits for the unit's turn, and the
 * stop signal (a worker gets no process signals).
 */
export interface BulkUnit {
  inputs: Input[];
  summary?: Summary;
  store?(sink: StoreSink): StoreSink;
  signal?: AbortSignal;
}

/** `--jobs`: a positive integer, default the cores this process may use. */
export function jobsOption(text: string | undefined): number {
  if (text === undefined) return availableParallelism();
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1 || n > 1024) throw new UsageError(`--jobs must be a whole number from 1 to 1024, got "${text}"`);
  return n;
}

/**
 * A file name without its trailing extensions (letters and dots, as Claude's reader reads an agent
 * id from a name): `agent-x.jsonl` and `agent-x.meta.json` share `agent-x`, and
 * `s-2.1.3.filtered.jsonl` is `s-2.1.3`.
 */
function stemKey(name: string): string {
  return name.replace(/(?<=[^/\\.])\.[A-Za-z.]+$/, '');
}

/**
 * The inputs cut into units, in input order; undefined when there is nothing to run in parallel
 * (fewer than two units, or an input that is not a regular file: stdin, a pipe).
 */
export function bulkUnits(inputs: readonly Input[], cwd: string): UnitFile[][] | undefined {
  if (inputs.length < 2 || inputs.some((i) => i.name === '-' || i.live || i.size === undefined)) return undefined;
  const byKey = new Map<string, UnitFile[]>();
  const units: UnitFile[][] = [];
  for (const input of inputs) {
    const file: UnitFile = { name: input.name, path: resolve(cwd, input.name), size: input.size!, inDirectory: input.inDirectory === true };
    // The nearest folder named after a recording (`S/…` beside `S.jsonl`) puts the file in its unit.
    let unit: UnitFile[] | undefined;
    for (let d = dirname(input.name); !unit && d !== '.' && d !== dirname(d); d = dirname(d)) unit = byKey.get(d);
    const key = stemKey(input.name);
    unit ??= byKey.get(key);
    if (!unit) units.push((unit = []));
    if (!byKey.has(key)) byKey.set(key, unit);
    unit.push(file);
  }
  return units.length >= 2 ? units : undefined;
}

/** The unit's files as inputs the normalize loop reads. */
export function unitInputs(files: readonly UnitFile[]): Input[] {
  return files.map((f) => ({ name: f.name, size: f.size, ...(f.inDirectory ? { inDirectory: true } : {}), open: () => createReadStream(f.path, { highWaterMark: READ_CHUNK_BYTES }) }));
}

/** A writable that keeps what it is given. */
function collector(): { stream: Writable; bytes(): Uint8Array } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  // A fresh buffer, never a slice of Node's pool: a worker transfers it to the main thread.
  const bytes = () => {
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  };
  return { stream, bytes };
}

/** Holds a unit's store appends until `turn` resolves (every earlier unit has finished), then passes them on. */
class TurnSink implements StoreSink {
  private granted = false;
  constructor(private readonly inner: StoreSink, private readonly turn: Promise<void>) {
    void turn.then(() => { this.granted = true; });
  }
  add(e: Parameters<StoreSink['add']>[0]): void {
    this.inner.add(e);
  }
  due(): boolean {
    return this.granted && this.inner.due();
  }
  get pendingEvents(): number {
    return this.granted ? this.inner.pendingEvents : 0;
  }
  async flush(): Promise<void> {
    await this.turn;
    await this.inner.flush();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface UnitRequest {
  index: number;
  argv: string[];
  cwd: string;
  files: UnitFile[];
}

/** Runs one unit with `normalize` in this thread: what a worker does, and `--jobs 1` for each unit. */
export async function runUnit(req: UnitRequest, turn: Promise<void>, signal: AbortSignal | undefined, env: NodeJS.ProcessEnv): Promise<UnitResult> {
  const { normalizeCommand } = await import('./commands/normalize.js');
  const out = collector();
  const err = collector();
  // A signal of its own: the run's readers listen on it, and are gone with the unit.
  const stop = new AbortController();
  const abort = () => stop.abort();
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) stop.abort();
  const unit: BulkUnit = { inputs: unitInputs(req.files), store: (sink) => new TurnSink(sink, turn), signal: stop.signal };
  const io: CommandIO & { unit: BulkUnit } = { argv: req.argv, stdin: Readable.from([]), stdout: out.stream, stderr: err.stream, env, cwd: req.cwd, unit };
  let code: number;
  try {
    code = await normalizeCommand.run(io);
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  return { index: req.index, code, stdout: out.bytes(), stderr: err.bytes(), ...(unit.summary ? { summary: unit.summary } : {}) };
}

/** The summaries of the units as one: counts added, kinds and states in the order they first appear. */
export function addSummaries(summaries: readonly Summary[]): Summary {
  const total: Summary = { inputLines: 0, eventLines: 0, noToolDataLines: 0, diagnosticLines: 0, events: 0, parts: 0, byKind: {}, byState: {}, diagnostics: 0, malformedLines: 0, invalidEvents: 0 };
  for (const s of summaries) {
    for (const k of Object.keys(total) as (keyof Summary)[]) {
      const v = s[k];
      if (typeof v === 'number') (total[k] as number) += v;
      else {
        const into = total[k] as Record<string, number>;
        for (const [name, n] of Object.entries(v)) into[name] = (into[name] ?? 0) + n;
      }
    }
  }
  return total;
}

/**
 * The worker module: built, it is its own entry of dist/ (scripts/build.mjs), beside the CLI, and
 * this code may sit in the CLI or in a shared chunk; from the sources (tests, the bench's tsx), it
 * is loaded through tsx.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const api = import.meta.resolve('tsx/esm/api');
    const main = new URL('./bulk-worker.ts', here).href;
    return new Worker(`const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(main)});`, { eval: true });
  }
  const built = ['./bulk-worker.js', '../src/cli/bulk-worker.js'].map((p) => new URL(p, here)).find((u) => existsSync(u));
  if (!built) throw new Error(`the bulk worker module is missing beside ${here}`);
  return new Worker(built);
}

type FromWorker = { type: 'done'; result: UnitResult } | { type: 'failed'; index: number; message: string };

/** Writes `bytes` to `stream`, waiting while it is full. */
function writeAll(stream: Writable, bytes: Uint8Array): Promise<void> {
  if (!bytes.length) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const failed = (e: Error) => reject(e);
    stream.once('error', failed);
    stream.write(bytes, (e) => {
      stream.off('error', failed);
      if (e) reject(e);
      else resolve();
    });
  });
}

export interface BulkOptions {
  io: CommandIO;
  units: UnitFile[][];
  jobs: number;
  summary: boolean;
  strict: boolean;
  quiet: boolean;
}

/** Runs the units on `jobs` threads (this one for 1) and writes their output in order; the exit code of the whole. */
export async function runBulk(o: BulkOptions): Promise<number> {
  const { io, units } = o;
  // Each unit runs `normalize` with the same options and its own files (the FILE arguments are
  // replaced by BulkUnit.inputs) and `--jobs 1`, so a unit never fans out again.
  const argv = [...io.argv, '--jobs', '1'];
  const interrupts = watchInterrupts();
  const bar = o.quiet ? undefined : progressBar(io.stderr, units.flat().reduce((n, f) => n + f.size, 0));
  const results: (UnitResult | undefined)[] = new Array(units.length);
  let written = 0;
  let failure: string | undefined;
  let outputCode: number | undefined;
  // Output that cannot be written (a closed pipe, a full disk) stops the units still running.
  const halt = new AbortController();
  // Written strictly in unit order, each as soon as every unit before it is out.
  let writing = Promise.resolve();
  const emit = () => {
    writing = writing.then(async () => {
      while (outputCode === undefined && written < units.length && results[written]) {
        const r = results[written]!;
        try {
          await writeAll(io.stdout, r.stdout);
        } catch (e) {
          outputCode = outputFailure(new OutputError('stdout', e as Error), 'normalize', io.stderr) ?? 1;
          halt.abort();
          return;
        }
        if (r.stderr.length) io.stderr.write(r.stderr);
        bar?.add(units[written]!.reduce((n, f) => n + f.size, 0));
        written++;
      }
    });
  };
  try {
    if (o.jobs <= 1) {
      for (let i = 0; i < units.length && !interrupts.signal.aborted && outputCode === undefined; i++) {
        results[i] = await runUnit({ index: i, argv, cwd: io.cwd, files: units[i]! }, Promise.resolve(), interrupts.signal, io.env);
        emit();
        await writing;
      }
    } else {
      await runOnWorkers(o, argv, results, AbortSignal.any([interrupts.signal, halt.signal]), () => emit(), (m) => { failure ??= m; });
    }
    emit();
    await writing;
  } finally {
    interrupts.dispose();
  }
  bar?.done();
  if (outputCode !== undefined) return outputCode;
  const done = results.slice(0, written).filter((r): r is UnitResult => r !== undefined);
  const summary = addSummaries(done.flatMap((r) => (r.summary ? [r.summary] : [])));
  if (failure) safeWrite(io.stderr, `toolnorm normalize: ${failure}\n`);
  if (o.summary) io.stderr.write(`${JSON.stringify(summary)}\n`);
  if (interrupts.received) return SIGNAL_EXIT_CODES[interrupts.received];
  if (failure || done.some((r) => r.code !== 0)) return Math.max(1, ...done.map((r) => (r.code === 0 ? 0 : 1)));
  return 0;
}

/** Hands units to workers in order; unit k's store turn is given once units 0…k-1 are done. */
async function runOnWorkers(o: BulkOptions, argv: string[], results: (UnitResult | undefined)[], signal: AbortSignal, onDone: () => void, onFailure: (message: string) => void): Promise<void> {
  const { units } = o;
  const count = Math.min(o.jobs, units.length);
  const holder = new Map<number, Worker>();
  let next = 0;
  /** Units 0…turn-1 are done; unit `turn` may append. */
  let turn = 0;
  let stopping = false;
  const workers: Worker[] = [];
  const grant = () => {
    while (turn < units.length && results[turn]) turn++;
    holder.get(turn)?.postMessage({ type: 'turn', index: turn });
  };
  // A stop signal lets the running units end early and commit in turn; a failure also withdraws the
  // turns still to come, since the unit that failed will never finish to pass its turn on.
  const stopAll = (failed: boolean) => {
    stopping = true;
    for (const w of workers) w.postMessage({ type: 'stop', failed });
  };
  signal.addEventListener('abort', () => stopAll(false), { once: true });
  await new Promise<void>((resolveAll) => {
    let running = 0;
    const give = (w: Worker) => {
      if (stopping || next >= units.length) {
        void w.terminate();
        return;
      }
      const index = next++;
      holder.set(index, w);
      const req: UnitRequest = { index, argv, cwd: o.io.cwd, files: units[index]! };
      w.postMessage({ type: 'unit', req, turn: index === turn });
    };
    for (let i = 0; i < count; i++) {
      const w = startWorker();
      workers.push(w);
      running++;
      w.on('message', (m: FromWorker) => {
        const index = m.type === 'done' ? m.result.index : m.index;
        holder.delete(index);
        if (m.type === 'failed') {
          onFailure(`${units[index]![0]!.name}: ${m.message}`);
          stopAll(true);
        } else {
          results[index] = m.result;
          grant();
          onDone();
        }
        give(w);
      });
      w.on('error', (e) => {
        onFailure(`a worker failed: ${e.message}`);
        stopAll(true);
      });
      w.on('exit', () => {
        for (const [i, h] of holder) if (h === w) holder.delete(i);
        if (--running === 0) resolveAll();
      });
      give(w);
    }
  });
}
