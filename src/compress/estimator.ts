// Token estimators. `bytes4` is ceil(UTF-8 bytes / 4), what Codex budgets with (see
// docs/compression.md#where-the-default-specs-come-from: within −12 %/+7 % of o200k on tool outputs, at Buffer.byteLength speed). `exact` counts o200k
// tokens with the optional `gpt-tokenizer` dependency (~10 MB/s), loaded on demand.
import type { TokenEstimator as EstimatorId } from '../contract/index.js';
import { NL, boundaryBack } from './bytes.js';

export interface TokenCounter {
  readonly id: EstimatorId;
  /** Tokens of `text`; `bytes` is its UTF-8 length when the caller already knows it. */
  count(text: string, bytes?: number): number;
}

export const bytes4Estimator: TokenCounter = {
  id: 'bytes4',
  count: (text, bytes = Buffer.byteLength(text, 'utf8')) => Math.ceil(bytes / 4),
};

/** The module that provides exact counts; a variable so the dependency stays optional at build time. */
export const EXACT_MODULE = 'gpt-tokenizer/encoding/o200k_base';

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;
export type ModuleImporter = (specifier: string) => Promise<unknown>;

let exactEstimator: TokenCounter | undefined;

export class EstimatorUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `the "exact" token estimator needs the optional dependency gpt-tokenizer, which could not be loaded (${detail}). ` +
        'Install it with `npm install gpt-tokenizer`, or use the "bytes4" estimator.',
    );
    this.name = 'EstimatorUnavailableError';
  }
}

/** Loads gpt-tokenizer once; afterwards `estimatorFor('exact')` works synchronously. */
export async function loadExactEstimator(importer?: ModuleImporter): Promise<TokenCounter> {
  if (exactEstimator && !importer) return exactEstimator;
  let mod: { countTokens?: unknown };
  try {
    mod = (await (importer ?? ((s: string) => import(s)))(EXACT_MODULE)) as { countTokens?: unknown };
  } catch (err) {
    throw new EstimatorUnavailableError((err as Error).message.split('\n')[0] ?? String(err));
  }
  if (typeof mod.countTokens !== 'function') throw new EstimatorUnavailableError(`${EXACT_MODULE} has no countTokens function`);
  const countTokens = mod.countTokens as CountTokens;
  // Tool output may contain special-token text such as <|endoftext|>: count it as plain text.
  const options = { disallowedSpecial: new Set<string>() };
  exactEstimator = { id: 'exact', count: (text) => (text === '' ? 0 : countTokens(text, options)) };
  return exactEstimator;
}

export function exactEstimatorLoaded(): boolean {
  return exactEstimator !== undefined;
}

/** The estimator for an id, synchronously; `exact` must have been loaded first. */
export function estimatorFor(id: EstimatorId = 'bytes4'): TokenCounter {
  if (id === 'bytes4') return bytes4Estimator;
  if (!exactEstimator) {
    throw new EstimatorUnavailableError('it was not loaded yet: await loadExactEstimator() or DeclarativeCompressor.create() first');
  }
  return exactEstimator;
}

const COUNT_CHUNK = 64 * 1024;
const COUNT_HARD_LIMIT = 1024 * 1024;

/**
 * Counts tokens of a stream in pieces, split at the first newline after every 64 KiB (or at a
 * code point after 1 MiB without one). The split points depend only on the text, not on how it
 * was chunked, so a string and the same bytes streamed give the same count.
 */
export class ChunkedTokenCounter {
  total = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly estimator: TokenCounter) {}

  push(buf: Buffer): void {
    if (buf.length === 0) return;
    this.pendingBytes += buf.length;
    if (this.pendingBytes < COUNT_CHUNK) {
      this.pending.push(Buffer.from(buf)); // the caller may reuse its buffer
      return;
    }
    this.pending.push(buf);
    let all = Buffer.concat(this.pending, this.pendingBytes);
    let start = 0;
    for (;;) {
      if (all.length - start < COUNT_CHUNK) break;
      const nl = all.indexOf(NL, start + COUNT_CHUNK - 1);
      let cut: number;
      if (nl !== -1 && nl - start < COUNT_HARD_LIMIT) cut = nl + 1;
      else if (all.length - start >= COUNT_HARD_LIMIT) cut = Math.max(start + 1, boundaryBack(all, start + COUNT_HARD_LIMIT));
      else break;
      this.total += this.estimator.count(all.toString('utf8', start, cut), cut - start);
      start = cut;
    }
    all = all.subarray(start);
    this.pending = all.length ? [all] : [];
    this.pendingBytes = all.length;
  }

  end(): number {
    if (this.pendingBytes) this.total += this.estimator.count(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'), this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return this.total;
  }
}
