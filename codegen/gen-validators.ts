// Precompiled ajv validators for the entry points, as ESM. ajv's standalone output still contains
// `require()` for its runtime helpers even with `code.esm` (ajv #1976, #2209), so the calls are
// rewritten to namespace imports; generation fails if any `require(` survives.
import { Ajv2019 } from 'ajv/dist/2019.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { createRequire } from 'node:module';
import { HEADER } from './header.js';

const require = createRequire(import.meta.url);
const draft7 = require('ajv/dist/refs/json-schema-draft-07.json');
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: unknown, refs: Record<string, string>) => string;

export function ajvFor(doc: Record<string, unknown>, source = false) {
  const ajv = new Ajv2019({
    strict: true,
    // Every problem, not only the first: a ContractError then lists each path that is wrong, so a
    // producer fixes them in one round. Valid data takes the same path either way.
    allErrors: true,
    discriminator: true,
    validateFormats: false,
    // Every length rule in the contract is `minLength: 1`, where UTF-16 and code-point counts
    // agree; skipping ajv's code-point counting (ucs2length) is a measurable share of validation.
    unicode: false,
    logger: { log: console.log, warn: (...a: unknown[]) => { if (!String(a[0]).includes('option unicode')) console.warn(...a); }, error: console.error },
    code: source ? { source: true, esm: true, lines: false, optimize: 3 } : undefined,
  });
  ajv.addMetaSchema(draft7);
  ajv.addSchema(doc);
  return ajv;
}

/**
 * ajv checks `additionalProperties: false` on an object with many declared properties as
 * `Object.prototype.hasOwnProperty.call(schemaN.properties, key)` for every key of the data. A Set
 * of the same keys answers the same question about 6% faster over a whole validation (6 interleaved
 * runs over the validate bench's records, every one faster): the schema objects are plain JSON,
 * so their own enumerable keys are exactly `Object.keys`. The Sets are built once, at import.
 */
function withKeySets(code: string): string {
  const check = /(\w+)\.call\((schema\d+)\.properties, (key\d+)\)/g;
  const hasOwn = new Set([...code.matchAll(/const (\w+) = Object\.prototype\.hasOwnProperty;/g)].map((m) => m[1]!));
  const schemas = new Set<string>();
  const out = code.replace(check, (m: string, fn: string, schema: string, key: string) => {
    if (!hasOwn.has(fn)) return m;
    schemas.add(schema);
    return `__keysOf_${schema}.has(${key})`;
  });
  // A form this rewrite does not know would keep working, only slower; fail so it is looked at.
  if (/\.call\(schema\d+\.properties, key\d+\)/.test(out)) throw new Error('gen-validators: an additionalProperties check in a form withKeySets does not rewrite');
  const sets = [...schemas].sort().map((schema) => `const __keysOf_${schema} = new Set(Object.keys(${schema}.properties));`);
  return sets.length ? `${out}\n${sets.join('\n')}` : out;
}

/**
 * ajv passes the error context (instancePath, parentData, parentDataProperty, rootData,
 * dynamicAnchors) to every validator it calls as one object literal, which the callee destructures:
 * an allocation per call on data that is valid. Passed as five arguments instead, validation takes
 * about 9% less time (6 interleaved runs on a quiet machine: 0.87–0.95 of the time, mixed and small
 * records). A validator called with the data alone, the only way the declared type allows, still
 * starts from an empty path, with the data as its root.
 */
function withPositionalContext(code: string): string {
  const signature = '{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}';
  const positional = 'instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}';
  const declared = code.split(signature).length - 1;
  let out = code.split(signature).join(positional);
  // A call: validateN(<argument>, {instancePath[:e],parentData[:e],parentDataProperty[:e],rootData,dynamicAnchors}).
  // Each argument is a member path or index expression without braces; a missing `:e` is the same name.
  const call = /(validate\d+)\(([^(){}]*?(?:\([^(){}]*\))?[^(){}]*?), \{instancePath(?::([^,{}]*))?,parentData(?::([^,{}]*))?,parentDataProperty(?::([^,{}]*))?,rootData,dynamicAnchors\}\)/g;
  out = out.replace(call, (_m: string, fn: string, arg: string, path?: string, parent?: string, property?: string) => `${fn}(${arg}, ${path ?? 'instancePath'}, ${parent ?? 'parentData'}, ${property ?? 'parentDataProperty'}, rootData, dynamicAnchors)`);
  // Any call or signature left in the object form would now be called wrongly: fail instead.
  if (declared === 0 || out.includes('rootData,dynamicAnchors}') || out.includes('dynamicAnchors={}}')) throw new Error('gen-validators: an error-context call or signature in a form withPositionalContext does not rewrite');
  return out;
}

