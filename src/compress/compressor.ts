// DeclarativeCompressor: the first spec that matches a part decides how its output is cut. The
// result is only ever a derived `tool.output.compressed` event; the completed event and its full
// output are never touched (Hard Invariant #6).
import type { NormalizedToolPart, OutputCompressionSpec, Provider, ToolOutputCompressedEvent } from '../contract/index.js';
import type { CompressContext, ToolOutputCompressor } from './types.js';
import { CompressionStream, type EngineOptions, type TextCompression } from './engine.js';
import { estimatorFor, loadExactEstimator } from './estimator.js';
import { DEFAULT_SPECS } from './defaults.js';
import { SpecError, checkSpec } from './spec.js';
import { isObj, type Obj } from '../fields.js';

export interface OutputCompression {
  /** The compressed output, in the original's shape where possible. */
  output: unknown;
  /** The text-level result the output was built from. */
  result: TextCompression;
}

type SpecRef = string | OutputCompressionSpec;

/** UTF-16 units encoded per step: small enough to stay in cache, large enough to amortise calls. */
const STRING_CHUNK = 256 * 1024;

/**
 * Feeds a string in slices through one reused buffer: hashing and counting cache-sized pieces is
 * about twice as fast as encoding 100 MB at once, and the engine never keeps a view of a chunk.
 */
function writeString(engine: CompressionStream, text: string): void {
  if (text.length <= STRING_CHUNK) {
    engine.write(text);
    return;
  }
  const scratch = Buffer.allocUnsafe(STRING_CHUNK * 3);
  for (let p = 0; p < text.length;) {
    let q = Math.min(text.length, p + STRING_CHUNK);
    const c = text.charCodeAt(q - 1);
    if (q < text.length && c >= 0xd800 && c <= 0xdbff) q--; // keep surrogate pairs together
    const n = scratch.write(text.slice(p, q), 0, 'utf8');
    engine.write(scratch.subarray(0, n));
    p = q;
  }
}

