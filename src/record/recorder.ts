// `toolnorm record`: runs an agent, keeps its stdout byte for byte in a raw file (the recorder
// layer), and normalizes the same bytes live, to stdout and/or a store, as `toolnorm normalize
// RAWFILE` would read the file afterwards: same format detection, same options, same input name,
// so the later run gives the same parts (and, into the same store, appends nothing new).
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { resolve } from 'node:path';
import type { AdapterDefinition } from '../adapters/types.js';
import type { OutputFormat } from '../outputs/pipeline.js';
import type { StreamEncoderFactory } from '../pipeline/encoder.js';
import { runStream } from '../cli/normalize-run.js';
import { BROKEN_PIPE_EXIT, OutputError, safeWrite } from '../cli/output-errors.js';
import { StoreError } from '../store/errors.js';
import type { StoreSink } from '../store/sink.js';
import { createDefaultRawFile, RawFile, shownPath } from './raw-file.js';
import { exitStatus, spawnAgent, spawnFailure, type AgentEnd } from './child.js';

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

/**
 * Normalizes the stream through `normalize`'s own loop for a live input (runStream): the same
 * flushes and store commits (a record on stdout is already committed; pending events are committed
 * as soon as the agent goes quiet). Two things differ, so that stdout is what a later `normalize
 * RAWFILE` prints: the format is told at the stream's first clear line (src/record/sniff.ts), and
 * final parts are printed when they retire, not early while the agent pauses. Resolves to 0, or the
 * status of toolnorm's own failure (never throws).
 */
async function normalizeLive(o: RecordOptions, name: string, bytes: Readable, store: StoreSink | undefined, io: RecordIO): Promise<number> {
  // OpenCode run JSON names neither its MCP servers nor its directory: the files beside the raw
  // recording do, as for a later `normalize RAWFILE`. The options, when given, win.
  const neighbours = async () => {
    if (o.mcpServers && o.cwd !== undefined) return {};
    const { readNeighbours } = await import('../adapters/opencode/neighbours.js');
    const n = readNeighbours([resolve(io.cwd, name)]);
    return { ...(o.cwd === undefined && n.cwd ? { cwd: n.cwd } : {}), ...(!o.mcpServers && n.mcpServers.length ? { mcpServers: n.mcpServers } : {}) };
  };
  // Under --from opencode the adapter is made with the pipeline, so its neighbours come first.
  const fixedNeighbours = o.from?.id === 'opencode' ? await neighbours() : {};
  try {
    const run = await runStream({
      name,
      stream: bytes,
      live: true,
      to: o.to,
      ...(o.from ? { from: o.from } : {}),
      stdout: io.stdout,
      stderr: io.stderr,
      command: 'record',
      ...(store ? { store } : {}),
      quiet: o.quiet,
      liveSniff: true,
      holdFinal: true,
      pipeline: { sessionId: o.sessionId, cwd: o.cwd, mcpServers: o.mcpServers, ...fixedNeighbours, output: 'full', uiStates: o.uiStates, acpTerminal: o.acpTerminal, ...(o.encoder ? { encoder: o.encoder } : {}) },
      beforeAdapter: async (adapter, pipeline) => {
        if (adapter.id === 'opencode' && o.from?.id !== 'opencode') pipeline.configureAdapter('opencode', await neighbours());
      },
    });
    if (o.summary) safeWrite(io.stderr, `${JSON.stringify(run.summary)}\n`);
    return run.failedInput ? 1 : 0;
  } catch (e) {
    if (e instanceof OutputError && e.brokenPipe) return BROKEN_PIPE_EXIT;
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
