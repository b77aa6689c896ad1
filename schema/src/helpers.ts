// Small builders that keep the emitted JSON in the shape every consumer can read (see DESIGN.md
// "Emitted JSON rules"): enums as `enum`, discriminated unions as `oneOf` + `discriminator`, and
// every cross-reference as a `#/$defs/Name` pointer instead of TypeBox's bare-id `Type.Ref`.
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** A string enum emitted as `{type:"string", enum:[…]}` rather than TypeBox's `anyOf` of consts. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description: string; title?: string }) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A discriminated union. ajv's `discriminator` only works on `oneOf` with `type: "object"` beside
 * it; TypeBox's `Type.Union` emits `anyOf`, so the union is written by hand and keeps its static type.
 */
export function OneOf<T extends TSchema[]>(tag: string, schemas: [...T], options: { description: string; title?: string }) {
  return Type.Unsafe<Static<T[number]>>({ ...options, type: 'object', oneOf: schemas, discriminator: { propertyName: tag } });
}

/** Names registered with `def()`; the emitter writes them into `$defs` in this order. */
export const registry = new Map<string, TSchema>();

/**
 * Registers a named definition and returns a `$ref` to it that still carries the static type.
 * Every definition must carry a description: the emitter refuses to write one that doesn't.
 */
export function def<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> & { readonly target: T } {
  if (registry.has(name)) throw new Error(`schema: $defs/${name} is defined twice`);
  registry.set(name, schema);
  const ref = Type.Unsafe<Static<T>>({ $ref: `#/$defs/${name}` }) as TUnsafe<Static<T>> & { target: T };
  Object.defineProperty(ref, 'target', { value: schema, enumerable: false });
  return ref;
}

export const NonEmpty = (description: string) => Type.String({ minLength: 1, description });
/**
 * The range of a JavaScript Date, ±8.64e15 ms around 1970-01-01 (years −271821 to 275760): every
 * instant any client can turn into a date. Times before 1970 are negative and valid: a provider's
 * recorded time is kept whatever year it says (docs/contract.md#times).
 */
export const MAX_EPOCH_MS = 8.64e15;
/** A point in time, epoch milliseconds, before 1970 too. Durations are not instants: see `Count` and `elapsedMs`. */
export const EpochMs = (description: string) => Type.Number({ minimum: -MAX_EPOCH_MS, maximum: MAX_EPOCH_MS, description });
export const Count = (description: string) => Type.Integer({ minimum: 0, description });
