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

/**
 * Keys whose values have a typed shape (docs/contract.md#substance). A marker object in their
 * place would break the shape, so they lose only string leaves (a diff, a long command), and
 * only once the open keys have nothing left to give.
 */
const TYPED = new Set(['files', 'command', 'search', 'plan', 'approval', 'read']);

const pointer = (path: string, k: string | number) => `${path}/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The largest member of one container (the contract's fixed and typed keys skipped at the root). */
function largestChild(value: Container, path: string): Blob | undefined {
  let best: Blob | undefined;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (path === '' && typeof k === 'string' && (PROTECTED.has(k) || TYPED.has(k))) continue;
    const s = byteSize(v);
    if (!best || s > best.size) best = { parent: value, key: k, path: pointer(path, k), size: s };
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

const isMarker = (v: unknown) => typeof v === 'string' && v.startsWith('[omitted by toolnorm: ');

/**
 * A file change's diff while both its texts are still whole (the diff can be rebuilt from them),
 * else the longest string inside the typed keys that is not already a marker.
 */
function largestTypedString(root: Record<string, unknown>): Blob | undefined {
  let diff: Blob | undefined;
  if (Array.isArray(root.files)) {
    root.files.forEach((f: Record<string, unknown>, i) => {
      if (!f || typeof f.diff !== 'string' || isMarker(f.diff) || typeof f.newText !== 'string' || isMarker(f.newText) || isMarker(f.oldText)) return;
      const size = byteSize(f.diff);
      if (size >= 64 && (!diff || size > diff.size)) diff = { parent: f, key: 'diff', path: `/files/${i}/diff`, size };
    });
  }
  if (diff) return diff;
  let best: Blob | undefined;
  const stack: { parent: Container; key: string | number; path: string }[] = [];
  for (const k of TYPED) if (root[k] !== undefined) stack.push({ parent: root, key: k, path: pointer('', k) });
  while (stack.length) {
    const at = stack.pop()!;
    const v = at.parent[at.key as never] as unknown;
    if (typeof v === 'string') {
      if (isMarker(v)) continue;
      const size = byteSize(v);
      if (!best || size > best.size) best = { ...at, size };
    } else if (v && typeof v === 'object') {
      const c = v as Container;
      for (const k of Array.isArray(c) ? c.keys() : Object.keys(c)) stack.push({ parent: c, key: k, path: pointer(at.path, k) });
    }
  }
  return best;
}

/** The typed list (`files`, `plan.entries`, `search.paths`) with the most bytes, when one has entries. */
function longestTypedList(root: Record<string, unknown>): { items: unknown[]; path: string } | undefined {
  const lists: { items: unknown; path: string }[] = [
    { items: root.files, path: '/files' },
    { items: (root.plan as { entries?: unknown } | undefined)?.entries, path: '/plan/entries' },
    { items: (root.search as { paths?: unknown } | undefined)?.paths, path: '/search/paths' },
  ];
  let best: { items: unknown[]; path: string; size: number } | undefined;
  for (const l of lists) {
    if (!Array.isArray(l.items) || l.items.length === 0) continue;
    const size = byteSize(l.items);
    if (!best || size > best.size) best = { items: l.items, path: l.path, size };
  }
  return best;
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
    let blob = largestBlob(copy, '', size);
    if (!blob || blob.size < 64) blob = largestTypedString(copy);
    if (blob && blob.size >= 64) {
      const original = blob.parent[blob.key as never] as unknown;
      (blob.parent as Record<string | number, unknown>)[blob.key] = omittedMarker(original, blob.size);
      notes.push({ path: `${pathPrefix}${blob.path}`, originalBytes: blob.size, reason: `metadata budget of ${limit} bytes` });
    } else {
      // Only typed entries are left (many files, a long plan): the last entry of the longest list
      // goes, and the note says where it was, so the list stays in shape and says it is short.
      const list = longestTypedList(copy);
      if (!list) break;
      const gone = list.items.pop();
      // One note per cut list (a note per entry would outgrow the entries it replaces): it points
      // at the first entry removed and counts every removed byte.
      const cut = `${pathPrefix}${list.path}/`;
      const prev = notes.find((n) => n.path.startsWith(cut) && n.reason?.includes('removed from the list'));
      const removed = (prev ? Number(/(\d+) entr/.exec(prev.reason!)![1]) : 0) + 1;
      const note = { path: `${cut}${list.items.length}`, originalBytes: (prev?.originalBytes ?? 0) + byteSize(gone), reason: `metadata budget of ${limit} bytes: ${removed} ${removed === 1 ? 'entry' : 'entries'} removed from the list, from here to its end` };
      if (prev) Object.assign(prev, note);
      else notes.push(note);
    }
    // The notes are part of what is measured: they go into the same metadata.
    size = byteSize(copy) + (notes.length ? byteSize(notes) + 14 : 0);
  }
  const prior = Array.isArray(copy.truncated) ? (copy.truncated as TruncationNote[]) : [];
  copy.truncated = [...prior, ...notes];
  return { metadata: copy as ToolMetadata, truncated: notes };
}
