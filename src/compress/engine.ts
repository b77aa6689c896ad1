// The compression engine: one pass over UTF-8 bytes, fed in chunks of any size. It hashes and
// counts the original, runs the spec's transform steps as streaming filters, keeps only the
// windows a cut needs, and decides at the end. A string and the same bytes streamed in any
// chunking give the same result, so `compressText` is just this engine fed once.
import { createHash } from 'node:crypto';
import type { CompressionStats, OutputCompressionSpec } from '../contract/index.js';
import { NL, bytesIn, countLines, countNewlines, linesFrom } from './bytes.js';
import { AnsiStripFilter, ESC, MAX_ESCAPE, type Emit } from './ansi.js';
import { CollapseRepeatsFilter } from './collapse.js';
import { DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_STRING_LENGTH, JsonSummaryFilter } from './json-summary.js';
import { ChunkedTokenCounter, estimatorFor, type TokenCounter } from './estimator.js';
import { DEFAULT_MARKER, type MarkerValues } from './marker.js';
import { Retainer } from './retainer.js';
import { planCut, type Cut, type CutShape } from './cut.js';
import { cutOf, headRatioOf } from './spec.js';

export interface EngineOptions {
  /**
   * Most bytes kept of the head and of the tail. Budgets without a byte or bytes4 token limit
   * (lines only, or `exact` tokens) are capped by it, so memory stays bounded (default 8 MiB).
   */
  maxRetainedBytes?: number;
  /** Longest text `json_summary` will parse; longer text passes through to the cut (default 8 MiB). */
  jsonMaxBytes?: number;
}

export const DEFAULT_MAX_RETAINED_BYTES = 8 * 1024 * 1024;
export const DEFAULT_JSON_MAX_BYTES = 8 * 1024 * 1024;
/** With the exact estimator, bytes kept per token of budget at most (o200k averages ~4). */
export const EXACT_BYTES_PER_TOKEN = 32;

export interface TextCompression {
  /** False when the original fits the budget: `text` is then the original, unchanged. */
  compressed: boolean;
  /** `head + marker + tail`. */
  text: string;
  head: string;
  /** Separators, style reset and the rendered marker ('' when nothing was cut). */
  marker: string;
  tail: string;
  /** Head and tail are verbatim slices of the original (no transform step changed the text). */
  exactSlices: boolean;
  /** Bytes of `text` the compressor wrote: the marker, ×N counts, JSON notes. */
  addedBytes: number;
  stats: CompressionStats;
  /** SHA-256 of the original's UTF-8 bytes, hex. */
  sha256: string;
}

interface Filter {
  readonly name: string;
  readonly applied: boolean;
  write(buf: Buffer, added: boolean, emit: Emit): void;
  end(emit: Emit): void;
}

interface Budget {
  bytes: number;
  lines?: number;
  tokens?: number;
}

/** Keeps the original while it could still fit the budget, to return it unchanged; drops it once it cannot. */
class OriginalKeeper {
  private parts: Buffer[] = [];
  private bytes = 0;
  constructor(private readonly limit: number) {}
  push(buf: Buffer): void {
    this.bytes += buf.length;
    if (this.bytes > this.limit) this.parts = [];
    else this.parts.push(Buffer.from(buf));
  }
  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

export class CompressionStream {
  private readonly estimator: TokenCounter;
  private readonly budget: Budget;
  private readonly filters: Filter[];
  private readonly emitters: Emit[];
  private readonly retainer: Retainer;
  private readonly original: OriginalKeeper | undefined;
  private readonly counter: ChunkedTokenCounter | undefined;
  private readonly hash = createHash('sha256');
  private originalBytes = 0;
  private originalNewlines = 0;
  private originalLast = -1;
  private sawEscape = false;
  private ended = false;