/** Compresses one text with one spec. Head and tail are slices of `text` itself when `exactSlices`. */
export function compressText(text: string, spec: OutputCompressionSpec, options: EngineOptions = {}): TextCompression {
  const engine = new CompressionStream(spec, options);
  writeString(engine, text);
  const r = engine.end();
  // The engine worked on UTF-8 bytes; hand back the caller's own string (lone surrogates and all)
  // wherever the result is a piece of it. A code point boundary in bytes is one in UTF-16 too.
  if (!r.compressed) return { ...r, text, head: text };
  if (!r.exactSlices) return r;
  const head = text.slice(0, r.head.length);
  const tail = r.tail.length ? text.slice(text.length - r.tail.length) : '';
  // With no marker between them, a lone high surrogate ending the head and a lone low one starting
  // the tail would pair into a character the input never had. The engine's pieces, where each lone
  // surrogate is U+FFFD as in UTF-8, are the answer then; they are not verbatim slices of `text`.
  if (r.marker === '' && isHighSurrogate(head.charCodeAt(head.length - 1)) && isLowSurrogate(tail.charCodeAt(0))) return { ...r, exactSlices: false };
  return { ...r, head, tail, text: head + r.marker + tail };
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Compresses a stream (a Readable, or any async iterable of chunks) with memory bounded by the budget. */
export async function compressStream(source: AsyncIterable<Buffer | Uint8Array | string>, spec: OutputCompressionSpec, options: EngineOptions = {}): Promise<TextCompression> {
  const engine = new CompressionStream(spec, options);
  for await (const chunk of source) engine.write(chunk);
  return engine.end();
}

export function specMatches(spec: OutputCompressionSpec, part: Pick<NormalizedToolPart, 'name' | 'kind'>, provider: Provider | undefined): boolean {
  const m = spec.match;
  if (!m) return true;
  if (m.kinds && !m.kinds.includes(part.kind)) return false;
  if (m.names && !m.names.includes(part.name)) return false;
  if (m.providers && (provider === undefined || !m.providers.includes(provider))) return false;
  return true;
}

/**
 * Fields beside `text` (Claude's `structured.stdout`, a Codex `aggregated_output`) often repeat the
 * text in full, which defeated the budget. In a compressed view each is kept only up to
 * SIDE_FIELD_BYTES of JSON (or the budget, when smaller); past it, an object keeps its small members, and anything larger becomes
 * a size marker. The full values stay in the original event, which `metadata.compression.original`
 * names.
 */
export const SIDE_FIELD_BYTES = 1024;

const sideMarker = (v: unknown, bytes: number): unknown => (typeof v === 'string' ? `[omitted by toolnorm: ${bytes} bytes; the full value is in the original event]` : { omittedBytes: bytes });

/** SIDE_FIELD_BYTES, or the spec's own budget when that is smaller (tokens counted as 4 bytes). */
export function sideLimit(spec: OutputCompressionSpec): number {
  return Math.min(SIDE_FIELD_BYTES, spec.budget.maxBytes ?? Infinity, (spec.budget.maxTokens ?? Infinity) * 4);
}

function boundSideFields(output: Obj, limit: number): { output: Obj; cut: boolean } {
  let cut = false;
  const bound = (v: unknown, nested: boolean): unknown => {
    if (v === null || typeof v === 'boolean' || typeof v === 'number') return v;
    const bytes = byteLengthOfJson(v);
    if (bytes <= limit) return v;
    cut = true;
    if (!nested && isObj(v)) {
      const copy: Obj = {};
      for (const [k, x] of Object.entries(v)) copy[k] = bound(x, true);
      return copy;
    }
    return sideMarker(v, bytes);
  };
  const out: Obj = {};
  for (const [k, v] of Object.entries(output)) out[k] = k === 'text' ? v : bound(v, false);
  return { output: out, cut };
}

/** UTF-8 bytes of a value's JSON, escapes included (what a view of it carries). */
const byteLengthOfJson = (v: unknown): number => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');

export class DeclarativeCompressor implements ToolOutputCompressor {
  readonly specs: readonly OutputCompressionSpec[];

  /**
   * Throws a SpecError or ContractError naming the spec when one is unusable, and an
   * EstimatorUnavailableError when a spec wants `exact` before it was loaded (use `create`).
   */
  constructor(specs: readonly unknown[] = DEFAULT_SPECS, private readonly options: EngineOptions = {}) {
    const checked = specs.map(checkSpec);
    const seen = new Set<string>();
    for (const s of checked) {
      if (seen.has(s.id)) throw new SpecError(s.id, 'the id is used by more than one spec');
      seen.add(s.id);
      estimatorFor(s.estimator ?? 'bytes4');
    }
    this.specs = checked;
  }

  /** Like the constructor, but first loads the exact estimator when a spec asks for it. */
  static async create(specs: readonly unknown[] = DEFAULT_SPECS, options: EngineOptions = {}): Promise<DeclarativeCompressor> {
    if (specs.some((s) => isObj(s) && s.estimator === 'exact')) await loadExactEstimator();
    return new DeclarativeCompressor(specs, options);
  }

  spec(ref: SpecRef): OutputCompressionSpec {
    if (typeof ref !== 'string') return ref;
    const found = this.specs.find((s) => s.id === ref);
    if (!found) throw new Error(`no compression spec "${ref}"; known: ${this.specs.map((s) => s.id).join(', ')}`);
    return found;
  }

  /** The first spec matching a part, or undefined. */
  specFor(part: Pick<NormalizedToolPart, 'name' | 'kind'>, provider: Provider | undefined): OutputCompressionSpec | undefined {
    return this.specs.find((s) => specMatches(s, part, provider));
  }

  compressText(text: string, ref: SpecRef): TextCompression {
    return compressText(text, this.spec(ref), this.options);
  }

  /** A streaming compressor: `write(chunk)` any number of times, then `end()`. */
  stream(ref: SpecRef): CompressionStream {
    return new CompressionStream(this.spec(ref), this.options);
  }

  compressStream(source: AsyncIterable<Buffer | Uint8Array | string>, ref: SpecRef): Promise<TextCompression> {
    return compressStream(source, this.spec(ref), this.options);
  }

  /**
   * A part output, compressed in its own shape: a string stays a string; a `{text, …}` output
   * (src/present/output.ts) gets its `text` compressed and keeps every other field; any
   * other JSON value is summarised when the spec has `json_summary` (as a value if the summary
   * alone fits, else as cut text). Undefined when the output fits or cannot be compressed.
   */
  compressOutput(output: unknown, ref: SpecRef): OutputCompression | undefined {
    const spec = this.spec(ref);
    if (typeof output === 'string') {
      const result = compressText(output, spec, this.options);
      return result.compressed ? { output: result.text, result } : undefined;
    }
    if (isObj(output) && typeof output.text === 'string') {
      const result = compressText(output.text, spec, this.options);
      const sides = boundSideFields(output, sideLimit(spec));
      return result.compressed || sides.cut ? { output: { ...sides.output, text: result.text }, result } : undefined;
    }
    if (typeof output !== 'object' || output === null) return undefined;
    // Without a JSON summary, a structured output over the budget is cut as its JSON text: no view
    // may carry more than the budget, and the full value stays in the original event.
    if (!spec.strategy.some((s) => s.type === 'json_summary')) {
      const result = compressText(JSON.stringify(output), spec, this.options);
      return result.compressed ? { output: result.text, result } : undefined;
    }
    const json = JSON.stringify(output);
    const result = compressText(json, spec, this.options);
    if (!result.compressed) return undefined;
    const cutApplied = /(^|\+)(head_tail|head|tail)$/.test(result.stats.strategy);
    return { output: cutApplied ? result.text : (JSON.parse(result.text) as unknown), result };
  }

  compressPart(part: NormalizedToolPart, ctx: CompressContext): ToolOutputCompressedEvent | undefined {
    if (part.state !== 'complete' || !('output' in part) || part.output === undefined) return undefined;
    const provider = ctx.provider ?? (part.metadata?.provider as Provider | undefined);
    const spec = this.specFor(part, provider);
    if (!spec) return undefined;
    const done = this.compressOutput(part.output, spec);
    if (!done) return undefined;
    return {
      type: 'tool.output.compressed',
      sessionId: ctx.sessionId,
      partId: part.id,
      ...(ctx.at !== undefined ? { at: ctx.at } : {}),
      source: { provider: ctx.provider },
      output: done.output,
      compression: {
        stats: done.result.stats,
        original: { partId: part.id, ...(ctx.seq !== undefined ? { seq: ctx.seq } : {}), sha256: done.result.sha256 },
      },
    };
  }
}
