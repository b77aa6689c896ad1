// `toolnorm record`: runs an agent, keeps its stdout byte for byte in a raw file (the recorder
// layer), and normalizes the same bytes live, to stdout and/or a store, as `toolnorm normalize
// RAWFILE` would read the file afterwards: same format detection, same options, same input name,
// so the later run gives the same parts (and, into the same store, appends nothing new).
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { resolve } from 'node:path';
import { ADAPTERS, ADAPTER_IDS } from '../adapters/registry.js';
import type { AdapterDefinition } from '../adapters/types.js';
import type { Diagnostic } from '../contract/index.js';
import { NormalizePipeline, type OutputFormat } from '../outputs/pipeline.js';
import { DEFAULT_MAX_LINE_BYTES, readLines, type Line } from '../pipeline/lines.js';
import type { StreamEncoderFactory } from '../pipeline/encoder.js';
import { LineWriter } from '../cli/writer.js';
import { BROKEN_PIPE_EXIT, OutputError, safeWrite } from '../cli/output-errors.js';
import { StoreError } from '../store/errors.js';
import type { StoreSink } from '../store/sink.js';
import { createDefaultRawFile, RawFile, shownPath } from './raw-file.js';
import { exitStatus, spawnAgent, spawnFailure, type AgentEnd } from './child.js';
import { LiveSniffer } from './sniff.js';
import { StoreCommitter } from './store-commits.js';

/** `--to none`: normalize into the store only, print nothing. */
export type RecordOutput = OutputFormat | 'none';

export interface RecordOptions {
  command: string;
  args: readonly string[];
  /** The raw file as given (relative to cwd); default beside the store (raw-file.ts). */
  raw?: string;
  store?: string;
  to: RecordOutput;
  /** A fixed input format; default: sniffed from the stream. */
  from?: AdapterDefinition;
  sessionId?: string;
  cwd?: string;
  mcpServers?: string[];
  uiStates: 'legacy' | 'canonical';
  acpTerminal: boolean;
  encoder?: StreamEncoderFactory;
  quiet: boolean;
  summary: boolean;
}

export interface RecordIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Raw bytes waiting for the normalizer before the agent's stdout is paused (then the agent waits, as on any pipe). */
const FEED_BYTES = 1024 * 1024;

export async function record(o: RecordOptions, io: RecordIO): Promise<number> {
  const say = (text: string) => safeWrite(io.stderr, `toolnorm record: ${text}\n`);
  let raw: RawFile;
  try {
    raw = o.raw !== undefined ? RawFile.create(resolve(io.cwd, o.raw)) : createDefaultRawFile({ store: o.store, cwd: io.cwd, command: o.command });
  } catch (e) {
    say((e as Error).message);
    return 1;
  }
  // The name the raw file goes by in events and diagnostics, as `toolnorm normalize NAME` will see it.
  const name = o.raw ?? shownPath(raw.path, io.cwd);

  let store: StoreSink | undefined;
  if (o.store !== undefined) {
    try {
      const { openStoreSink } = await import('../store/sink.js');
      store = await openStoreSink(o.store, io.cwd);
    } catch (e) {
      raw.discard();
      say(`cannot open ${(e as Error).message}`);
      return 1;
    }
  }

  const agent = spawnAgent({ command: o.command, args: o.args, cwd: io.cwd, env: io.env, stdin: io.stdin, stderr: io.stderr });
  try {
    await new Promise<void>((res, rej) => {
      agent.child.once('spawn', res);
      agent.child.once('error', rej);
    });
  } catch (e) {
    raw.discard();
    await store?.close().catch(() => {});
    const f = spawnFailure(e as NodeJS.ErrnoException, o.command);
    say(`${f.message}; nothing was recorded`);
    return f.status;
  }
  // A note, not an error: --quiet leaves only errors on stderr.
  if (!o.quiet) say(`recording the raw output of ${o.command} to ${name}`);

  // The tee: each chunk goes to the raw file first, then to the normalizer.
  const feed = new PassThrough({ highWaterMark: FEED_BYTES });
  let normalizing = true;
  let rawFailure: Error | undefined;
  agent.stdout.on('data', (chunk: Buffer) => {
    if (!rawFailure) {
      try {
        raw.write(chunk);
      } catch (e) {
        rawFailure = e as Error;
        say(`cannot write ${name}: ${(e as Error).message}; the raw recording stops here, the agent goes on`);
      }
    }
    if (normalizing && !feed.write(chunk)) {
      agent.stdout.pause();
      feed.once('drain', () => agent.stdout.resume());
    }
  });
  // The normalizer may have stopped reading (and so destroyed the feed) long before the agent ends.
  feed.on('error', () => {});
  const endFeed = () => { if (!feed.destroyed) feed.end(); };
  agent.stdout.once('end', endFeed);
  agent.stdout.once('error', endFeed);

  const normalized = normalizeLive(o, name, feed, store, io).finally(() => {
    // Done or failed: the agent's output still goes to the raw file, to its end.
    normalizing = false;
    feed.resume();
    agent.stdout.resume();
  });

  let end: AgentEnd;
  try {
    end = await agent.ended;
  } catch (e) {
    end = { code: 1, signal: null };
    say((e as Error).message);
  }
  const status = await normalized;
  try {
    raw.close();
  } catch (e) {
    rawFailure ??= e as Error;
    say(`cannot close ${name}: ${(e as Error).message}`);
  }
  const agentStatus = exitStatus(end);
  // The agent's own failure is the one the caller asked about; toolnorm's own comes after it.
  if (agentStatus !== 0) return agentStatus;
  if (rawFailure) return 1;
  return status;
}

