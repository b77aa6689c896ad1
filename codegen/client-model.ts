// A language-neutral reading of the emitted contract for the Go and Python generators: every
// named type (a `$defs` entry, or an inline subschema named by its title or by where it sits)
// with the facts a faithful round trip needs: which keys are required, which may be null, which
// objects are open, and which unions are tagged by a discriminator.

export type Scalar = 'string' | 'integer' | 'number' | 'boolean';

export type TypeRef =
  | { k: Scalar }
  | { k: 'unknown' }
  | { k: 'named'; name: string }
  | { k: 'array'; items: TypeRef }
  | { k: 'map'; values: TypeRef }
  | { k: 'nullable'; inner: TypeRef };

export interface Field {
  json: string;
  description?: string;
  type: TypeRef;
  required: boolean;
}

export type NamedType =
  | { kind: 'enum'; name: string; description?: string; values: string[] }
  | { kind: 'struct'; name: string; description?: string; fields: Field[]; consts: { json: string; value: string }[]; open: boolean }
  | { kind: 'union'; name: string; description?: string; tag: string; variants: { name: string; tag: string }[] }
  | { kind: 'scalars'; name: string; description?: string; branches: Scalar[] }
  | { kind: 'alias'; name: string; description?: string; target: TypeRef };

export interface ClientModel {
  /** Named types in a stable order: `$defs` order, each inline type right after its owner. */
  types: NamedType[];
  /** The `$defs` names, in order (the other named types are inline subschemas). */
  definitions: string[];
  byName: Map<string, NamedType>;
}

type Schema = Record<string, unknown>;

const SCALARS = new Set<string>(['string', 'integer', 'number', 'boolean']);
const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
/** An object with declared keys, or a closed one, is a struct; an open object with none is a map. */
const isStruct = (s: Schema) => s.type === 'object' && ((s.properties !== undefined && Object.keys(s.properties as object).length > 0) || s.additionalProperties === false);
const stable = (s: Schema) => JSON.stringify(s, (k, v) => (k === 'description' ? undefined : v));

