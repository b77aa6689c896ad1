// Go types for the contract (clients/go/types_gen.go), written from the client model by template.
// quicktype, the maintained npm generator, merges every oneOf into one struct of optional
// fields, cannot keep an open object's undeclared keys, and cannot tell an absent key from
// null; those three are what a faithful round trip needs (docs/clients.md). The output is
// gofmt-clean as written: every field is its own block, so no column alignment is needed.
import { GENERATED_NOTE } from './header.js';
import { pascalCase, type ClientModel, type Field, type NamedType, type TypeRef } from './client-model.js';

export const GO_TYPES_FILE = 'clients/go/types_gen.go';

const INITIALISMS = new Map([['id', 'ID'], ['url', 'URL'], ['uri', 'URI'], ['mcp', 'MCP'], ['json', 'JSON'], ['sha256', 'SHA256']]);

/** `toolCallId` → `ToolCallID`, `_meta` → `Meta`, `mimeType` → `MimeType`. */
export function goFieldName(json: string): string {
  const words = json.replace(/^_+/, '').split(/(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => INITIALISMS.get(w.toLowerCase()) ?? w[0]!.toUpperCase() + w.slice(1)).join('') || 'Value';
}

const enumConst = (type: string, value: string) =>
  type + value.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => (w === w.toUpperCase() ? w[0]! + w.slice(1).toLowerCase() : w[0]!.toUpperCase() + w.slice(1))).join('');

function comment(text: string | undefined, indent = ''): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + 3 + line.length + 1 + word.length > 100) { out.push(line); line = word; } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out.map((l) => (l ? `${indent}// ${l}` : `${indent}//`));
}

/**
 * Unions whose variants share keys, read through one Go interface: `part.Value.ID()` instead of a
 * type switch over the variants. A Go struct cannot have a field and a method of the same name, so
 * the shared keys move into a struct each variant embeds (`fields`); the interface (`iface`, an
 * alias of the union's variant interface) has an accessor per shared key, and `tag` names the
 * accessor of the discriminator and the enum it returns.
 */
export const SHARED_ACCESSORS: Record<string, { iface: string; fields: string; tag: { method: string; type: string } }> = {
  NormalizedToolPart: { iface: 'Part', fields: 'PartFields', tag: { method: 'State', type: 'ToolState' } },
};

