// The depth rule. JSON.parse takes any depth, but everything after it does not: JSON.stringify,
// structuredClone and the ACP/JSON-Schema validators all recurse natively and overflow the stack
// somewhere past 3,000 levels, which killed a whole run over one valid 10 KB line. So every JSON
// value read from input is cut at MAX_INPUT_DEPTH levels, counted from the root of what was parsed
// (the line, or an embedded JSON string such as Codex `arguments`), before any adapter code sees
// it: an array or object that would sit deeper is replaced by a string marker, and the line gets
// one `depth_limited` diagnostic naming the first cut. Everything downstream is then bounded by
// this constant, whatever the input. The cut uses an explicit stack; the check recurses at most
// MAX_INPUT_DEPTH + 1 calls deep.

/** Levels kept below the parsed root; real recordings stay under 30. */
export const MAX_INPUT_DEPTH = 256;

export const DEPTH_DIAGNOSTIC = 'depth_limited';

export const depthMarker = (max: number): string => `[cut by toolnorm: nested deeper than ${max} levels]`;

export interface DepthCut {
  /** Containers replaced by the marker. */
  cuts: number;
  /** JSON pointer (from the parsed root) of the first container replaced. */
  path: string;
}

type Container = Record<string, unknown> | unknown[];

/**
 * True when some container sits deeper than `max` levels below `value`. This runs on every parsed
 * line, so it is a plain recursion (twice as fast as a walk with explicit stacks on the bench
 * input), and safe as one: it never goes more than `max` + 1 calls deep, whatever the input's depth.
 */
export function exceedsDepth(value: unknown, max = MAX_INPUT_DEPTH): boolean {
  return typeof value === 'object' && value !== null && !within(value as Container, max);
}

/** Whether no container sits more than `room` levels below `v`. */
function within(v: Container, room: number): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object' && x !== null && (room === 0 || !within(x as Container, room - 1))) return false;
    }
    return true;
  }
  for (const k in v) {
    const x = v[k];
    if (typeof x === 'object' && x !== null && (room === 0 || !within(x as Container, room - 1))) return false;
  }
  return true;
}

const pointerToken = (k: string | number): string => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Cuts `value` in place (it must be freshly parsed, owned by the caller) so no container sits deeper
 * than `max` levels. Returns undefined when nothing was cut.
 */
export function cutDepth(value: unknown, max = MAX_INPUT_DEPTH): DepthCut | undefined {
  if (!exceedsDepth(value, max)) return undefined;
  const marker = depthMarker(max);
  let cuts = 0;
  let first = '';
  const stack: { v: Container; d: number; path: string }[] = [{ v: value as Container, d: 0, path: '' }];
  while (stack.length) {
    const { v, d, path } = stack.pop()!;
    const visit = (k: string | number, x: unknown, set: (m: string) => void) => {
      if (typeof x !== 'object' || x === null) return;
      if (d + 1 > max) {
        if (cuts++ === 0) first = `${path}/${pointerToken(k)}`;
        set(marker);
      } else {
        stack.push({ v: x as Container, d: d + 1, path: `${path}/${pointerToken(k)}` });
      }
    };
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) visit(i, v[i], (m) => { v[i] = m; });
    // defineProperty: an own `__proto__` key must stay a key, not become the prototype.
    else for (const k of Object.keys(v)) visit(k, v[k], (m) => { Object.defineProperty(v, k, { value: m, writable: true, enumerable: true, configurable: true }); });
  }
  return { cuts, path: first };
}

/** What a `depth_limited` diagnostic says. */
export const depthMessage = (cut: DepthCut, what = 'the line'): string =>
  `${what} nests JSON deeper than ${MAX_INPUT_DEPTH} levels: ${cut.cuts} value${cut.cuts === 1 ? ' was' : 's were'} replaced by "${depthMarker(MAX_INPUT_DEPTH)}", the first at ${shortPointer(cut.path)}`;

/** A pointer hundreds of levels long, shown by its two ends. */
const shortPointer = (path: string): string => (path.length > 160 ? `${path.slice(0, 100)}…${path.slice(-40)}` : path);

/**
 * Cuts that no caller could report where they happened (JSON embedded in a string field, parsed
 * deep inside an adapter). Parsing is synchronous, so the pipeline takes them right after the
 * adapter returns from the line and reports them against it.
 */
const unreported: DepthCut[] = [];

/** The cuts made since the last call, oldest first. */
export function takeDepthCuts(): DepthCut[] {
  return unreported.length ? unreported.splice(0) : [];
}

/** Applies the rule to a parsed value; a cut goes to `onCut`, or else waits for takeDepthCuts. */
export function boundDepth<T>(value: T, onCut?: (cut: DepthCut) => void): T {
  if (typeof value === 'object' && value !== null) {
    const cut = cutDepth(value);
    if (cut) {
      if (onCut) onCut(cut);
      else unreported.push(cut);
    }
  }
  return value;
}

/** JSON.parse plus the depth rule. Throws what JSON.parse throws. */
export const parseBounded = (text: string, onCut?: (cut: DepthCut) => void): unknown => boundDepth(JSON.parse(text) as unknown, onCut);