export function buildClientModel(doc: Schema): ClientModel {
  const defs = doc.$defs as Record<string, Schema>;
  const types: NamedType[] = [];
  const byName = new Map<string, NamedType>();
  const inlineShapes = new Map<string, string>();

  const add = (t: NamedType) => {
    if (byName.has(t.name)) throw new Error(`client model: two types are named ${t.name}; give one of them another title`);
    byName.set(t.name, t);
    types.push(t);
  };

  /** Names an inline subschema: its title, else the place it sits. Identical titled shapes share one type. */
  const inlineName = (s: Schema, fallback: string): { name: string; fresh: boolean } => {
    const name = typeof s.title === 'string' ? s.title : fallback;
    const shape = stable(s);
    const seen = inlineShapes.get(name);
    if (seen !== undefined) {
      if (seen !== shape) throw new Error(`client model: title ${name} names two different shapes`);
      return { name, fresh: false };
    }
    if (byName.has(name)) throw new Error(`client model: inline title ${name} clashes with a definition`);
    inlineShapes.set(name, shape);
    return { name, fresh: true };
  };

  const description = (s: Schema) => (typeof s.description === 'string' ? s.description : undefined);

  const refOf = (s: Schema, where: string): TypeRef => {
    if (typeof s.$ref === 'string') {
      const m = /^#\/\$defs\/(.+)$/.exec(s.$ref);
      if (!m || !(m[1]! in defs)) throw new Error(`client model: ${where}: unsupported $ref ${s.$ref}`);
      return { k: 'named', name: m[1]! };
    }
    const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    if (Array.isArray(s.enum) || (branches && s.discriminator) || isStruct(s)) {
      const { name, fresh } = inlineName(s, where);
      if (fresh) declare(name, s);
      return { k: 'named', name };
    }
    if (branches) {
      const nonNull = branches.filter((b) => b.type !== 'null');
      const inner: TypeRef = nonNull.length === 1 ? refOf(nonNull[0]!, where) : scalarsOrUnknown(s, nonNull, where);
      return nonNull.length < branches.length ? { k: 'nullable', inner } : inner;
    }
    if (s.type === 'array') return { k: 'array', items: s.items ? refOf(s.items as Schema, `${where}Item`) : { k: 'unknown' } };
    if (s.type === 'object') {
      const extra = s.additionalProperties;
      return { k: 'map', values: extra && typeof extra === 'object' ? refOf(extra as Schema, `${where}Value`) : { k: 'unknown' } };
    }
    if (typeof s.type === 'string' && SCALARS.has(s.type)) return { k: s.type as Scalar };
    if (typeof s.const === 'string') return { k: 'string' };
    // Anything else (type lists, allOf, untagged unions of objects) stays raw JSON: it still
    // round-trips unchanged, only without a typed field.
    return { k: 'unknown' };
  };

  /** A union of plain scalars (e.g. a number-or-string instant) is a named type; any other untagged union stays raw JSON. */
  const scalarsOrUnknown = (s: Schema, branches: Schema[], where: string): TypeRef => {
    if (branches.every((b) => typeof b.type === 'string' && SCALARS.has(b.type) && b.const === undefined)) {
      const { name, fresh } = inlineName(s, where);
      if (fresh) add({ kind: 'scalars', name, description: description(s), branches: branches.map((b) => b.type as Scalar) });
      return { k: 'named', name };
    }
    return { k: 'unknown' };
  };

  const declare = (name: string, s: Schema) => {
    const doc = description(s);
    if (Array.isArray(s.enum)) {
      add({ kind: 'enum', name, description: doc, values: s.enum as string[] });
      return;
    }
    const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    if (branches && s.discriminator) {
      const tag = (s.discriminator as { propertyName: string }).propertyName;
      const union: NamedType = { kind: 'union', name, description: doc, tag, variants: [] };
      add(union);
      for (const b of branches) {
        const target = typeof b.$ref === 'string' ? defs[b.$ref.replace('#/$defs/', '')]! : b;
        const value = ((target.properties as Record<string, Schema> | undefined)?.[tag])?.const;
        if (typeof value !== 'string') throw new Error(`client model: ${name}: a variant has no const "${tag}"`);
        const ref = refOf(b, `${name}${pascal(value)}`);
        if (ref.k !== 'named') throw new Error(`client model: ${name}: variant ${value} is not an object`);
        union.variants.push({ name: ref.name, tag: value });
      }
      return;
    }
    if (isStruct(s)) {
      const required = new Set((s.required as string[] | undefined) ?? []);
      const struct: NamedType & { kind: 'struct' } = { kind: 'struct', name, description: doc, fields: [], consts: [], open: s.additionalProperties !== false };
      add(struct);
      for (const [json, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
        if (typeof p.const === 'string' && required.has(json)) {
          struct.consts.push({ json, value: p.const });
          continue;
        }
        struct.fields.push({ json, description: description(p), type: refOf(p, `${name}${pascal(json)}`), required: required.has(json) });
      }
      return;
    }
    const branchesOrScalar = branches && !s.discriminator;
    if (branchesOrScalar) {
      const nonNull = branches.filter((b) => b.type !== 'null');
      if (nonNull.length === branches.length && nonNull.every((b) => typeof b.type === 'string' && SCALARS.has(b.type))) {
        add({ kind: 'scalars', name, description: doc, branches: nonNull.map((b) => b.type as Scalar) });
        return;
      }
    }
    add({ kind: 'alias', name, description: doc, target: refOf({ ...s, title: undefined }, name) });
  };

  for (const [name, s] of Object.entries(defs)) declare(name, s);
  return { types, byName, definitions: Object.keys(defs) };
}

/** Converts a JSON key to an identifier part: `sessionId` → `SessionId`, `_meta` → `Meta`. */
export function pascalCase(json: string): string {
  const p = pascal(json);
  return p || 'Value';
}

/** `sessionId` → `session_id`, `_meta` → `meta`, `sha256` → `sha256`. */
export function snakeCase(json: string): string {
  return json.replace(/^_+/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
}
