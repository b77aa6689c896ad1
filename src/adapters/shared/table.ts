// Tables looked up with strings that come from input (tool names, item types, methods, statuses).
// A plain object literal answers `TABLE["constructor"]` with Object.prototype's function, which
// the callers then ran as a rule ("rule.title is not a function") or emitted as a kind. Dropping
// the prototype keeps the literal's syntax and makes every key not written in it undefined.

/** Removes the prototype of each table in place: only the table's own keys answer a lookup. */
export function ownKeysOnly(...tables: object[]): void {
  for (const t of tables) Object.setPrototypeOf(t, null);
}

/** `table[key]` when `key` is one of the table's own keys, else undefined (for tables left as they are). */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
