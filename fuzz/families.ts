// The mutation families of `npm run fuzz` and of the fuzz property suite (test/robustness/fuzz.test.ts):
// one definition, so what the tool finds the suite keeps finding. A case is a window of
// consecutive recorded lines, mutated by one family into a few output lines (bytes, since some
// families write invalid UTF-8). Randomness comes from a seeded generator, so a case is fully
// given by (seed, family, window).

export const FAMILIES = [
  'delete', 'typeSwap', 'truncate', 'duplicate', 'reorder', 'protoNames', 'deepNesting', 'nonFinite',
  'invalidUtf8', 'loneSurrogate', 'hugeString', 'resultBeforeCall', 'conflictingRepeat', 'times',
] as const;
export type Family = (typeof FAMILIES)[number];

export const PROTO_NAMES = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', 'prototype', 'isPrototypeOf'];

export interface Sizes {
  /** Nesting depth of the deepNesting family (the depth rule cuts at 256). */
  deep: number;
  /** Characters of the hugeString family. */
  huge: number;
}

export const TOOL_SIZES: Sizes = { deep: 5000, huge: 1 << 20 };

export type Rand = () => number;

/** A seeded LCG: the same seed gives the same case. */
export function rng(seed: number): Rand {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

/** Every path in a value, containers included, walked without recursion (capped for big lines). */
function paths(v: Json, max = 2000): Path[] {
  const out: Path[] = [];
  const stack: [Json, Path][] = [[v, []]];
  while (stack.length && out.length < max) {
    const [x, p] = stack.pop()!;
    if (p.length) out.push(p);
    if (x && typeof x === 'object') {
      if (Array.isArray(x)) x.forEach((c, i) => stack.push([c, [...p, i]]));
      else for (const k of Object.keys(x)) stack.push([x[k]!, [...p, k]]);
    }
  }
  return out;
}

function parentOf(root: Json, path: Path): { parent: Record<string | number, Json>; key: string | number } {
  let cur = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, Json>;
  return { parent: cur, key: path[path.length - 1]! };
}

const set = (parent: Record<string | number, Json>, key: string | number, value: Json) =>
  Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });

const parse = (line: string): Json | undefined => {
  try {
    return JSON.parse(line) as Json;
  } catch {
    return undefined;
  }
};

/** A placeholder replaced in the serialized line by raw JSON text that JSON.stringify cannot write. */
const TOKEN = '\u0000toolnorm-fuzz\u0000';
const withRaw = (root: Json, raw: string): string => JSON.stringify(root).replace(JSON.stringify(TOKEN), raw);

function swapType(v: Json, rand: Rand): Json {
  const options: Json[] = [null, true, 0, -1, 1.5, '', 'x', [], {}, [v], { v }];
  const kind = (x: Json) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
  const others = options.filter((o) => kind(o) !== kind(v));
  return pick(rand, others);
}

/** Fields that hold a time or a duration in some provider's lines. */
const TIME_KEY = /^(?:timestamp|time|created|start|end|completed|ran|compacted|pruned|updated|emittedAtMs|startedAtMs|completedAtMs|started_at_ms|completed_at_ms|startedAt|completedAt|started_at|completed_at|elapsedMs|elapsed_time_seconds|durationMs|duration_ms)$/;

/**
 * What the times family writes into such a field (issue 29): before 1970, a mutated year (0001,
 * past a Date's range, six digits without a sign), garbage, and numbers at and past the range.
 */
const ODD_TIMES: Json[] = [
  '1969-07-20T20:17:40.000Z', '0001-01-01T00:00:00.000Z', '+275761-01-01T00:00:00.000Z', '275760-11-30T07:41:59.608Z',
  '-271821-04-19T00:00:00.000Z', '2026-13-45T99:99:99.999Z', 'yesterday', '1', '',
  -1, -14182940000, -62135596800000, 8.64e15, 8.64e15 + 1, -8.64e15 - 1, 1e21, -1e11, 0, 1.5,
];

