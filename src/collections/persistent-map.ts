// A small persistent (immutable, structurally shared) hash map: a hash array mapped trie with
// 32-way branching. The reducer is pure, so each event returns a new session state; copying a
// plain Map per event would make replay quadratic in the number of parts.

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

// The reducer and the pipeline look up the same part id several times per event (get, then set;
// before and after applying), so the last hash is remembered.
let lastKey: string | undefined;
let lastHash = 0;

function hash(key: string): number {
  if (key === lastKey) return lastHash;
  // FNV-1a, 32 bit.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  lastKey = key;
  lastHash = h >>> 0;
  return lastHash;
}

/** Set by `set()`: whether the key was new (one traversal answers both questions). */
let added = false;

type Leaf<V> = { k: string; v: V; h: number };
type Collision<V> = { c: Leaf<V>[]; h: number };
type Branch<V> = { b: number; n: Node<V>[] };
type Node<V> = Leaf<V> | Collision<V> | Branch<V>;

const popcount = (x: number) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

function isBranch<V>(n: Node<V>): n is Branch<V> { return 'b' in n; }
function isCollision<V>(n: Node<V>): n is Collision<V> { return 'c' in n; }

function get<V>(node: Node<V> | undefined, key: string, h: number, shift: number): V | undefined {
  while (node) {
    if (isBranch(node)) {
      const bit = 1 << ((h >>> shift) & MASK);
      if (!(node.b & bit)) return undefined;
      node = node.n[popcount(node.b & (bit - 1))];
      shift += BITS;
    } else if (isCollision(node)) {
      return node.h === h ? node.c.find((l) => l.k === key)?.v : undefined;
    } else {
      return node.k === key ? node.v : undefined;
    }
  }
  return undefined;
}

function merge<V>(a: Leaf<V> | Collision<V>, b: Leaf<V>, shift: number): Node<V> {
  if (a.h === b.h) {
    const leaves = isCollision(a) ? [...a.c, b] : [a as Leaf<V>, b];
    return { c: leaves, h: a.h };
  }
  if (shift >= 32) return { c: [...(isCollision(a) ? a.c : [a as Leaf<V>]), b], h: a.h };
  const ia = (a.h >>> shift) & MASK;
  const ib = (b.h >>> shift) & MASK;
  if (ia === ib) return { b: 1 << ia, n: [merge(a, b, shift + BITS)] };
  return ia < ib ? { b: (1 << ia) | (1 << ib), n: [a, b] } : { b: (1 << ia) | (1 << ib), n: [b, a] };
}

function set<V>(node: Node<V> | undefined, leaf: Leaf<V>, shift: number): Node<V> {
  if (!node) {
    added = true;
    return leaf;
  }
  if (isBranch(node)) {
    const bit = 1 << ((leaf.h >>> shift) & MASK);
    const idx = popcount(node.b & (bit - 1));
    const n = node.n.slice();
    if (node.b & bit) n[idx] = set(n[idx], leaf, shift + BITS);
    else {
      n.splice(idx, 0, leaf);
      added = true;
    }
    return { b: node.b | bit, n };
  }
  if (isCollision(node)) {
    if (node.h === leaf.h) {
      const i = node.c.findIndex((l) => l.k === leaf.k);
      const c = node.c.slice();
      if (i >= 0) c[i] = leaf; else { c.push(leaf); added = true; }
      return { c, h: node.h };
    }
    added = true;
    return merge(node, leaf, shift);
  }
  if (node.k === leaf.k) return leaf;
  added = true;
  return merge(node, leaf, shift);
}

function remove<V>(node: Node<V> | undefined, key: string, h: number, shift: number): Node<V> | undefined {
  if (!node) return undefined;
  if (isBranch(node)) {
    const bit = 1 << ((h >>> shift) & MASK);
    if (!(node.b & bit)) return node;
    const idx = popcount(node.b & (bit - 1));
    const child = remove(node.n[idx], key, h, shift + BITS);
    if (child === node.n[idx]) return node;
    const n = node.n.slice();
    if (child) { n[idx] = child; return { b: node.b, n }; }
    n.splice(idx, 1);
    const b = node.b & ~bit;
    if (n.length === 0) return undefined;
    if (n.length === 1 && !isBranch(n[0]!)) return n[0];
    return { b, n };
  }
  if (isCollision(node)) {
    const c = node.c.filter((l) => l.k !== key);
    if (c.length === node.c.length) return node;
    return c.length === 1 ? c[0] : { c, h: node.h };
  }
  return node.k === key ? undefined : node;
}

