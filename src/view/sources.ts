// Where a view's events come from: recordings normalized in-process (any input format the CLI
// knows, auto-detected as `toolnorm normalize` does) or a stored session.
import type { Diagnostic, ToolEvent } from '../contract/index.js';
import { adapterById, detectAdapter, ADAPTER_IDS } from '../adapters/registry.js';
import type { AdapterDefinition } from '../adapters/types.js';
import { NormalizePipeline } from '../pipeline/normalize.js';
import { readLines, type Line } from '../pipeline/lines.js';
import { DeclarativeCompressor } from '../compress/index.js';
import type { EventStore } from '../store/types.js';
import type { Input } from '../cli/inputs.js';
import { ViewBuilder } from './model.js';

export interface FileSourceOptions {
  /** Input format, or `auto` (default) to detect it from the first lines of the first input. */
  from?: string;
  /** Compress completed outputs with the default specs, as `normalize --output compressed` does. */
  compress?: boolean;
  sessionId?: string;
  cwd?: string;
}

export class InputFormatError extends Error {}

function pickAdapter(from: string, sample: string[], file: string): AdapterDefinition {
  if (from !== 'auto') {
    const a = adapterById(from);
    if (!a) throw new InputFormatError(`unknown --from "${from}"; expected auto or one of ${ADAPTER_IDS.join(', ')}`);
    return a;
  }
  const found = detectAdapter({ lines: sample, file });
  if (!found) throw new InputFormatError(`cannot tell the input format of ${file}; pass --from ${ADAPTER_IDS.join('|')}`);
  return found.adapter;
}

/**
 * Normalizes the inputs into `builder`. Diagnostics are the pipeline's (adapter, validation and
 * reducer), so they are not taken again from the builder's reducer. Unreadable inputs are
 * reported as diagnostics too, and counted in the returned `unreadable`.
 */
export async function addInputs(builder: ViewBuilder, inputs: readonly Input[], options: FileSourceOptions = {}): Promise<{ unreadable: number }> {
  let pipeline: NormalizePipeline | undefined;
  let unreadable = 0;
  // Before the first input is read there is no provider to name, so no source then.
  const unreadableDiag = (name: string, err: unknown): Diagnostic => ({
    severity: 'error',
    code: 'unreadable_input',
    message: `cannot read ${name}: ${(err as Error).message}`,
    ...(pipeline ? { source: { provider: pipeline.definition.provider, file: name } } : {}),
  });
  for (const input of inputs) {
    let lines: AsyncGenerator<Line>;
    const buffered: Line[] = [];
    try {
      lines = readLines(input.open());
      if (!pipeline) {
        // The first non-empty lines decide the format; they are replayed into the adapter after.
        const sample: string[] = [];
        while (sample.length < 20) {
          const r = await lines.next();
          if (r.done) break;
          buffered.push(r.value);
          if (r.value.text.trim()) sample.push(r.value.text);
        }
        const adapter = pickAdapter(options.from ?? 'auto', sample, input.name);
        pipeline = new NormalizePipeline(adapter, {
          to: 'events',
          sessionId: options.sessionId,
          cwd: options.cwd,
          clock: () => 0,
          // Parts are held to the end (the page shows them all), so no event is ever "late".
          retireAfterEvents: Number.POSITIVE_INFINITY,
          ...(options.compress ? { compressor: new DeclarativeCompressor() } : {}),
        }, {
          output: () => {},
          diagnostic: (d) => builder.addDiagnostic(d),
          event: (e: ToolEvent) => { builder.add(e); },
        });
      }
    } catch (err) {
      if (err instanceof InputFormatError) throw err;
      unreadable++;
      builder.addDiagnostic(unreadableDiag(input.name, err));
      continue;
    }
    const p = pipeline;
    p.beginFile(input.name);
    try {
      for (const l of buffered) p.line(l.text, { line: l.line, offset: l.offset, file: input.name });
      for await (const l of lines) p.line(l.text, { line: l.line, offset: l.offset, file: input.name });
    } catch (err) {
      unreadable++;
      builder.addDiagnostic(unreadableDiag(input.name, err));
    }
    p.endFile(input.name);
  }
  pipeline?.end();
  return { unreadable };
}

/** Every stored event of the session up to now; returns the head seq read. */
export async function addStoredSession(builder: ViewBuilder, store: EventStore, sessionId: string): Promise<number> {
  let seq = 0;
  for await (const e of store.read(sessionId)) {
    builder.add(e);
    seq = e.seq;
  }
  return seq;
}

/**
 * The session and, transitively, every child session its subagent parts name in
 * `metadata.childSessionId` (OpenCode runs a subagent in a session of its own, stored as its own
 * stream), so the child's calls nest under their subagent. Returns each session read with its
 * head seq; a child not (yet) in the store has head 0.
 */
export async function addStoredSessions(builder: ViewBuilder, store: EventStore, sessionId: string): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  const queue = [sessionId];
  while (queue.length) {
    const id = queue.shift()!;
    if (heads.has(id)) continue;
    heads.set(id, await addStoredSession(builder, store, id));
    for (const child of builder.childSessions()) if (!heads.has(child)) queue.push(child);
  }
  return heads;
}