/** One JSON line mutated at a random path, or undefined when the line is not JSON. */
function mutateJson(line: string, family: Family, rand: Rand, sizes: Sizes): string | undefined {
  const root = parse(line);
  if (root === undefined || root === null || typeof root !== 'object') return undefined;
  const all = paths(root);
  if (!all.length) return undefined;
  const path = pick(rand, all);
  const { parent, key } = parentOf(root, path);
  const old = parent[key]!;
  switch (family) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return JSON.stringify(root);
    case 'typeSwap':
    case 'conflictingRepeat':
      set(parent, key, swapType(old, rand));
      return JSON.stringify(root);
    case 'protoNames': {
      const name = pick(rand, PROTO_NAMES);
      // A string value becomes the name; an object key is renamed to it.
      const strings = all.filter((p) => typeof parentOf(root, p).parent[p[p.length - 1]!] === 'string');
      if (strings.length && rand() < 0.7) {
        const sp = pick(rand, strings);
        const at = parentOf(root, sp);
        set(at.parent, at.key, name);
      } else if (!Array.isArray(parent)) {
        delete parent[key];
        set(parent, name, old);
      }
      return JSON.stringify(root);
    }
    case 'deepNesting':
      set(parent, key, TOKEN);
      return withRaw(root, `${'['.repeat(sizes.deep)}${JSON.stringify(old)}${']'.repeat(sizes.deep)}`);
    case 'nonFinite': {
      const numbers = all.filter((p) => typeof parentOf(root, p).parent[p[p.length - 1]!] === 'number');
      const at = numbers.length ? parentOf(root, pick(rand, numbers)) : { parent, key };
      set(at.parent, at.key, TOKEN);
      return withRaw(root, pick(rand, ['1e308', '-1e308', '1e999', '-1e999', '5e-324', '1.7976931348623157e308']));
    }
    case 'loneSurrogate': {
      const strings = all.filter((p) => typeof parentOf(root, p).parent[p[p.length - 1]!] === 'string');
      const at = strings.length ? parentOf(root, pick(rand, strings)) : { parent, key };
      const s = typeof at.parent[at.key] === 'string' ? (at.parent[at.key] as string) : '';
      const cut = Math.floor(rand() * (s.length + 1));
      // Escaped, so the file holds the lone surrogate itself (raw, it would be written as U+FFFD).
      set(at.parent, at.key, TOKEN);
      return withRaw(root, JSON.stringify(s.slice(0, cut)).slice(0, -1) + pick(rand, ['\\ud800', '\\udfff', '\\ud83d', '\\ude00\\ud800']) + JSON.stringify(s.slice(cut)).slice(1));
    }
    case 'times': {
      const times = all.filter((p) => TIME_KEY.test(String(p[p.length - 1])));
      const at = times.length ? parentOf(root, pick(rand, times)) : { parent, key };
      set(at.parent, at.key, pick(rand, ODD_TIMES));
      return JSON.stringify(root);
    }
    case 'hugeString': {
      const strings = all.filter((p) => typeof parentOf(root, p).parent[p[p.length - 1]!] === 'string');
      const at = strings.length ? parentOf(root, pick(rand, strings)) : { parent, key };
      set(at.parent, at.key, 'ab\ncd '.repeat(Math.ceil(sizes.huge / 6)).slice(0, sizes.huge));
      return JSON.stringify(root);
    }
    default:
      return undefined;
  }
}

const enc = (s: string) => Buffer.from(s, 'utf8');
const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28], [0xe2, 0x82], [0x80]];

/** Words that mark a line as a tool result, for resultBeforeCall. */
const RESULT_WORDS = /tool_result|function_call_output|"completed"|tool_call_update|item\.completed|"status":"completed"|"output"/;

/**
 * Mutates `window` (consecutive recorded lines) with `family`. Always returns at least one line
 * and never a line containing a newline byte.
 */
export function mutateCase(window: readonly string[], family: Family, rand: Rand, sizes: Sizes): Buffer[] {
  const lines = [...window];
  const i = Math.floor(rand() * lines.length);
  const line = lines[i]!;
  switch (family) {
    case 'truncate': {
      const b = enc(line);
      lines[i] = ''; // replaced below by bytes
      const cut = Math.max(1, Math.floor(rand() * b.length));
      return lines.map((l, j) => (j === i ? b.subarray(0, cut) : enc(l)));
    }
    case 'duplicate': {
      const n = 1 + Math.floor(rand() * 3);
      lines.splice(i, 0, ...Array<string>(n).fill(line));
      return lines.map(enc);
    }
    case 'reorder': {
      for (let k = lines.length - 1; k > 0; k--) {
        const j = Math.floor(rand() * (k + 1));
        [lines[k], lines[j]] = [lines[j]!, lines[k]!];
      }
      return lines.map(enc);
    }
    case 'resultBeforeCall': {
      const results = lines.filter((l) => RESULT_WORDS.test(l));
      const rest = lines.filter((l) => !RESULT_WORDS.test(l));
      return [...results, ...rest].map(enc);
    }
    case 'invalidUtf8': {
      const b = enc(line);
      const at = Math.floor(rand() * (b.length + 1));
      const bad = Buffer.from(pick(rand, INVALID_UTF8));
      return lines.map((l, j) => (j === i ? Buffer.concat([b.subarray(0, at), bad, b.subarray(at)]) : enc(l)));
    }
    case 'conflictingRepeat': {
      // The same line again with one value changed: the same ids with conflicting content.
      const other = mutateJson(line, 'conflictingRepeat', rand, sizes);
      lines.splice(i + 1, 0, other ?? line);
      return lines.map(enc);
    }
    default: {
      const mutated = mutateJson(line, family, rand, sizes);
      if (mutated !== undefined) lines[i] = mutated;
      else if (line.length) lines[i] = line.slice(0, Math.max(1, Math.floor(rand() * line.length)));
      return lines.map(enc);
    }
  }
}

const CALL_ID = /\b(?:srvtoolu_|toolu_|call_|item_|prt_)[A-Za-z0-9_]+/g;

/** A case from a seed: the family, the window and the mutation all follow from it. */
export function caseFor(corpus: readonly string[], seed: number, sizes: Sizes, family?: Family, windowSize = 4): { family: Family; lines: Buffer[] } {
  const rand = rng(seed);
  const f = family ?? pickFamily(rand);
  const start = Math.floor(rand() * corpus.length);
  // Call ids made the case's own, so each case opens its calls afresh instead of repeating others'.
  const tag = `_f${seed.toString(36)}`;
  const window = corpus.slice(start, start + windowSize).map((l) => l.replace(CALL_ID, (id) => id + tag));
  return { family: f, lines: mutateCase(window.length ? window : [corpus[0]!], f, rand, sizes) };
}

/** Every family equally often, but hugeString rarely (it writes megabytes). */
export function pickFamily(rand: Rand): Family {
  if (rand() < 0.01) return 'hugeString';
  const rest = FAMILIES.filter((f) => f !== 'hugeString');
  return pick(rand, rest);
}
