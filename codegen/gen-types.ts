import { compile } from 'json-schema-to-typescript';
import { TOOL_ERROR_CODES } from '../schema/src/error.js';
import { HEADER } from './header.js';

/**
 * Open string fields whose well-known values are worth a type: `name | (string & {})` keeps any
 * string assignable (the schema allows it) while editors complete and narrow the known ones.
 */
const KNOWN_VALUES: { def: string; property: string; type: string; values: readonly string[] }[] = [
  { def: 'ToolError', property: 'code', type: 'ToolErrorCode', values: TOOL_ERROR_CODES },
];

function markKnownValues(doc: Record<string, unknown>): string[] {
  const defs = doc.$defs as Record<string, { properties?: Record<string, Record<string, unknown>> }>;
  return KNOWN_VALUES.map(({ def, property, type, values }) => {
    const prop = defs[def]?.properties?.[property];
    if (!prop || prop.type !== 'string') throw new Error(`gen-types: ${def}.${property} is not a string property of the schema`);
    prop.tsType = `${type} | (string & {})`;
    return `/** The well-known values of \`${def}.${property}\` (any other non-empty string is allowed). */\nexport type ${type} = ${values.map((v) => `'${v}'`).join(' | ')};\n`;
  });
}

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'default', 'examples']);

/**
 * jstt types an annotation-only schema (`{description}` = any value) as an object; mark those
 * `tsType: unknown` in the copy handed to jstt. The emitted JSON schema itself is not touched.
 */
function markUnknowns(node: unknown): void {
  if (Array.isArray(node)) { node.forEach(markUnknowns); return; }
  if (!node || typeof node !== 'object') return;
  const s = node as Record<string, unknown>;
  for (const v of Object.values(s)) markUnknowns(v);
  for (const key of ['properties', '$defs']) {
    const group = s[key] as Record<string, Record<string, unknown>> | undefined;
    if (!group) continue;
    for (const child of Object.values(group)) {
      if (child && typeof child === 'object' && Object.keys(child).every((k) => ANNOTATIONS.has(k))) child.tsType = 'unknown';
    }
  }
}

/**
 * The titles on inline subschemas and the root's listing of every definition are there for
 * generators that need them (Go, Python). jstt would turn each inline title into an extra export
 * (and number the repeats: `Instant`, `Instant1`), so its copy keeps only the `$defs` titles and
 * the TS types stay exactly the definitions.
 */
function forTypeScript(doc: Record<string, unknown>): Record<string, unknown> {
  const { properties: _p, additionalProperties: _a, type: _t, ...rest } = structuredClone(doc);
  const strip = (node: unknown, isDef: boolean): void => {
    if (Array.isArray(node)) { node.forEach((n) => strip(n, false)); return; }
    if (!node || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    if (!isDef) delete s.title;
    for (const [k, v] of Object.entries(s)) {
      if (k === 'properties' || k === '$defs') for (const child of Object.values(v as Record<string, unknown>)) strip(child, k === '$defs');
      else strip(v, false);
    }
  };
  for (const d of Object.values(rest.$defs as Record<string, unknown>)) strip(d, true);
  return rest;
}

export async function genTypes(doc: Record<string, unknown>): Promise<string> {
  const copy = forTypeScript(doc);
  markUnknowns(copy);
  const known = markKnownValues(copy);
  const ts = await compile(copy as never, 'ToolnormContract', {
    bannerComment: '',
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: false,
    format: true,
    style: { printWidth: 120, singleQuote: true },
    declareExternallyReferenced: true,
    // Tuples from minItems would make the TS type stricter than TypeBox's Static (and the validator).
    ignoreMinAndMaxItems: true,
  });
  return `${HEADER}/* eslint-disable */\n${known.join('')}${ts}`;
}
