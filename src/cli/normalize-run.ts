// The loop behind `toolnorm normalize`, shared by any command that normalizes a stream as it comes
// (`toolnorm record` reads an agent's stdout through it): inputs → lines → the pipeline, with the
// records written to `out`, diagnostics to `err` and events to the store sink.
//
// Regular files are written in large buffered chunks. A live input (Input.live: a pipe, a socket,
// a terminal) gets its records out while it waits for its next line: whenever no line is ready, and
// at least every LIVE_FLUSH_MS while lines keep coming, the store's pending batch is committed and
// then the output is written. So a record on stdout is already in the store, and nothing waits for a
// buffer to fill. While it waits, the parts that `parts`, `ui` and `ai-sdk` print once final are
// printed too, without waiting out their grace window (see NormalizePipeline.showHeld).
//
// An interrupt (`signal`) ends the run after the line being handled: the caller then ends the
// pipeline (parts still open are printed with their last state), commits and prints the summary.
//
// `toolnorm record` runs its agent's stdout through `runStream` here, so it is this loop too; the
// one thing it changes is how a live stream's format is told (`liveSniff`: at the first clear line,
// see src/record/sniff.ts, instead of waiting for a sample).
import type { Readable, Writable } from 'node:stream';
import { ADAPTERS, ADAPTER_IDS, detectAdapter } from '../adapters/registry.js';
import type { AdapterDefinition } from '../adapters/types.js';
import { DEFAULT_MAX_LINE_BYTES, readLines, type Line } from '../pipeline/lines.js';
import { NormalizePipeline, type NormalizeOptions, type OutputFormat, type Summary } from '../outputs/pipeline.js';
import { NormalizePipeline as StreamPipeline } from '../pipeline/normalize.js';
import { LiveSniffer, type SniffResult } from '../record/sniff.js';
import { StoreError } from '../store/errors.js';
import type { StoreSink } from '../store/sink.js';
import type { Diagnostic, ToolEvent } from '../contract/index.js';
import { isEncodedFormat, loadEncoder } from './encoders.js';
import { streamInput, type Input } from './inputs.js';
import { LineSource } from './line-source.js';
import { OutputError } from './output-errors.js';
import { LineWriter } from './writer.js';

/** Output bytes buffered before a write, for regular files. */
export const FILE_FLUSH_BYTES = 64 * 1024;
/** Longest a record of a live input waits in the buffer while lines keep arriving (ms). */
export const LIVE_FLUSH_MS = 20;
/** Non-empty lines an input's format is told from. */
const SAMPLE_LINES = 20;

export interface NormalizeRunOptions {
  inputs: readonly Input[];
  pipeline: StreamPipeline;
  /** Output records (the pipeline's `output` sink writes into it). */
  out: LineWriter;
  /** Diagnostics (the pipeline's `diagnostic` sink writes into it). */
  err: LineWriter;
  /** Where "cannot read FILE" lines go (plain text, not JSON). */
  stderr: Writable;
  /** Command name for those lines. */
  command: string;
  /** The pipeline's `event` sink adds to it; committed here as batches fall due. */
  store?: StoreSink;
  /** `--from` (undefined: told per input). */
  fixed?: AdapterDefinition;
  maxLineBytes: number;
  /** Stops the run after the line being handled. */
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
  /** Called before an input of this format is first fed (OpenCode reads its neighbour files there). */
  beforeAdapter?(adapter: AdapterDefinition): Promise<void> | void;
  /**
   * A live input without `fixed` is told at its first clear line (src/record/sniff.ts) instead of
   * from a sample, and a `format_disagreement` warning says when its first lines taken together read
   * as another format, which is what `toolnorm normalize` will pick for the same bytes in a file.
   */
  liveSniff?: boolean;
  /**
   * Final parts wait out their grace window even while a live input waits (no early printing):
   * `record`, whose stdout is what `normalize RAWFILE` prints for the raw file, in the same order.
   */
  holdFinal?: boolean;
}