  constructor(readonly spec: OutputCompressionSpec, options: EngineOptions = {}) {
    this.estimator = estimatorFor(spec.estimator ?? 'bytes4');
    const retain = options.maxRetainedBytes ?? DEFAULT_MAX_RETAINED_BYTES;
    const { maxBytes, maxLines, maxTokens } = spec.budget;
    let bytes = Math.min(maxBytes ?? Infinity, retain);
    if (maxTokens !== undefined) bytes = Math.min(bytes, maxTokens * (this.estimator.id === 'bytes4' ? 4 : EXACT_BYTES_PER_TOKEN));
    this.budget = { bytes, lines: maxLines, tokens: maxTokens };
    this.filters = spec.strategy.flatMap((step): Filter[] => {
      switch (step.type) {
        case 'ansi_strip': return [new AnsiStripFilter()];
        case 'collapse_repeats': return [new CollapseRepeatsFilter(step.minRun ?? 3)];
        case 'json_summary': return [new JsonSummaryFilter(
          { maxArrayItems: step.maxArrayItems ?? DEFAULT_MAX_ARRAY_ITEMS, maxStringLength: step.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH },
          options.jsonMaxBytes ?? DEFAULT_JSON_MAX_BYTES,
          (text) => this.fits(text),
        )];
        default: return [];
      }
    });
    this.emitters = this.filters.map((_, i) => (buf: Buffer, added: boolean) => this.feed(i + 1, buf, added));
    // The head window needs MAX_ESCAPE bytes past the cut, the tail one byte and MAX_ESCAPE before
    // it, to keep cuts on line starts and out of escape sequences.
    this.retainer = new Retainer(bytes + MAX_ESCAPE, bytes + 1 + MAX_ESCAPE);
    this.original = this.filters.length ? new OriginalKeeper(bytes) : undefined;
    this.counter = this.estimator.id === 'bytes4' ? undefined : new ChunkedTokenCounter(this.estimator);
  }

  write(chunk: Buffer | Uint8Array | string): void {
    if (this.ended) throw new Error('CompressionStream.write after end()');
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (buf.length === 0) return;
    this.hash.update(buf);
    this.originalBytes += buf.length;
    this.originalLast = buf[buf.length - 1]!;
    this.counter?.push(buf);
    if (!this.sawEscape && buf.indexOf(ESC) !== -1) this.sawEscape = true;
    if (this.original) {
      this.originalNewlines += countNewlines(buf);
      this.original.push(buf);
    }
    this.feed(0, buf, false);
  }

  private feed(i: number, buf: Buffer, added: boolean): void {
    const filter = this.filters[i];
    if (filter) filter.write(buf, added, this.emitters[i]!);
    else this.retainer.push(buf, added);
  }

  private fits(text: string, bytes = Buffer.byteLength(text, 'utf8')): boolean {
    const b = this.budget;
    if (bytes > b.bytes) return false;
    if (b.lines !== undefined && countLines(text) > b.lines) return false;
    return b.tokens === undefined || this.estimator.count(text, bytes) <= b.tokens;
  }