/** The tag values of every `discriminator` in the schema: tag name → the sets of values one discriminator allows. */
function discriminatorValues(doc: unknown): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const defs = (doc as { $defs?: Record<string, unknown> }).$defs ?? {};
  const resolve = (s: unknown): Record<string, unknown> => {
    const ref = (s as { $ref?: string }).$ref;
    return (ref?.startsWith('#/$defs/') ? resolve(defs[ref.slice(8)]) : s) as Record<string, unknown>;
  };
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!x || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    const d = o.discriminator as { propertyName?: string } | undefined;
    if (d?.propertyName && Array.isArray(o.oneOf)) {
      const values = o.oneOf.flatMap((branch) => {
        const prop = (resolve(branch).properties as Record<string, { const?: string; enum?: string[] }> | undefined)?.[d.propertyName!];
        return prop?.const !== undefined ? [prop.const] : prop?.enum ?? [];
      });
      found.set(`${d.propertyName}\u0000${[...values].sort().join('\u0000')}`, new Set(values));
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(doc);
  return found;
}

/**
 * ajv reports a discriminator tag outside the mapping as `value of tag "state" must be in oneOf`,
 * which names neither the allowed values nor where to find them. Each such error is rewritten to
 * list them (`must be one of: pending, running, complete, error`) and to carry them as
 * `params.allowedValues`, like an `enum` error. The values are read from the code's own
 * `tagN === "value"` branches before the error, and must be a discriminator's values in the schema.
 */
function withDiscriminatorValues(code: string, doc: unknown): string {
  const known = new Set(discriminatorValues(doc).keys());
  const error = /params:\{error: "mapping", tag: "(\w+)", tagValue: (tag\d+)\},message:"value of tag \\"\1\\" must be in oneOf"/g;
  let rewritten = 0;
  const out = code.replace(error, (_m: string, tag: string, v: string, at: number) => {
    const start = code.lastIndexOf(`const ${v} = `, at);
    const values = [...new Set([...code.slice(start, at).matchAll(new RegExp(`\\b${v} === ("(?:[^"\\\\]|\\\\.)*")`, 'g'))].map((m) => JSON.parse(m[1]!) as string))];
    if (start < 0 || !known.has(`${tag}\u0000${[...values].sort().join('\u0000')}`)) throw new Error(`gen-validators: the discriminator "${tag}" branches read from the code (${values.join(', ')}) are no discriminator of the schema`);
    rewritten++;
    return `params:{error: "mapping", tag: "${tag}", tagValue: ${v}, allowedValues: ${JSON.stringify(values)}},message:${JSON.stringify(`value of tag "${tag}" must be one of: ${values.join(', ')}`)}`;
  });
  if (/must be in oneOf/.test(out) || rewritten === 0) throw new Error('gen-validators: a discriminator error in a form withDiscriminatorValues does not rewrite');
  return out;
}

export function genValidators(doc: Record<string, unknown>, entries: readonly string[]): { js: string; dts: string } {
  const ajv = ajvFor(doc, true);
  const id = doc.$id as string;
  const refs = Object.fromEntries(entries.map((e) => [`validate${e}`, `${id}#/$defs/${e}`]));
  let code: string = standaloneCode(ajv, refs);
  const imports: string[] = [];
  let n = 0;
  code = code.replace(/const (\w+) = require\("([^"]+)"\)/g, (_m: string, name: string, mod: string) => {
    const spec = mod.endsWith('.js') || mod.endsWith('.json') ? mod : `${mod}.js`;
    imports.push(`import * as __ns${n} from ${JSON.stringify(spec)};`);
    return `const ${name} = __interop(__ns${n++})`;
  });
  code = code.replace(/^"use strict";/, '');
  code = withDiscriminatorValues(code, doc);
  code = withKeySets(code);
  code = withPositionalContext(code);
  if (code.includes('require(')) throw new Error('gen-validators: a require() call survived the ESM rewrite');
  const interop = 'const __interop = (ns) => (ns.default && ns.default.__esModule ? ns.default : ns);';
  const js = `${HEADER}/* eslint-disable */\n${imports.join('\n')}\n${interop}\n${code.trim()}\n`;
  const dts = `${HEADER}import type { ErrorObject } from 'ajv';\n\nexport interface CompiledValidator {\n  (data: unknown): boolean;\n  errors?: ErrorObject[] | null;\n}\n\n${entries
    .map((e) => `export declare const validate${e}: CompiledValidator;`)
    .join('\n')}\n`;
  return { js, dts };
}