function* walk<V>(node: Node<V> | undefined): Generator<[string, V]> {
  if (!node) return;
  if (isBranch(node)) for (const n of node.n) yield* walk(n);
  else if (isCollision(node)) for (const l of node.c) yield [l.k, l.v];
  else yield [node.k, node.v];
}

/** The map operations session state needs; PersistentMap and OwnedMap both provide them. */
export interface PartMap<V> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  /** The map with `key` set: a new one (PersistentMap) or this one, changed (OwnedMap). */
  set(key: string, value: V): PartMap<V>;
  delete(key: string): PartMap<V>;
  entries(): IterableIterator<[string, V]>;
  values(): IterableIterator<V>;
}

export class PersistentMap<V> implements PartMap<V> {
  static empty<V>(): PersistentMap<V> { return new PersistentMap<V>(undefined, 0); }

  private constructor(private readonly root: Node<V> | undefined, readonly size: number) {}

  get(key: string): V | undefined { return get(this.root, key, hash(key), 0); }

  has(key: string): boolean { return this.get(key) !== undefined; }

  /** Returns a new map; `this` is unchanged. Values must not be `undefined`. */
  set(key: string, value: V): PersistentMap<V> {
    added = false;
    const root = set(this.root, { k: key, v: value, h: hash(key) }, 0);
    return new PersistentMap(root, added ? this.size + 1 : this.size);
  }

  delete(key: string): PersistentMap<V> {
    const root = remove(this.root, key, hash(key), 0);
    return root === this.root ? this : new PersistentMap(root, this.size - 1);
  }

  *entries(): Generator<[string, V]> { yield* walk(this.root); }

  *values(): Generator<V> { for (const [, v] of walk(this.root)) yield v; }
}

/**
 * A mutable map behind the same interface: `set` and `delete` change it in place and return it.
 * For a session state owned by one consumer that never reads an older state again — the streaming
 * pipeline — where path copying is pure cost. Every older state shares the map and sees the
 * change, so the reducer's "inputs are never changed" promise does not hold for such states.
 * Also the map to use anywhere entries are set and deleted all the time (the ACP encoder's sent
 * views, OpenCode's calls in flight): see the note on memory below.
 */
export class OwnedMap<V> implements PartMap<V> {
  // Values live in a slot array, and the Map holds only slot numbers. Keyed straight by a Map under
  // constant set/delete churn, every rehash left the old hash table (once promoted to the old
  // generation) pointing at its records and at the next table, so until the next full GC each
  // young record, with its input and output, was kept alive by dead tables and promoted: 61 MB of
  // promotion per 100 MB of Claude input against 12 MB with slots, and half the scavenge time.
  private readonly index = new Map<string, number>();
  private readonly slots: (V | undefined)[] = [];
  private readonly free: number[] = [];

  get size(): number { return this.index.size; }

  /** Slots allocated: the most values held at once, not the number ever set. */
  get capacity(): number { return this.slots.length; }

  get(key: string): V | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.slots[i];
  }

  has(key: string): boolean { return this.index.has(key); }

  set(key: string, value: V): this {
    const i = this.index.get(key);
    if (i !== undefined) {
      this.slots[i] = value;
      return this;
    }
    const slot = this.free.length !== 0 ? this.free.pop()! : this.slots.length;
    this.slots[slot] = value;
    this.index.set(key, slot);
    return this;
  }

  delete(key: string): this {
    const i = this.index.get(key);
    if (i === undefined) return this;
    this.index.delete(key);
    this.slots[i] = undefined;
    this.free.push(i);
    return this;
  }

  /** In first-set order, like a Map. */
  *entries(): IterableIterator<[string, V]> {
    for (const [k, i] of this.index) yield [k, this.slots[i] as V];
  }

  *values(): IterableIterator<V> {
    for (const i of this.index.values()) yield this.slots[i] as V;
  }
}
