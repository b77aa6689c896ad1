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
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isSkipped(a) || isSkipped(b)) return isSkipped(a) && isSkipped(b);
  if ((typeof a === 'object' && a !== null && !isPlain(a)) || (typeof b === 'object' && b !== null && !isPlain(b))) return JSON.stringify(a) === JSON.stringify(b);
  if (isJsonNull(a) || isJsonNull(b)) return isJsonNull(a) && isJsonNull(b);
  if (typeof a !== 'object' || typeof b !== 'object') return false; // unequal strings, booleans or finite numbers
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(element(x[i]), element(y[i]))) return false;
    return true;
  }
  return sameObject(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** Same written keys, in the same order, with the same values. */
function sameObject(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && isSkipped(a[ka[i]!])) i++;
    while (j < kb.length && isSkipped(b[kb[j]!])) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j] || !sameJson(a[ka[i]!], b[kb[j]!])) return false;
    i++;
    j++;
  }
}