  end(): TextCompression {
    if (this.ended) throw new Error('CompressionStream.end called twice');
    this.ended = true;
    this.filters.forEach((f, i) => f.end(this.emitters[i]!));
    const w = this.retainer.finish();
    const originalNewlines = this.original ? this.originalNewlines : w.newlines;
    const originalBytes = this.originalBytes;
    const originalLines = linesFrom(originalNewlines, originalBytes, this.originalLast === NL);
    const originalTokens = this.counter ? this.counter.end() : Math.ceil(originalBytes / 4);
    const sha256 = this.hash.digest('hex');
    const b = this.budget;
    const est = this.estimator;
    const base = { specId: this.spec.id, estimator: est.id, originalBytes, originalLines, originalTokens };

    const stats = (text: string, steps: string[], addedBytes: number, keptCutLines: number): CompressionStats => {
      const keptBytes = Buffer.byteLength(text, 'utf8');
      // Clamped: re-serialized JSON may not map byte for byte (or line for line) onto the original.
      const carried = Math.max(0, Math.min(originalBytes, keptBytes - addedBytes));
      return {
        ...base,
        strategy: steps.length ? steps.join('+') : 'none',
        keptBytes,
        keptLines: countLines(text),
        keptTokens: est.count(text, keptBytes),
        omittedLines: originalLines - Math.min(originalLines, keptCutLines),
        omittedBytes: originalBytes - carried,
      };
    };
    const whole = (text: string, compressed: boolean, exactSlices: boolean, steps: string[], addedBytes: number, keptCutLines: number): TextCompression => ({
      compressed, text, head: text, marker: '', tail: '', exactSlices, addedBytes, sha256, stats: stats(text, steps, addedBytes, keptCutLines),
    });

    const originalFits = originalBytes <= b.bytes && (b.lines === undefined || originalLines <= b.lines) && (b.tokens === undefined || originalTokens <= b.tokens);
    if (originalFits) {
      const text = this.original ? this.original.text() : w.prefix.toString('utf8');
      return whole(text, false, true, [], 0, originalLines);
    }

    const applied = this.filters.filter((f) => f.applied).map((f) => f.name);
    const cutLines = linesFrom(w.newlines, w.total, w.endsWithNewline);
    if (applied.length && w.total <= b.bytes) {
      const text = w.prefix.toString('utf8');
      if (this.fits(text)) return whole(text, true, false, applied, bytesIn(w.prefixAdded, 0, w.total), cutLines);
    }

    const { step } = cutOf(this.spec);
    const upper: MarkerValues = { omittedLines: originalLines, omittedBytes: originalBytes, omittedTokens: originalTokens, originalLines, originalBytes, sha256 };
    const valuesFor = (s: CutShape): MarkerValues => {
      const carried = Math.min(originalBytes, s.head.length + s.tail.length - s.addedInParts);
      const keptTokens = est.id === 'bytes4' ? Math.ceil((s.head.length + s.tail.length) / 4) : est.count(s.head.toString('utf8') + s.tail.toString('utf8'));
      return {
        ...upper,
        omittedLines: originalLines - Math.min(originalLines, s.keptLines),
        omittedBytes: originalBytes - carried,
        omittedTokens: Math.max(0, originalTokens - keptTokens),
      };
    };
    let room = b.bytes;
    let cut: Cut;
    let text: string;
    // Re-planned only when the measured text is over: exact token counts are not additive, and
    // invalid UTF-8 in a byte stream decodes longer than it was.
    for (let attempt = 0; ; attempt++) {
      cut = planCut(w, {
        bytes: room,
        lines: b.lines,
        headRatio: headRatioOf(step),
        marker: this.spec.marker ?? DEFAULT_MARKER,
        upper,
        ansiReset: this.sawEscape && !applied.includes('ansi_strip'),
      }, valuesFor);
      text = cut.head.toString('utf8') + cut.marker + cut.tail.toString('utf8');
      const bytes = Buffer.byteLength(text, 'utf8');
      const tokens = b.tokens === undefined ? 0 : est.count(text, bytes);
      if (bytes <= b.bytes && tokens <= (b.tokens ?? 0) || room === 0 || attempt > 64) break;
      const byTokens = b.tokens !== undefined && tokens > b.tokens ? Math.floor((room * b.tokens / tokens) * 0.97) : room;
      const byBytes = bytes > b.bytes ? room - (bytes - b.bytes) : room;
      room = Math.max(0, Math.min(room - 1, byTokens, byBytes));
    }
    const head = cut.head.toString('utf8');
    const tail = cut.tail.toString('utf8');
    const addedBytes = Buffer.byteLength(cut.marker, 'utf8') + cut.addedInParts;
    return {
      compressed: true,
      text,
      head,
      marker: cut.marker,
      tail,
      exactSlices: applied.length === 0,
      addedBytes,
      sha256,
      stats: stats(text, [...applied, step.type], addedBytes, cut.keptLines),
    };
  }
}
