// Spec rule 9: parts and events keep no giant raw provider blobs. Metadata over the budget has its
// largest blobs replaced by a size marker, and `metadata.truncated` says what went and how big it was.
import type { ToolMetadata, TruncationNote } from '../contract/index.js';

export const DEFAULT_METADATA_LIMIT = 16 * 1024;

/** Keys the contract gives a fixed shape; they are small by construction and never replaced. */
const PROTECTED = new Set(['provider', 'rawType', 'mcp', 'parentId', 'childSessionId', 'exitCode', 'truncated', 'compression', 'assessment']);

export const byteSize = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** The marker left where a value was: same JSON type family, so shape-checking consumers still parse it. */
export function omittedMarker(original: unknown, bytes: number): unknown {
  return typeof original === 'string' ? `[omitted by toolnorm: ${bytes} bytes]` : { omittedBytes: bytes };
}

/**
 * Worst-case escaping (`\uXXXX` for every unit). Counting the real escapes would tighten it but
 * costs a scan of every character; metadata is small, so the loose bound rarely comes near the
 * budget, and when it does an exact measurement follows.
 */
const jsonStringBound = (s: string): number => s.length * 6 + 2;

/**
 * An upper bound of `JSON.stringify(value).length`, or `cap + 1` as soon as it exceeds `cap`.
 * Several times cheaper than serializing: the reducer needs it for every event with metadata, and
 * only a bound that comes near the budget costs an exact measurement.
 */
export function jsonLengthBound(value: unknown, cap: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    switch (typeof v) {
      case 'string':
        total += jsonStringBound(v);
        break;
      case 'number':
        total += 25; // the longest number JSON.stringify writes: -0.0000010505242508290752 (sign, "0.", five zeros, 17 digits)
        break;
      case 'boolean':
        total += 5;
        break;
      case 'object':
        if (v === null) {
          total += 4;
        } else if (Array.isArray(v)) {
          total += 2 + v.length; // brackets and commas (a hole or undefined becomes null: counted via push)
          for (const x of v) stack.push(x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : x);
        } else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
          total += (JSON.stringify(v) ?? '').length;
        } else {
          total += 2;
          for (const k in v as Record<string, unknown>) {
            const x = (v as Record<string, unknown>)[k];
            if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
            total += jsonStringBound(k) + 2; // key, colon, comma
            stack.push(x);
          }
        }
        break;
      default:
        total += 4; // undefined at the top level or a bigint (which stringify rejects): never reached by contract data
    }
    if (total > cap) return cap + 1;
  }
  return total;
}

type Container = Record<string, unknown> | unknown[];

type Blob = { parent: Container; key: string | number; path: string; size: number };

/** The largest member of one container (the contract's fixed keys skipped at the root). */
function largestChild(value: Container, path: string): Blob | undefined {
  let best: Blob | undefined;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (path === '' && typeof k === 'string' && PROTECTED.has(k)) continue;
    const s = byteSize(v);
    if (!best || s > best.size) best = { parent: value, key: k, path: `${path}/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`, size: s };
  }
  return best;
}

/**
 * Finds the blob inside `value`: follow the largest child while it dominates its parent, then keep
 * the deepest one that still dominates the level above it. A loop over the chain, not recursion.
 */
function largestBlob(value: Container, path: string, size: number): Blob | undefined {
  const first = largestChild(value, path);
  if (!first) return undefined;
  const chain: Blob[] = [first];
  let tail: Blob | undefined;
  for (let above = size; ; ) {
    const best = chain[chain.length - 1]!;
    const child = best.parent[best.key as never] as unknown;
    if (!(child && typeof child === 'object' && best.size * 2 > above)) break;
    const next = largestChild(child as Container, best.path);
    if (!next) break;
    above = best.size;
    chain.push(next);
  }
  tail = chain.pop();
  while (chain.length) {
    const best = chain.pop()!;
    tail = tail && tail.size * 2 > best.size ? tail : best;
  }
  return tail;
}

export interface BudgetResult { metadata: ToolMetadata; truncated: TruncationNote[] }

/**
 * Returns metadata that fits `limit` serialized bytes (or is as small as the protected keys allow).
 * The input is never mutated.
 */
export function applyMetadataBudget(metadata: ToolMetadata, limit = DEFAULT_METADATA_LIMIT, pathPrefix = '/metadata'): BudgetResult {
  const json = JSON.stringify(metadata) ?? '';
  // A UTF-16 unit is at most 3 UTF-8 bytes: most metadata is clearly under budget without counting.
  if (json.length * 3 <= limit) return { metadata, truncated: [] };
  let size = Buffer.byteLength(json, 'utf8');
  if (size <= limit) return { metadata, truncated: [] };
  const copy = structuredClone(metadata) as Record<string, unknown>;
  const notes: TruncationNote[] = [];
  for (let guard = 0; size > limit && guard < 1000; guard++) {
    const blob = largestBlob(copy, '', size);
    if (!blob || blob.size < 64) break;
    const original = blob.parent[blob.key as never] as unknown;
    (blob.parent as Record<string | number, unknown>)[blob.key] = omittedMarker(original, blob.size);
    notes.push({ path: `${pathPrefix}${blob.path}`, originalBytes: blob.size, reason: `metadata budget of ${limit} bytes` });
    size = byteSize(copy);
  }
  const prior = Array.isArray(copy.truncated) ? (copy.truncated as TruncationNote[]) : [];
  copy.truncated = [...prior, ...notes];
  return { metadata: copy as ToolMetadata, truncated: notes };
}