/** The keys every variant of a union declares alike (same type, same required-ness), in the first variant's order. */
export function sharedFields(model: ClientModel, union: string): Field[] {
  const t = model.byName.get(union);
  if (t?.kind !== 'union') throw new Error(`gen-go: ${union} is not a tagged union`);
  const variants = t.variants.map((v) => model.byName.get(v.name));
  if (!variants.every((v): v is NamedType & { kind: 'struct' } => v?.kind === 'struct')) throw new Error(`gen-go: ${union}: a variant is not an object`);
  const same = (a: Field, b: Field) => a.json === b.json && a.required === b.required && JSON.stringify(a.type) === JSON.stringify(b.type);
  return variants[0]!.fields.filter((f) => variants.every((v) => v.fields.some((g) => same(f, g))));
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const shapeVar = (name: string) => `${lowerFirst(name)}Shape`;
const goString = (s: string) => JSON.stringify(s);
/** A Go raw string literal holding JSON text (the JSON of a string never contains a backquote here). */
const goRaw = (s: string) => (s.includes('`') ? JSON.stringify(s) : `\`${s}\``);

export function genGo(model: ClientModel): string {
  const base = (t: TypeRef): string => {
    switch (t.k) {
      case 'string': return 'string';
      case 'integer': return 'int64';
      case 'number': return 'float64';
      case 'boolean': return 'bool';
      case 'unknown': return 'json.RawMessage';
      case 'named': return t.name;
      case 'array': return `[]${base(t.items)}`;
      case 'map': return `map[string]${base(t.values)}`;
      case 'nullable': return isNilable(t.inner) ? base(t.inner) : `*${base(t.inner)}`;
    }
  };
  // Values whose Go zero value already encodes as JSON null (nil slices, maps, raw JSON).
  const isNilable = (t: TypeRef) => t.k === 'unknown' || t.k === 'array' || t.k === 'map';

  /** Go type and tag suffix of a field, with `needsNullFix` for optional keys that may be null. */
  const fieldType = (f: Field): { go: string; omit: boolean; nullFix?: string } => {
    if (f.required) return { go: base(f.type), omit: false };
    if (f.type.k === 'unknown') return { go: 'json.RawMessage', omit: true };
    if (f.type.k === 'nullable') {
      if (f.type.inner.k === 'unknown') return { go: 'json.RawMessage', omit: true };
      const inner = base(f.type.inner);
      return { go: `*Nullable[${inner}]`, omit: true, nullFix: `&Nullable[${inner}]{Null: true}` };
    }
    return { go: `*${base(f.type)}`, omit: true };
  };

  const out: string[] = [
    '// Code generated by `npm run codegen` from schema/toolnorm.schema.json. DO NOT EDIT.',
    `// ${GENERATED_NOTE}`,
    '',
    '// Package toolnorm holds the types of the toolnorm contract: one struct per object, tagged',
    '// unions as a struct holding one variant, pointers (or nil raw JSON) for optional keys, and',
    '// an Extra map on open objects, so decoding and encoding again gives back the same JSON.',
    'package toolnorm',
    '',
    'import (',
    '\t"encoding/json"',
    '\t"fmt"',
    ')',
  ];
  const usedNames = new Set<string>(model.types.map((t) => t.name));
  const claim = (name: string, what: string) => {
    if (usedNames.has(name)) throw new Error(`gen-go: ${what} ${name} clashes with another Go name`);
    usedNames.add(name);
  };
  const unionOf = new Map<string, string[]>();
  for (const t of model.types) if (t.kind === 'union') for (const v of t.variants) unionOf.set(v.name, [...(unionOf.get(v.name) ?? []), t.name]);
  /** Variant name → the shared-accessor union it belongs to, with its shared keys. */
  const sharedOf = new Map<string, { union: string; spec: (typeof SHARED_ACCESSORS)[string]; fields: Field[] }>();
  for (const [union, spec] of Object.entries(SHARED_ACCESSORS)) {
    const u = model.byName.get(union);
    if (u?.kind !== 'union') throw new Error(`gen-go: SHARED_ACCESSORS names ${union}, which is not a tagged union of the schema`);
    const tagType = model.byName.get(spec.tag.type);
    if (tagType?.kind !== 'enum' || !u.variants.every((v) => tagType.values.includes(v.tag))) throw new Error(`gen-go: ${union}: ${spec.tag.type} is not an enum holding every "${u.tag}" value`);
    const fields = sharedFields(model, union);
    for (const v of u.variants) {
      if (sharedOf.has(v.name) || (unionOf.get(v.name)?.length ?? 0) > 1) throw new Error(`gen-go: ${v.name} is a variant of more than one union; shared accessors need one`);
      sharedOf.set(v.name, { union, spec, fields });
    }
  }

  const emit = (t: NamedType) => {
    out.push('');
    const head = (text?: string) => comment(text ? `${t.name}: ${text}` : t.name);
    switch (t.kind) {
      case 'enum': {
        out.push(...head(t.description), `type ${t.name} string`, '', `// The values of ${t.name}.`, 'const (');
        const names = t.values.map((v) => enumConst(t.name, v));
        names.forEach((n) => claim(n, 'enum constant'));
        const width = Math.max(...names.map((n) => n.length));
        t.values.forEach((v, i) => out.push(`\t${names[i]!.padEnd(width)} ${t.name} = ${goString(v)}`));
        out.push(')', '', `// Valid reports whether v is one of the values the schema lists.`, `func (v ${t.name}) Valid() bool {`, '\tswitch v {', `\tcase ${names.join(', ')}:`, '\t\treturn true', '\t}', '\treturn false', '}');
        return;
      }
      case 'alias':
        out.push(...head(t.description), `type ${t.name} = ${base(t.target)}`);
        return;
      case 'scalars': {
        const branch = { string: ['String', 'string'], integer: ['Integer', 'int64'], number: ['Number', 'float64'], boolean: ['Boolean', 'bool'] } as const;
        out.push(...head(t.description), '//', `// Exactly one field is set: the JSON value is a ${t.branches.join(' or a ')}.`, `type ${t.name} struct {`);
        t.branches.forEach((b, i) => out.push(...(i ? [''] : []), `\t${branch[b][0]} *${branch[b][1]}`));
        out.push('}', '', '// MarshalJSON writes the branch that is set.', `func (v ${t.name}) MarshalJSON() ([]byte, error) {`, '\tswitch {');
        for (const b of t.branches) out.push(`\tcase v.${branch[b][0]} != nil:`, `\t\treturn json.Marshal(*v.${branch[b][0]})`);
        out.push('\t}', `\treturn nil, fmt.Errorf("toolnorm: ${t.name}: no branch is set")`, '}', '', '// UnmarshalJSON takes the first branch the JSON value fits.', `func (v *${t.name}) UnmarshalJSON(data []byte) error {`, `\t*v = ${t.name}{}`);
        for (const b of t.branches) {
          const local = lowerFirst(branch[b][0]);
          out.push(`\tvar ${local} ${branch[b][1]}`, `\tif json.Unmarshal(data, &${local}) == nil {`, `\t\tv.${branch[b][0]} = &${local}`, '\t\treturn nil', '\t}');
        }
        out.push(`\treturn fmt.Errorf("toolnorm: ${t.name}: %s is not a ${t.branches.join(' or a ')}", excerpt(data))`, '}');
        return;
      }
      case 'union': {
        const iface = `${t.name}Variant`;
        const marker = `is${t.name}`;
        claim(iface, 'union interface');
        const list = t.variants.map((v) => `*${v.name}`).join(', ');
        out.push(...head(t.description), '//', ...comment(`Value holds one of ${list}, chosen by the ${goString(t.tag)} key.`), `type ${t.name} struct {`, `\tValue ${iface}`, '}', '');
        const spec = SHARED_ACCESSORS[t.name];
        if (!spec) {
          out.push(`// ${iface} is implemented by the variants of ${t.name}.`, `type ${iface} interface {`, `\t${marker}()`, '}', '');
        } else {
          claim(spec.iface, 'shared interface');
          claim(spec.fields, 'shared fields struct');
          const shared = sharedFields(model, t.name);
          out.push(
            ...comment(`${iface} is implemented by the variants of ${t.name}. Its accessors read the keys every variant has, so code holding any variant needs no type switch: part.Value.ID(), part.Value.${spec.tag.method}().`),
            `type ${iface} interface {`,
            `\t${marker}()`,
          );
          for (const f of shared) out.push('', ...comment(f.description ? `${goFieldName(f.json)} returns ${goString(f.json)}: ${f.description}` : `${goFieldName(f.json)} returns ${goString(f.json)}.`, '\t'), `\t${goFieldName(f.json)}() ${fieldType(f).go}`);
          out.push('', `\t// ${spec.tag.method} returns the ${goString(t.tag)} tag, which names the variant.`, `\t${spec.tag.method}() ${spec.tag.type}`, '}', '');
          out.push(`// ${spec.iface} is ${iface}: any variant of ${t.name}.`, `type ${spec.iface} = ${iface}`, '');
          out.push(
            ...comment(`${spec.fields} holds the keys every variant of ${t.name} has. Each variant embeds it: read the keys through the ${spec.iface} accessors (p.ID()), set them here (p.${spec.fields}.ID = "…").`),
            `type ${spec.fields} struct {`,
          );
          shared.forEach((f, i) => out.push(...(i ? [''] : []), ...comment(f.description, '\t'), `\t${goFieldName(f.json)} ${fieldType(f).go} \`json:"${f.json}${fieldType(f).omit ? ',omitempty' : ''}"\``));
          out.push('}', '');
        }
        for (const v of t.variants) out.push(`func (*${v.name}) ${marker}() {}`, '');
        out.push('// MarshalJSON writes the variant.', `func (u ${t.name}) MarshalJSON() ([]byte, error) {`, '\tif u.Value == nil {', `\t\treturn nil, fmt.Errorf("toolnorm: ${t.name}: no variant is set")`, '\t}', '\treturn json.Marshal(u.Value)', '}', '');
        out.push(`// UnmarshalJSON picks the variant named by ${goString(t.tag)}.`, `func (u *${t.name}) UnmarshalJSON(data []byte) error {`, `\ttag, err := unionTag(data, ${goString(t.name)}, ${goString(t.tag)})`, '\tif err != nil {', '\t\treturn err', '\t}', '\tswitch tag {');
        for (const v of t.variants) {
          out.push(`\tcase ${goString(v.tag)}:`, `\t\tvar v ${v.name}`, '\t\tif err := json.Unmarshal(data, &v); err != nil {', '\t\t\treturn err', '\t\t}', '\t\tu.Value = &v');
        }
        out.push('\tdefault:', `\t\treturn fmt.Errorf("toolnorm: ${t.name}: unknown %q %q", ${goString(t.tag)}, tag)`, '\t}', '\treturn nil', '}');
        return;
      }
      case 'struct': {
        const names = new Set<string>();
        const shared = sharedOf.get(t.name);
        const sharedKeys = new Set(shared?.fields.map((f) => f.json));
        const rows = t.fields.map((f) => {
          const name = goFieldName(f.json);
          if (names.has(name) || name === 'Extra' || name === 'Unknown' || name === shared?.spec.fields) throw new Error(`gen-go: ${t.name}: two keys map to the Go field ${name}`);
          names.add(name);
          return { f, name, ...fieldType(f) };
        });
        const ownRows = rows.filter((r) => !sharedKeys.has(r.f.json));
        const unions = unionOf.get(t.name);
        const extraDoc = unions ? [`As a variant of ${unions.join(' and ')}, its ${t.consts.map((c) => `${goString(c.json)} is ${c.value}`).join(', ')}.`] : [];
        if (shared) extraDoc.push(`Its keys ${[...sharedKeys].map(goString).join(', ')} are in the embedded ${shared.spec.fields}, read through the ${shared.spec.iface} accessors.`);
        out.push(...head(t.description), ...(extraDoc.length ? ['//', ...comment(extraDoc.join(' '))] : []), `type ${t.name} struct {`);
        const body: string[][] = [];
        if (shared) body.push([`\t${shared.spec.fields}`]);
        for (const r of ownRows) body.push([...comment(r.f.description, '\t'), `\t${r.name} ${r.go} \`json:"${r.f.json}${r.omit ? ',omitempty' : ''}"\``]);
        if (t.open) body.push(['\t// Extra holds the keys the schema does not declare: this object is open.', '\tExtra map[string]json.RawMessage `json:"-"`']);
        // A closed object keeps keys it does not know in Unknown (a newer schema's optional keys):
        // decoding is lenient by default, and UnmarshalStrict or CheckKnown reject them.
        else body.push(['\t// Unknown holds keys the schema does not declare although it closes this object, as a newer', '\t// schema\'s optional keys; they are written back as they came. UnmarshalStrict rejects them.', '\tUnknown map[string]json.RawMessage `json:"-"`']);
        body.forEach((b, i) => out.push(...(i ? [''] : []), ...b));
        out.push('}', '');
        if (shared) {
          const tag = t.consts.find((c) => c.json === (model.byName.get(shared.union) as { tag: string }).tag)!;
          for (const f of shared.fields) out.push(`// ${goFieldName(f.json)} returns the ${goString(f.json)} key.`, `func (v *${t.name}) ${goFieldName(f.json)}() ${fieldType(f).go} { return v.${shared.spec.fields}.${goFieldName(f.json)} }`, '');
          out.push(`// ${shared.spec.tag.method} returns ${goString(tag.value)}, the ${goString(tag.json)} of every ${t.name}.`, `func (v *${t.name}) ${shared.spec.tag.method}() ${shared.spec.tag.type} { return ${enumConst(shared.spec.tag.type, tag.value)} }`, '');
        }
        const shape = shapeVar(t.name);
        claim(shape, 'shape variable');
        const list = (xs: string[]) => (xs.length ? `[]string{${xs.map(goString).join(', ')}}` : 'nil');
        const consts = t.consts.length ? `[][2]string{${t.consts.map((c) => `{${goString(c.json)}, ${goRaw(JSON.stringify(c.value))}}`).join(', ')}}` : 'nil';
        out.push(`var ${shape} = objectShape{name: ${goString(t.name)}, consts: ${consts}, known: ${list(t.fields.map((f) => f.json))}, required: ${list(t.fields.filter((f) => f.required).map((f) => f.json))}}`, '');
        const fixes = rows.filter((r) => r.nullFix);
        out.push(
          '// UnmarshalJSON checks the keys against the schema, then decodes the fields.',
          `func (v *${t.name}) UnmarshalJSON(data []byte) error {`,
          `\tmembers, err := decodeObject(data, &${shape})`,
          '\tif err != nil {',
          '\t\treturn err',
          '\t}',
          `\ttype plain ${t.name}`,
          '\tvar p plain',
          '\tif err := json.Unmarshal(data, &p); err != nil {',
          `\t\treturn decodeError(${goString(t.name)}, err)`,
          '\t}',
        );
        out.push(`\tp.${t.open ? 'Extra' : 'Unknown'} = extraMembers(members, &${shape})`);
        for (const r of fixes) out.push(`\tif isNull(members, ${goString(r.f.json)}) {`, `\t\tp.${r.name} = ${r.nullFix}`, '\t}');
        out.push(`\t*v = ${t.name}(p)`, '\treturn nil', '}', '');
        out.push(
          `// MarshalJSON writes the fields${t.consts.length ? ', the constant tag' : ''} and the ${t.open ? 'extra' : 'unknown'} keys.`,
          `func (v ${t.name}) MarshalJSON() ([]byte, error) {`,
          `\ttype plain ${t.name}`,
          `\treturn encodeObject(plain(v), &${shape}, v.${t.open ? 'Extra' : 'Unknown'})`,
          '}',
        );
        return;
      }
    }
  };
  for (const t of model.types) emit(t);
  out.push(
    '',
    '// DefinitionNames lists every definition of the schema, in schema order.',
    `var DefinitionNames = []string{${model.definitions.map(goString).join(', ')}}`,
    '',
    '// NewDefinition returns a pointer to a new value of the named definition\'s Go type, for code',
    '// that picks the type at run time: v, _ := NewDefinition("ToolEvent"); json.Unmarshal(data, v).',
    'func NewDefinition(name string) (interface{}, bool) {',
    '\tswitch name {',
    ...model.definitions.flatMap((d) => [`\tcase ${goString(d)}:`, `\t\treturn new(${d}), true`]),
    '\t}',
    '\treturn nil, false',
    '}',
  );
  return `${out.join('\n')}\n`;
}
