// Generational map/set that forget old entries, so correlation state (an adapter's calls, the
// pipeline's retired ids) stays bounded on inputs of any size. Entries live in a young generation;
// when it is full it becomes the old one and the previous old one is dropped, so between `limit`
// and 2×`limit` recent entries are kept, with O(1) work per operation.
export class BoundedMap<K, V extends NonNullable<unknown>> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  /** `onEvict` hears of each entry forgotten when a generation is dropped (not of deletes). */
  constructor(private readonly limit: number, private readonly onEvict?: (key: K, value: V) => void) {}

  // Values are never undefined here, so one lookup per generation answers get and has. Most of
  // these maps never fill a generation (or stay empty), and a lookup that misses in a large map is
  // a cache miss, so empty generations are not searched.
  get(key: K): V | undefined {
    const v = this.young.size !== 0 ? this.young.get(key) : undefined;
    return v !== undefined || this.old.size === 0 ? v : this.old.get(key);
  }

  has(key: K): boolean {
    return (this.young.size !== 0 && this.young.has(key)) || (this.old.size !== 0 && this.old.has(key));
  }

  /** A key set again shadows its old-generation entry, which then simply ages out. */
  set(key: K, value: V): this {
    this.young.set(key, value);
    if (this.young.size >= this.limit) {
      if (this.onEvict) for (const [k, v] of this.old) if (!this.young.has(k)) this.onEvict(k, v);
      this.old = this.young;
      this.young = new Map();
    }
    return this;
  }

  delete(key: K): boolean {
    const a = this.young.delete(key);
    const b = this.old.delete(key);
    return a || b;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const e of this.old) if (!this.young.has(e[0])) yield e;
    yield* this.young.entries();
  }
}

export class BoundedSet<T> {
  private young = new Set<T>();
  private old = new Set<T>();
  constructor(private readonly limit: number) {}

  has(v: T): boolean {
    return (this.young.size !== 0 && this.young.has(v)) || (this.old.size !== 0 && this.old.has(v));
  }

  /** Adds `v`; false when it was already there. One lookup while the old generation is empty. */
  add(v: T): boolean {
    const before = this.young.size;
    this.young.add(v);
    if (this.young.size === before) return false;
    // Present only in the old generation: it is now young again, and was not new.
    const added = this.old.size === 0 || !this.old.has(v);
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Set();
    }
    return added;
  }
}
