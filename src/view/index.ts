// toolnorm's session viewer: one self-contained HTML timeline of a session's tool calls, from
// recordings or a store, written to a file or served live. Loaded lazily by `toolnorm view`.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeStoreUrl, openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';
import type { CommandIO } from '../cli/commands/types.js';
import { resolveInputs, type Input } from '../cli/inputs.js';
import { BROKEN_PIPE_EXIT, describeIoError, isBrokenPipe } from '../cli/output-errors.js';
import { ViewBuilder } from './model.js';
import { renderViewHtml } from './html.js';
import { addInputs, addStoredSessions, InputFormatError } from './sources.js';
import { serveView } from './serve.js';

export { ViewBuilder, childSessionOf, VIEW_DATA_VERSION, type ViewData, type ViewPart, type ViewCompression, type ViewSession, type ViewOptions } from './model.js';
export { renderViewHtml, scriptSafeJson, pageOverheadBytes } from './html.js';
export { addInputs, addStoredSession, addStoredSessions, type FileSourceOptions } from './sources.js';
export { serveView, SERVE_HOST, type ServeOptions } from './serve.js';
export { RequestGuard, LOOPBACK_NAMES, type Refusal } from './request-guard.js';
export { DEFAULT_STREAM_LIMITS, type StreamLimits, type StreamStats, type DroppedMessage } from './event-stream.js';
export { VIRTUAL_AT, OVERSCAN_ROWS, KIND_ICONS, KIND_LABELS } from './client.js';
export { ROW_HEIGHT_PX } from './style.js';

/** What `toolnorm view` was asked for, already checked for usage errors by the command. */
export interface ViewRequest {
  files: string[];
  store?: string;
  session?: string;
  out?: string;
  from: string;
  compress: boolean;
  omitFull: boolean;
  serve: boolean;
  follow: boolean;
  port?: number;
  /** Stops `--serve` (the CLI wires SIGINT/SIGTERM to it). */
  signal?: AbortSignal;
}

const DEFAULT_OUT = 'toolnorm-view.html';

export async function runView(req: ViewRequest, io: CommandIO): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`toolnorm view: ${message}\n`);
    return 1;
  };
  const builder = new ViewBuilder({ omitFull: req.omitFull });
  let source: string;
  let store: EventStore | undefined;
  let head = 0;
  let children: Map<string, number> | undefined;
  let unreadable = 0;
  try {
    if (req.store !== undefined || req.session !== undefined) {
      const label = describeStoreUrl(req.store);
      try {
        store = await openStore(req.store, { cwd: io.cwd, create: false });
      } catch (e) {
        return fail(`cannot open store ${label}: ${(e as Error).message}`);
      }
      const sessionId = req.session!;
      const heads = await addStoredSessions(builder, store, sessionId);
      head = heads.get(sessionId)!;
      heads.delete(sessionId);
      children = heads;
      if (head === 0 && !req.follow) return fail(`no session ${sessionId} in ${label} (\`toolnorm sessions --store …\` lists them)`);
      builder.takeReducerDiagnostics();
      source = `${label} · session ${sessionId}`;
    } else {
      let inputs: Input[];
      try {
        inputs = resolveInputs(req.files, io.cwd, io.stdin);
      } catch (e) {
        return fail((e as Error).message);
      }
      if (!inputs.length) return fail('no input files found');
      try {
        ({ unreadable } = await addInputs(builder, inputs, { from: req.from, compress: req.compress }));
      } catch (e) {
        if (e instanceof InputFormatError) return fail(e.message);
        throw e;
      }
      source = inputs.length <= 3 ? inputs.map((i) => i.name).join(', ') : `${inputs[0]!.name} and ${inputs.length - 1} more files`;
    }

    if (req.serve) {
      const stop = req.signal ?? new AbortController().signal;
      await serveView({
        builder,
        source,
        port: req.port,
        ...(req.follow && store ? { follow: { store, sessionId: req.session!, afterSeq: head, children } } : {}),
        signal: stop,
        listening: (url) => io.stderr.write(`toolnorm view: serving ${url} on loopback only${req.follow ? `, following session ${req.session}` : ''} (Ctrl-C stops)\n`),
        notice: (message) => io.stderr.write(`toolnorm view: ${message}\n`),
      });
      io.stderr.write('toolnorm view: stopped\n');
      return 0;
    }

    const data = builder.data(source);
    const html = renderViewHtml(data);
    const out = req.out ?? DEFAULT_OUT;
    if (out === '-') {
      const failed = await new Promise<Error | null | undefined>((done) => io.stdout.write(html, done));
      // A reader that went away (`view -o - | head`) is not an error: quiet, 141 as for SIGPIPE.
      if (failed) return isBrokenPipe(failed) ? BROKEN_PIPE_EXIT : fail(`cannot write to stdout: ${describeIoError(failed)}`);
    } else {
      try {
        await writeFile(resolve(io.cwd, out), html);
      } catch (e) {
        return fail(`cannot write ${out}: ${(e as Error).message}`);
      }
      io.stderr.write(`toolnorm view: wrote ${out} (${data.parts.length} parts, ${Buffer.byteLength(html)} bytes)\n`);
    }
    return unreadable ? 1 : 0;
  } catch (e) {
    return fail((e as Error).message);
  } finally {
    await store?.close();
  }
}
