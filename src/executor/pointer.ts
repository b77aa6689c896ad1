// JSON pointers for param roles. `*` selects every element of an array (or every value of an
// object), so one role can cover `/paths/*`.
export type Segment = string;

/** Accepts `/a/b` or the shorthand `a` (a top-level param). Throws on a malformed pointer. */
export function parsePointer(pointer: string): Segment[] {
  const p = pointer.startsWith('/') ? pointer : `/${pointer}`;
  if (p === '/') throw new Error(`param pointer "${pointer}" names the whole input, not a parameter`);
  return p.slice(1).split('/').map((s) => {
    if (/~(?![01])/.test(s)) throw new Error(`param pointer "${pointer}" has a bad escape (~ must be ~0 or ~1)`);
    return s.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

export const formatPointer = (segments: readonly Segment[]): string =>
  segments.length ? `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` : '';

/** Every value the pointer selects, with its concrete pointer; absent optional params give none. */
export function select(value: unknown, segments: readonly Segment[], at: Segment[] = []): { pointer: string; value: unknown }[] {
  if (segments.length === 0) return [{ pointer: formatPointer(at), value }];
  if (value === null || typeof value !== 'object') return [];
  const [head, ...rest] = segments as [Segment, ...Segment[]];
  const container = value as Record<string, unknown>;
  if (head === '*') {
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(container);
    return keys.flatMap((k) => select(container[k], rest, [...at, k]));
  }
  if (!Object.prototype.hasOwnProperty.call(container, head)) return [];
  return select(container[head], rest, [...at, head]);
}
