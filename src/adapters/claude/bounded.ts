// Insertion-ordered map/set that forget their oldest entries past a limit, so the adapter's
// correlation state stays bounded on inputs of any size.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
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
