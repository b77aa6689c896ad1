// Generational map/set that forget old entries, so the adapter's correlation state stays bounded
// on inputs of any size. Entries live in a young generation; when it is full it becomes the old
// one and the previous old one is dropped, so between `limit` and 2×`limit` recent entries are
// kept, with O(1) work per operation.
export class BoundedMap<K, V extends NonNullable<unknown>> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  constructor(private readonly limit: number) {}

  // Values are never undefined here, so one lookup per generation answers get and has.
  get(key: K): V | undefined {
    const v = this.young.get(key);
    return v !== undefined ? v : this.old.get(key);
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** A key set again shadows its old-generation entry, which then simply ages out. */
  set(key: K, value: V): this {
    this.young.set(key, value);
    if (this.young.size >= this.limit) {
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
  private readonly map: BoundedMap<T, true>;
  constructor(limit: number) {
    this.map = new BoundedMap(limit);
  }
  has(v: T): boolean {
    return this.map.has(v);
  }
  /** Adds `v`; false when it was already there. */
  add(v: T): boolean {
    if (this.map.has(v)) return false;
    this.map.set(v, true);
    return true;
  }
}
