// Equality of JSON serializations without serializing. The ACP encoder diffs each part's view
// against the last one sent; stringifying both sides cost a fifth of a `--to acp` run, most of it
// on outputs that had not changed or whose size alone already differed.

/** Serializes as `null` inside JSON: null, and non-finite numbers. */
const isJsonNull = (v: unknown): boolean => v === null || (typeof v === 'number' && !Number.isFinite(v));

/** Dropped from objects by JSON.stringify (and `null` in arrays). */
const isSkipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * Arrays and plain objects without `toJSON`: what JSON.stringify writes member by member. Anything
 * else that is an object (a Date, a boxed string, a class with toJSON) is compared by serializing.
 */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** An array element as JSON.stringify writes it: skipped values become null. */
const element = (v: unknown): unknown => (isSkipped(v) ? null : v);

/**
 * `JSON.stringify(a) === JSON.stringify(b)`, key order included, without building either string.
 * Walks with an explicit stack of pending pairs: input depth never becomes call depth.
 */
export function sameJson(a0: unknown, b0: unknown): boolean {
  const stack: unknown[] = [a0, b0];
  while (stack.length) {
    const b = stack.pop();
    const a = stack.pop();
    if (a === b) continue;
    if (isSkipped(a) || isSkipped(b)) {
      if (isSkipped(a) && isSkipped(b)) continue;
      return false;
    }
    if ((typeof a === 'object' && a !== null && !isPlain(a)) || (typeof b === 'object' && b !== null && !isPlain(b))) {
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      return false;
    }
    if (isJsonNull(a) || isJsonNull(b)) {
      if (isJsonNull(a) && isJsonNull(b)) continue;
      return false;
    }
    if (typeof a !== 'object' || typeof b !== 'object') return false; // unequal strings, booleans or finite numbers
    const arrayA = Array.isArray(a);
    if (arrayA !== Array.isArray(b)) return false;
    if (arrayA) {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = x.length - 1; i >= 0; i--) stack.push(element(x[i]), element(y[i]));
    } else if (!pushMembers(a as Record<string, unknown>, b as Record<string, unknown>, stack)) {
      return false;
    }
  }
  return true;
}

/** Same written keys in the same order; their value pairs go on the stack. */
function pushMembers(a: Record<string, unknown>, b: Record<string, unknown>, stack: unknown[]): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && isSkipped(a[ka[i]!])) i++;
    while (j < kb.length && isSkipped(b[kb[j]!])) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j]) return false;
    stack.push(a[ka[i]!], b[kb[j]!]);
    i++;
    j++;
  }
}
