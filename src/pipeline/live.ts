// Live normalization for agent UIs and orchestrators that hold provider SDK objects (Claude Agent
// SDK `query()`, Codex SDK `runStreamed()`, OpenCode SDK `event.subscribe()`): every message goes
// in as it arrives, and every part comes out each time its state changes, with no JSON round trip.
// It is the streaming pipeline itself (validation, late events, held-part and session caps with
// eviction, depth cuts, the line account) with one more stream encoder, the same interface every
// output format implements (./encoder.ts): the batch CLI prints a part once, when final; a UI wants
// every step (started, input streaming, running, terminal), so this encoder yields each change.
import type { Diagnostic, NormalizedToolPart, ToolEvent } from '../contract/index.js';
import { adapterById } from '../adapters/registry.js';
import type { AdapterDefinition, AdapterId, AdapterOptions } from '../adapters/types.js';
import type { ReducerOptions } from '../events/reducer.js';
import { TERMINAL } from '../events/state.js';
import { NormalizePipeline } from './normalize.js';

/** A provider SDK object, any other parsed JSON value, or one JSON line as a string. */
export type LiveInput = unknown;

export interface LiveOptions extends AdapterOptions, ReducerOptions {
  /** The input format: an adapter id (`claude`, `codex`, `opencode`, `acp`, `events`) or a definition. */
  from: AdapterId | AdapterDefinition;
  /**
   * Events to wait after a part turns terminal before it is dropped from memory (default 64), so a
   * long-lived stream holds only parts in flight. A later event for a dropped part is reported as a
   * `late_event` diagnostic, as in the CLI pipeline.
   */
  retireAfterEvents?: number;
}

export type LiveUpdate =
  /** A part's new state, after the event that changed it. `final` once it is complete or error. */
  | { type: 'part'; sessionId: string; part: NormalizedToolPart; event: ToolEvent; final: boolean }
  | { type: 'diagnostic'; diagnostic: Diagnostic };

export class LiveNormalizer {
  readonly definition: AdapterDefinition;
  private readonly pipeline: NormalizePipeline;
  private out: LiveUpdate[] = [];
  private inputs = 0;

  constructor(options: LiveOptions) {
    const definition = typeof options.from === 'string' ? adapterById(options.from) : options.from;
    if (!definition) throw new TypeError(`unknown input format "${String(options.from)}"; expected claude, codex, opencode, acp or events`);
    this.definition = definition;
    const { from: _from, ...rest } = options;
    this.pipeline = new NormalizePipeline(definition, {
      ...rest,
      encoder: () => ({
        change: (sessionId, event, part) => {
          const p = part();
          this.out.push({ type: 'part', sessionId, part: p, event, final: TERMINAL.has(p.state) });
        },
        final: () => {},
      }),
    }, {
      output: () => {},
      diagnostic: (d) => this.out.push({ type: 'diagnostic', diagnostic: d }),
    });
  }

  /** Reads one input and returns what it changed, in order. Never throws on provider input. */
  push(input: LiveInput): LiveUpdate[] {
    this.pipeline.value(input, { line: ++this.inputs, offset: 0 });
    return this.take();
  }

  /** End of input: flushes what the adapter buffered, and the end-of-input diagnostics. */
  end(): LiveUpdate[] {
    this.pipeline.end();
    return this.take();
  }

  /** Parts held in memory: in flight, or final and waiting out the grace window. */
  liveParts(): number {
    return this.pipeline.liveParts();
  }

  private take(): LiveUpdate[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}

/**
 * Normalizes a live stream: `for await (const u of normalizeStream(query(…), { from: 'claude' }))`
 * yields each part every time its state changes, and every diagnostic, as the messages arrive.
 * Items are provider SDK objects (or any parsed JSON value) or JSON lines as strings.
 */
export async function* normalizeStream(source: AsyncIterable<LiveInput> | Iterable<LiveInput>, options: LiveOptions): AsyncGenerator<LiveUpdate, void, undefined> {
  const live = new LiveNormalizer(options);
  for await (const item of source) yield* live.push(item);
  yield* live.end();
}
