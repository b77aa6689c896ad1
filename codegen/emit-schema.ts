// Emits schema/toolnorm.schema.json and refuses to write a contract that other languages could
// misread: undescribed fields, TypeBox-only kinds, nested $id, or refs that are not `#/$defs/…`.
import { buildContract } from '../schema/src/index.js';
import { GENERATED_NOTE } from './header.js';

const NON_JSON_TYPES = new Set(['Date', 'undefined', 'bigint', 'Uint8Array', 'symbol', 'Function', 'Constructor', 'Promise', 'AsyncIterator', 'Iterator', 'Void', 'never']);

export function contractProblems(doc: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const defs = doc.$defs as Record<string, unknown>;
  const visit = (node: unknown, at: string, needsDescription: boolean) => {
    if (Array.isArray(node)) { node.forEach((n, i) => visit(n, `${at}/${i}`, false)); return; }
    if (!node || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    if (typeof s.type === 'string' && NON_JSON_TYPES.has(s.type)) problems.push(`${at}: TypeBox-only type "${s.type}" is not JSON Schema`);
    if ('$id' in s) problems.push(`${at}: $id is only allowed on the root document`);
    // Validators count lengths in UTF-16 units (ajv unicode:false) while other languages count code
    // points; the two agree only for minLength 1 / no maxLength.
    if (typeof s.maxLength === 'number' || (typeof s.minLength === 'number' && s.minLength > 1)) problems.push(`${at}: only minLength 1 is allowed (length semantics differ between clients)`);
    if (typeof s.$ref === 'string') {
      const m = /^#\/\$defs\/(.+)$/.exec(s.$ref);
      if (!m) problems.push(`${at}: $ref "${s.$ref}" must be written as #/$defs/Name`);
      else if (!(m[1]! in defs)) problems.push(`${at}: $ref to undefined $defs/${m[1]}`);
    } else if (needsDescription && typeof s.description !== 'string') {
      problems.push(`${at}: missing description`);
    }
    for (const [k, v] of Object.entries(s)) {
      if (k === 'properties' && v && typeof v === 'object') {
        for (const [p, ps] of Object.entries(v as Record<string, unknown>)) visit(ps, `${at}/properties/${p}`, true);
      } else if (k === 'items' || k === 'oneOf' || k === 'anyOf' || k === 'allOf' || k === 'not' || k === 'additionalProperties') {
        visit(v, `${at}/${k}`, false);
      }
    }
  };
  for (const [name, schema] of Object.entries(defs)) {
    const s = schema as Record<string, unknown>;
    if (typeof s.description !== 'string' || !s.description) problems.push(`$defs/${name}: missing description`);
    if (s.title !== name) problems.push(`$defs/${name}: title must be "${name}"`);
    visit(schema, `#/$defs/${name}`, false);
  }
  return problems;
}

export function emitSchema(): { doc: Record<string, unknown>; text: string } {
  const built = buildContract();
  const doc = { $comment: GENERATED_NOTE, ...built };
  const problems = contractProblems(doc);
  if (problems.length) throw new Error(`schema/src does not make a valid contract:\n  ${problems.join('\n  ')}`);
  return { doc, text: JSON.stringify(doc, null, 2) + '\n' };
}