export interface NormalizeRunResult {
  /** An input named by the user could not be read or its format told. */
  failedInput: boolean;
  /** The run ended early on `signal`. */
  stopped: boolean;
}

/** The format of one input from its first non-empty lines (a whole short input also as one JSON document). */
export function sniff(sample: readonly string[], whole: boolean, file: string): AdapterDefinition | undefined {
  const found = detectAdapter({ lines: sample, file });
  if (found) return found.adapter;
  if (whole && sample.length > 1) return detectAdapter({ lines: [sample.join('\n')], file })?.adapter;
  return undefined;
}

/** Feeds every input through the pipeline (without ending it). Throws OutputError / StoreError. */
export async function normalizeInputs(o: NormalizeRunOptions): Promise<NormalizeRunResult> {
  const { pipeline, out, err, store, fixed, signal } = o;
  let failedInput = false;
  let stopped = false;
  let lastWrite = Date.now();
  const write = async () => {
    lastWrite = Date.now();
    await out.flush(true);
  };
  const pump = async (live: boolean) => {
    if (live) {
      if (out.pending && (out.pending >= FILE_FLUSH_BYTES || Date.now() - lastWrite >= LIVE_FLUSH_MS)) await idle();
    } else if (out.pending >= FILE_FLUSH_BYTES) await write();
    if (err.pending) await err.flush(true);
    if (store?.due()) await store.flush();
  };
  // For a live input the store goes first: a record once on stdout is already committed.
  const idle = async () => {
    if (store?.pendingEvents) await store.flush();
    if (out.pending) await write();
    if (err.pending) await err.flush(true);
  };
  // A live input waiting for its next line: the final parts still held for the grace window are
  // printed too (the pipeline's showHeld), so a finished call is out while the agent thinks on.
  const waiting = async () => {
    if (!o.holdFinal) pipeline.showHeld();
    await idle();
  };
  const cannotRead = (shown: string, e: unknown) => {
    o.stderr.write(`toolnorm ${o.command}: cannot read ${shown}: ${(e as Error).message}\n`);
    failedInput = true;
  };
  const prepared = new Set<string>();

  for (const input of o.inputs) {
    if (signal?.aborted) { stopped = true; break; }
    const shown = input.name === '-' ? 'stdin' : input.name;
    const live = input.live === true;
    let stream;
    let lines: AsyncGenerator<Line>;
    try {
      stream = input.open();
      lines = readLines(stream, o.onBytes, { maxLineBytes: o.maxLineBytes });
    } catch (e) {
      cannotRead(shown, e);
      continue;
    }
    const source = new LineSource(lines, live, waiting, signal);
    const buffered: Line[] = [];
    /** The first non-empty lines, to tell the format (or, under --from, what the input looks like). */
    const sample: string[] = [];
    let whole = false;
    // The format of each input (each file, and stdin as one stream) from its first non-empty lines,
    // which are then replayed into the adapter. Files found in a directory are checked even under
    // --from: one no format knows (a README, a script) is skipped with one diagnostic instead of one
    // per line. A live input that goes quiet before SAMPLE_LINES lines is told from what it sent.
    let adapter = fixed;
    const sniffer = o.liveSniff && live && !fixed ? new LiveSniffer(input.name) : undefined;
    const checkSniff = (atEnd: boolean) => {
      const d = sniffer?.disagreement(atEnd);
      if (!d) return;
      pipeline.report({
        severity: 'warning',
        code: 'format_disagreement',
        message: `${o.command} read ${shown} as ${d.live?.id ?? 'no known format'} from its first clear line, but its first lines taken together read as ${d.normalize?.id ?? 'no known format'}, which is what \`toolnorm normalize ${shown}\` will pick; pass --from to both`,
        source: { provider: (d.live ?? d.normalize ?? ADAPTERS[0]!).provider, ...(input.name !== '-' ? { file: input.name } : {}) },
      });
    };
    try {
      if (!fixed || input.inDirectory) {
        let found: AdapterDefinition | undefined;
        let decided: SniffResult | undefined;
        while (sample.length < SAMPLE_LINES) {
          const r = await source.next(true);
          if (r === 'idle') {
            if (!sniffer && sample.length && (found = sniff(sample, false, input.name))) break;
            continue;
          }
          if (r === 'stopped') { stopped = true; break; }
          if (r === 'end') { whole = true; break; }
          buffered.push(r);
          if (r.text.trim()) sample.push(r.text);
          if (sniffer && r.tooLarge === undefined && (decided = sniffer.line(r.text)).decided) break;
        }
        // The live rule's decision, or at the end of a short stream its rule on what came.
        if (sniffer && sample.length && !stopped) {
          const d = decided?.decided ? decided : sniffer.end();
          found = d.decided ? d.adapter : undefined;
        }
        else found ??= sample.length ? sniff(sample, whole, input.name) : fixed ?? pipeline.definition;
        if (!found) {
          // Read to the end, only counting: every line of the input is in the account
          // (`inputLines`), these as lines covered by the one diagnostic.
          let skipped = buffered.length;
          if (!whole && !stopped) {
            for (let r = await source.next(); typeof r !== 'string'; r = await source.next()) skipped++;
          }
          if (!input.inDirectory) failedInput = true;
          pipeline.reportSkipped(skipped, {
            severity: input.inDirectory ? 'warning' : 'error',
            code: 'not_a_recording',
            message: `${shown} was skipped (${skipped} line${skipped === 1 ? '' : 's'}): its first lines are no format toolnorm reads (${ADAPTER_IDS.join(', ')})${input.inDirectory ? '' : '; pass --from to read it as one'}`,
            // A source names a provider, and this input has none (under --from, the forced one).
            ...(fixed ? { source: { provider: fixed.provider, ...(input.name !== '-' ? { file: input.name } : {}) } } : {}),
          });
          await pump(live);
          if (stopped) { stream.destroy(); break; }
          continue;
        }
        adapter ??= found;
      }
    } catch (e) {
      if (e instanceof OutputError || e instanceof StoreError) throw e;
      cannotRead(shown, e);
      continue;
    }
    if (!prepared.has(adapter!.id)) {
      prepared.add(adapter!.id);
      await o.beforeAdapter?.(adapter!);
    }
    pipeline.useAdapter(adapter!);
    const name = o.inputs.length > 1 || input.name !== '-' ? input.name : undefined;
    pipeline.beginFile(input.name);
    const keepSample = fixed !== undefined && sample.length === 0;
    const feed = async (l: Line) => {
      const pos = { line: l.line, offset: l.offset, ...(name !== undefined ? { file: name } : {}) };
      if (l.tooLarge !== undefined) pipeline.lineTooLarge(l.tooLarge, o.maxLineBytes, pos);
      else {
        if (keepSample && sample.length < SAMPLE_LINES && l.text.trim()) sample.push(l.text);
        pipeline.line(l.text, pos);
      }
      await pump(live);
    };
    try {
      for (const l of buffered) await feed(l);
      checkSniff(false);
      if (!stopped) {
        if (live) {
          for (let r = await source.next(); ; r = await source.next()) {
            if (r === 'stopped') { stopped = true; break; }
            if (typeof r === 'string') { whole ||= sample.length < SAMPLE_LINES; break; }
            if (sniffer && r.tooLarge === undefined) {
              sniffer.line(r.text);
              checkSniff(false);
            }
            await feed(r);
          }
          checkSniff(true);
        } else {
          // A file is read straight through, no race per line: its next chunk is never far away.
          for await (const l of lines) {
            await feed(l);
            if (signal?.aborted) { stopped = true; break; }
          }
          if (!stopped) whole ||= sample.length < SAMPLE_LINES;
        }
      }
    } catch (e) {
      // Failures of our own output or the store are theirs, never "cannot read" the input.
      if (e instanceof OutputError || e instanceof StoreError) throw e;
      cannotRead(shown, e);
    }
    // Under --from, what the input looks like to the sniffers: named when the forced format found nothing in it.
    pipeline.endFile(input.name, fixed ? { looksLike: sample.length ? sniff(sample, whole, input.name) : undefined } : undefined);
    if (stopped) {
      // Not read further: the reader is let go so the process can end.
      stream.destroy();
      break;
    }
  }
  return { failedInput, stopped };
}

