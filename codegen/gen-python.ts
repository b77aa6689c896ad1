// Python models for the contract (clients/python/toolnorm_client/models.py): dataclasses written
// from the client model by template, standard library only. An absent optional key is UNSET, so
// it stays apart from a JSON null; open objects keep their undeclared keys in `extra`; tagged
// unions decode to the variant named by the discriminator.
import { GENERATED_NOTE } from './header.js';
import { snakeCase, type ClientModel, type Field, type NamedType, type TypeRef } from './client-model.js';

export const PYTHON_MODELS_FILE = 'clients/python/toolnorm_client/models.py';
/** The contract shipped as package data, so an installed or copied package validates without the repository. */
export const PYTHON_SCHEMA_FILE = 'clients/python/toolnorm_client/toolnorm.schema.json';

const KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield', 'extra']);

const py = (s: string) => JSON.stringify(s);
const attr = (json: string) => { const n = snakeCase(json) || 'value'; return KEYWORDS.has(n) ? `${n}_` : n; };
const fnName = (name: string) => `${snakeCase(name)}_from_json`;

function docstring(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const words = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + line.length + 1 + w.length > 96) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => `${indent}${l}`), `${indent}"""`];
}

export function genPython(model: ClientModel): string {
  const annotation = (t: TypeRef): string => {
    switch (t.k) {
      case 'string': return 'str';
      case 'integer': return 'int';
      case 'number': return 'float';
      case 'boolean': return 'bool';
      case 'unknown': return 'Any';
      case 'named': return t.name;
      case 'array': return `List[${annotation(t.items)}]`;
      case 'map': return `Dict[str, ${annotation(t.values)}]`;
      case 'nullable': return `Optional[${annotation(t.inner)}]`;
    }
  };
  const decoder = (t: TypeRef): string => {
    switch (t.k) {
      case 'string': return 'rt.string';
      case 'integer': return 'rt.integer';
      case 'number': return 'rt.number';
      case 'boolean': return 'rt.boolean';
      case 'unknown': return 'rt.anything';
      case 'array': return `rt.list_of(${decoder(t.items)})`;
      case 'map': return `rt.map_of(${decoder(t.values)})`;
      case 'nullable': return `rt.nullable(${decoder(t.inner)})`;
      case 'named': {
        const named = model.byName.get(t.name)!;
        if (named.kind === 'struct') return `${t.name}.from_json`;
        if (named.kind === 'union') return fnName(t.name);
        if (named.kind === 'enum') return 'rt.string';
        if (named.kind === 'scalars') return `rt.scalars_of((${named.branches.map(py).join(', ')},))`;
        return decoder(named.target);
      }
    }
  };
  const encoder = (t: TypeRef, expr: string): string => {
    if (t.k === 'named') {
      const named = model.byName.get(t.name)!;
      if (named.kind === 'struct' || named.kind === 'union') return `${expr}.to_json()`;
      if (named.kind === 'alias') return encoder(named.target, expr);
      return expr;
    }
    if (t.k === 'array' || t.k === 'map' || t.k === 'nullable') return `rt.encode(${expr})`;
    return expr;
  };

  const out: string[] = [
    `# ${GENERATED_NOTE}`,
    '# Generated from schema/toolnorm.schema.json by codegen/gen-python.ts.',
    '"""Typed models of the toolnorm contract: one dataclass per object, a Union and a decoder',
    'function per tagged union, Literal types for enums. from_json(value) checks the structure',
    '(required and undeclared keys, tags, JSON types) and to_json() gives the same JSON back."""',
    'from __future__ import annotations',
    '',
    'from dataclasses import dataclass, field',
    'from typing import Any, ClassVar, Dict, List, Literal, Optional, Union',
    '',
    'from . import _runtime as rt',
    'from ._runtime import UNSET, Unset',
  ];
  const all: string[] = [];

  const emit = (t: NamedType) => {
    out.push('', '');
    all.push(t.name);
    switch (t.kind) {
      case 'enum':
        out.push(`${t.name} = Literal[${t.values.map(py).join(', ')}]`, ...docstring(t.description, ''));
        return;
      case 'alias':
        out.push(`${t.name} = ${annotation(t.target)}`, ...docstring(t.description, ''));
        return;
      case 'scalars':
        out.push(`${t.name} = Union[${t.branches.map((b) => annotation({ k: b })).join(', ')}]`, ...docstring(t.description, ''));
        return;
      case 'union': {
        const fn = fnName(t.name);
        all.push(fn);
        out.push(`${t.name} = Union[${t.variants.map((v) => py(v.name)).join(', ')}]`, ...docstring(t.description, ''), '', '');
        out.push(`def ${fn}(value: Any, path: str = ${py(t.name)}) -> ${t.name}:`, `    """Decodes a ${t.name}: the variant named by ${py(t.tag)}."""`, `    tag = rt.tag_of(value, path, ${py(t.tag)})`, '    variants: Dict[str, Any] = {');
        for (const v of t.variants) out.push(`        ${py(v.tag)}: ${v.name},`);
        out.push('    }', '    if tag not in variants:', `        raise rt.ContractError(f"{path}.${t.tag}: unknown variant {tag!r}")`, '    return variants[tag].from_json(value, path)');
        return;
      }
      case 'struct': {
        const names = new Set<string>();
        const rows = t.fields.map((f: Field) => {
          const name = attr(f.json);
          if (names.has(name)) throw new Error(`gen-python: ${t.name}: two keys map to the attribute ${name}`);
          names.add(name);
          return { f, name };
        });
        const ordered = [...rows.filter((r) => r.f.required), ...rows.filter((r) => !r.f.required)];
        const consts = `{${t.consts.map((c) => `${py(c.json)}: ${py(c.value)}`).join(', ')}}`;
        const tuple = (xs: string[]) => `(${xs.map(py).join(', ')}${xs.length === 1 ? ',' : ''})`;
        out.push('@dataclass', `class ${t.name}:`, ...docstring(t.description, '    '));
        for (const c of t.consts) out.push(`    ${snakeCase(c.json).toUpperCase()}: ClassVar[str] = ${py(c.value)}`);
        out.push(`    _CONSTS: ClassVar[Dict[str, str]] = ${consts}`);
        out.push(`    _KNOWN: ClassVar[tuple] = ${tuple(t.fields.map((f) => f.json))}`);
        out.push(`    _REQUIRED: ClassVar[tuple] = ${tuple(t.fields.filter((f) => f.required).map((f) => f.json))}`);
        for (const r of ordered) {
          const ann = annotation(r.f.type);
          if (r.f.required) out.push(`    ${r.name}: ${ann}`);
          else out.push(`    ${r.name}: ${r.f.type.k === 'unknown' ? 'Any' : `Union[${ann}, Unset]`} = UNSET`);
          out.push(...docstring(r.f.description, '    '));
        }
        if (t.open) out.push('    extra: Dict[str, Any] = field(default_factory=dict)', '    """The keys the schema does not declare: this object is open."""');
        out.push('', '    @classmethod', `    def from_json(cls, value: Any, path: str = ${py(t.name)}) -> ${t.name}:`, `        obj = rt.object_of(value, path, cls._CONSTS, cls._KNOWN, cls._REQUIRED, ${t.open ? 'True' : 'False'})`, '        return cls(');
        for (const r of ordered) {
          const dec = decoder(r.f.type);
          out.push(r.f.required ? `            ${r.name}=${dec}(obj[${py(r.f.json)}], path + ${py(`.${r.f.json}`)}),` : `            ${r.name}=rt.opt(obj, ${py(r.f.json)}, ${dec}, path),`);
        }
        if (t.open) out.push('            extra=rt.extra_of(obj, cls._CONSTS, cls._KNOWN),');
        out.push('        )', '', '    def to_json(self) -> Dict[str, Any]:', `        out: Dict[str, Any] = dict(self._CONSTS)`);
        for (const r of rows) {
          const value = encoder(r.f.type, `self.${r.name}`);
          if (r.f.required) out.push(`        out[${py(r.f.json)}] = ${value}`);
          else out.push(`        if self.${r.name} is not UNSET:`, `            out[${py(r.f.json)}] = ${value}`);
        }
        out.push(t.open ? `        return rt.merge_extra(out, self.extra, ${py(t.name)})` : '        return out');
        // A tag is a class constant (STATE) for dispatch without an instance, and also an
        // attribute (part.state), so code holding a decoded union member reads every key the
        // same way whichever variant it got.
        for (const c of t.consts) {
          const name = attr(c.json);
          if (names.has(name)) throw new Error(`gen-python: ${t.name}: the tag ${c.json} and a key map to the attribute ${name}`);
          names.add(name);
          out.push('', '    @property', `    def ${name}(self) -> Literal[${py(c.value)}]:`, `        """The ${py(c.json)} key: always ${py(c.value)} for a ${t.name}."""`, `        return ${py(c.value)}`);
        }
        return;
      }
    }
  };
  for (const t of model.types) emit(t);
  out.push(
    '',
    '',
    'DEFINITIONS: Dict[str, Any] = {',
    ...model.definitions.map((d) => {
      const t = model.byName.get(d)!;
      const fn = t.kind === 'struct' ? `${d}.from_json` : t.kind === 'union' ? fnName(d) : `lambda value, path=${py(d)}: ${decoder({ k: 'named', name: d })}(value, path)`;
      return `    ${py(d)}: ${fn},`;
    }),
    '}',
    '"""The decoder of every schema definition, by name: DEFINITIONS["ToolEvent"](value)."""',
    '',
    '',
    'def from_json(definition: str, value: Any) -> Any:',
    '    """Decodes JSON data (as json.loads gives it) as the named definition."""',
    '    if definition not in DEFINITIONS:',
    '        raise KeyError(f"no definition named {definition!r}")',
    '    return DEFINITIONS[definition](value, definition)',
    '',
    '',
    'def to_json(value: Any) -> Any:',
    '    """The JSON data of a model (or of plain data, returned as is), ready for json.dumps."""',
    '    return rt.encode(value)',
    '',
    '',
    `__all__ = [${[...all, 'DEFINITIONS', 'from_json', 'to_json', 'UNSET', 'Unset'].map(py).join(', ')}]`,
  );
  return `${out.join('\n')}\n`;
}
