// Readers of untyped JSON fields, the one definition of each: provider lines and frames are
// read leniently, and a field of the wrong type reads as absent (undefined), never as a throw.

export type Obj = Record<string, unknown>;

/** A plain object (not null, not an array). */
export const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
/** The same test as `obj`, as a type guard for conditions. */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const arr = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
/** Any string, the empty one too. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A string of at least one character. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
/** A string with something besides whitespace. */
export const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
/** A finite number. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A time or duration in ms: a finite number ≥ 0 (the contract rejects anything else). */
export const ms = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
/** An exit code: an integer. */
export const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