/** Feeds the inputs, ends the pipeline, commits the store and writes everything out. */
export async function runNormalize(o: NormalizeRunOptions): Promise<NormalizeRunResult & { summary: Summary }> {
  const r = await normalizeInputs(o);
  const summary = o.pipeline.end();
  await o.store?.flush();
  await o.out.close();
  await o.err.close();
  return { ...r, summary };
}

export interface StreamRunOptions {
  /** The input's name in diagnostics and `source.file` (e.g. the agent's command). */
  name: string;
  stream: Readable;
  /** Default: told from the stream (only a stream backed by a regular file is not live). */
  live?: boolean;
  /** The output format; `none` prints nothing (the events still go to `store`). */
  to: OutputFormat | 'none';
  /** The input format (default: told from the first lines). */
  from?: AdapterDefinition;
  stdout: Writable;
  stderr: Writable;
  command: string;
  store?: StoreSink;
  signal?: AbortSignal;
  /** Diagnostics are counted, not printed. */
  quiet?: boolean;
  /** Anything else for the pipeline (session id, cwd, clock…); an encoded format's encoder is loaded here. */
  pipeline?: Partial<NormalizeOptions>;
  maxLineBytes?: number;
  /** See NormalizeRunOptions.liveSniff. */
  liveSniff?: boolean;
  /** See NormalizeRunOptions.holdFinal. */
  holdFinal?: boolean;
  /** Called before the stream's format is first fed, with the pipeline (e.g. to configure the OpenCode adapter). */
  beforeAdapter?(adapter: AdapterDefinition, pipeline: StreamPipeline): Promise<void> | void;
}