/** Normalizes the stream; resolves to 0, or the status of toolnorm's own failure (never throws). */
async function normalizeLive(o: RecordOptions, name: string, bytes: Readable, store: StoreSink | undefined, io: RecordIO): Promise<number> {
  const out = o.to === 'none' ? undefined : new LineWriter(io.stdout);
  const err = new LineWriter(io.stderr, 0, 'stderr');
  const commits = store ? new StoreCommitter(store) : undefined;
  const pipeline = new NormalizePipeline(o.from ?? ADAPTERS[0]!, {
    to: o.to === 'none' ? 'events' : o.to,
    sessionId: o.sessionId,
    cwd: o.cwd,
    mcpServers: o.mcpServers,
    output: 'full',
    uiStates: o.uiStates,
    acpTerminal: o.acpTerminal,
    ...(o.encoder ? { encoder: o.encoder } : {}),
  }, {
    output: (r) => out?.json(r),
    diagnostic: (d) => { if (!o.quiet) err.json(d); },
    event: commits ? (e) => commits.add(e) : undefined,
  });
  const diagnose = (d: Diagnostic) => pipeline.report(d);
  const sniffer = new LiveSniffer(name);
  /** Lines read before the format is known, replayed into the adapter once it is. */
  let held: Line[] | undefined = o.from ? undefined : [];
  /** Lines of a stream no format knows: only counted, for the one not_a_recording diagnostic. */
  let skipped: number | undefined;
  let failed = false;

  const pump = async () => {
    // Live: every record is handed on as soon as its line is read.
    if (out?.pending) await out.flush(true);
    if (err.pending) await err.flush(true);
    await commits?.tick();
  };
  const feed = async (l: Line) => {
    const pos = { line: l.line, offset: l.offset, file: name };
    if (l.tooLarge !== undefined) pipeline.lineTooLarge(l.tooLarge, DEFAULT_MAX_LINE_BYTES, pos);
    else pipeline.line(l.text, pos);
    await pump();
  };
  const start = async (adapter: AdapterDefinition | undefined) => {
    const lines = held ?? [];
    held = undefined;
    if (!adapter) {
      skipped = lines.length;
      return;
    }
    if (adapter.id === 'opencode' && (!o.mcpServers || o.cwd === undefined)) {
      const { readNeighbours } = await import('../adapters/opencode/neighbours.js');
      const n = readNeighbours([resolve(io.cwd, name)]);
      pipeline.configureAdapter('opencode', { ...(o.cwd === undefined && n.cwd ? { cwd: n.cwd } : {}), ...(!o.mcpServers && n.mcpServers.length ? { mcpServers: n.mcpServers } : {}) });
    }
    pipeline.useAdapter(adapter);
    pipeline.beginFile(name);
    for (const l of lines) await feed(l);
  };
  const checkSniff = (atEnd: boolean) => {
    const d = sniffer.disagreement(atEnd);
    if (!d) return;
    diagnose({
      severity: 'warning',
      code: 'format_disagreement',
      message: `record read ${name} as ${d.live?.id ?? 'no known format'} from its first clear line, but its first lines taken together read as ${d.normalize?.id ?? 'no known format'}, which is what \`toolnorm normalize ${name}\` will pick; pass --from to both`,
      source: { provider: (d.live ?? d.normalize ?? ADAPTERS[0]!).provider, file: name },
    });
  };

  try {
    if (o.from) await start(o.from);
    for await (const l of readLines(bytes)) {
      if (skipped !== undefined) {
        skipped++;
        continue;
      }
      if (held) {
        held.push(l);
        const r = l.tooLarge === undefined ? sniffer.line(l.text) : { decided: false as const };
        if (r.decided) {
          await start(r.adapter);
          checkSniff(false);
        }
        continue;
      }
      if (!o.from && l.tooLarge === undefined) {
        sniffer.line(l.text);
        checkSniff(false);
      }
      await feed(l);
    }
    if (held) {
      const r = sniffer.end();
      await start(r.decided ? r.adapter : undefined);
    }
    if (!o.from) checkSniff(true);
    if (skipped !== undefined && skipped > 0) {
      failed = true;
      pipeline.reportSkipped(skipped, {
        severity: 'error',
        code: 'not_a_recording',
        message: `${name} was not normalized (${skipped} line${skipped === 1 ? '' : 's'}): its first lines are no format toolnorm reads (${ADAPTER_IDS.join(', ')}); pass --from to read it as one (the raw file is kept)`,
      });
    } else if (skipped === undefined) {
      pipeline.endFile(name);
    }
    const summary = pipeline.end();
    await commits?.close();
    await out?.close();
    await err.close();
    if (o.summary) safeWrite(io.stderr, `${JSON.stringify(summary)}\n`);
    return failed ? 1 : 0;
  } catch (e) {
    await commits?.stop();
    if (e instanceof OutputError && e.brokenPipe) return BROKEN_PIPE_EXIT;
    await err.flush(true).catch(() => {});
    const what = e instanceof OutputError || e instanceof StoreError ? e.message : `normalizing stopped: ${(e as Error).message}`;
    safeWrite(io.stderr, `toolnorm record: ${what}; the raw recording goes on\n`);
    return 1;
  } finally {
    try {
      await store?.close();
    } catch (e) {
      safeWrite(io.stderr, `toolnorm record: ${(e as Error).message}\n`);
    }
  }
}