/** `--to none`: the pipeline runs (events, diagnostics, the summary) and prints nothing. */
const SILENT = () => ({ final: () => {} });

/**
 * One stream normalized as it comes, written to `stdout` (records) and `stderr` (diagnostics), with
 * its events to `store`: what a command that runs an agent (`toolnorm record`) needs. The caller
 * owns the store sink and closes it.
 */
export async function runStream(o: StreamRunOptions): Promise<NormalizeRunResult & { summary: Summary }> {
  const out = new LineWriter(o.stdout);
  const err = new LineWriter(o.stderr, 0, 'stderr');
  const sinks = {
    output: (r: unknown) => out.json(r),
    diagnostic: (d: Diagnostic) => { if (!o.quiet) err.json(d); },
    event: o.store ? (e: ToolEvent) => o.store!.add(e) : undefined,
  };
  const definition = o.from ?? ADAPTERS[0]!;
  let pipeline: StreamPipeline;
  if (o.to === 'none') pipeline = new StreamPipeline(definition, { ...o.pipeline, encoder: SILENT }, sinks);
  else {
    const encoder = o.pipeline?.encoder ?? (isEncodedFormat(o.to) ? await loadEncoder(o.to, {}) : undefined);
    pipeline = new NormalizePipeline(definition, { ...o.pipeline, to: o.to, ...(encoder ? { encoder } : {}) }, sinks);
  }
  return runNormalize({
    inputs: [streamInput(o.name, o.stream, o.live)],
    pipeline,
    out,
    err,
    stderr: o.stderr,
    command: o.command,
    store: o.store,
    fixed: o.from,
    maxLineBytes: o.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    signal: o.signal,
    ...(o.liveSniff ? { liveSniff: true } : {}),
    ...(o.holdFinal ? { holdFinal: true } : {}),
    ...(o.beforeAdapter ? { beforeAdapter: (a: AdapterDefinition) => o.beforeAdapter!(a, pipeline) } : {}),
  });
}
