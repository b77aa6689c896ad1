// The generated validators are ajv's standalone output with two rewrites (codegen/gen-validators.ts):
// `additionalProperties: false` is answered from a Set of each object's declared keys instead of
// `hasOwnProperty.call(schema.properties, key)` (withKeySets), and the error context travels to each
// nested validator as five arguments instead of an object (withPositionalContext). This checks both
// are exact: on real records, on copies with one extra key at every object in them (including names
// every object inherits, such as `toString`, and an own `__proto__`), and on the invalid schema
// fixtures, every entry point's generated validator gives the same verdict and the same first error
// (path, rule and parameters) as ajv compiling the same schema at run time, which knows nothing of
// the rewrites.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ajvFor } from '../../codegen/gen-validators.js';
import { ENTRY_POINTS } from '../../schema/src/index.js';
import { validators, type EntryPoint } from '../../generated/index.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { listSchemaFixtures } from '../helpers/schema-fixtures.js';

const doc = JSON.parse(readFileSync(join(REPO_ROOT, 'schema', 'toolnorm.schema.json'), 'utf8')) as Record<string, unknown>;
const runtime = ajvFor(doc);
const reference = (e: EntryPoint) => runtime.getSchema(`${doc.$id as string}#/$defs/${e}`)!;

/** Keys no schema declares, several of them inherited by every object. */
const EXTRA_KEYS = ['extra', 'toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every object in `value`, as paths of keys and indexes from the root. */
function objectPaths(value: Json, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((v, i) => objectPaths(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) objectPaths(v, [...path, k], out);
  }
  return out;
}

/** A copy of `value` with `key` added, as an own property, to the object at `path`. */
function withExtra(value: Json, path: (string | number)[], key: string): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  let target = copy as Record<string | number, Json>;
  for (const p of path) target = target[p] as Record<string | number, Json>;
  Object.defineProperty(target, key, { value: 'x', enumerable: true, writable: true, configurable: true });
  return copy;
}

function samples(): { entry: EntryPoint; value: Json; from: string }[] {
  const out: { entry: EntryPoint; value: Json; from: string }[] = [];
  for (const f of listSchemaFixtures(REPO_ROOT)) {
    if (f.expectValid && (ENTRY_POINTS as readonly string[]).includes(f.definition)) out.push({ entry: f.definition as EntryPoint, value: f.value as Json, from: f.file });
  }
  // Golden outputs of the provider cases: parts and ACP frames, the records the pipeline checks.
  for (const provider of ['claude', 'codex', 'opencode']) {
    const dir = join(REPO_ROOT, 'fixtures', provider);
    for (const c of readdirSync(dir).sort()) {
      if (!statSync(join(dir, c)).isDirectory()) continue;
      for (const name of readdirSync(join(dir, c)).sort()) {
        const file = join(dir, c, name);
        if (name.endsWith('.parts.json')) for (const p of (JSON.parse(readFileSync(file, 'utf8')) as Json[]).slice(0, 6)) out.push({ entry: 'NormalizedToolPart', value: p, from: file });
        if (name.endsWith('.acp.json')) for (const f of (JSON.parse(readFileSync(file, 'utf8')) as { params: Json }[]).slice(0, 6)) out.push({ entry: 'AcpSessionUpdateParams', value: f.params, from: file });
      }
    }
  }
  return out;
}

/**
 * What a failed validation reports first, in the fields a caller reads. The generated code adds
 * `allowedValues` to a discriminator error on purpose (codegen's withDiscriminatorValues; checked
 * in errors.test.ts), so that one added field is left out of the comparison.
 */
const firstError = (errors: unknown): string => {
  const e = (errors as { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown> }[] | null | undefined)?.[0];
  if (!e) return 'none';
  const { allowedValues: _added, ...params } = e.params;
  return JSON.stringify([e.instancePath, e.schemaPath, e.keyword, e.keyword === 'discriminator' ? params : e.params]);
};

describe('generated validators, rewritten', () => {
  it('carry both rewrites: no additionalProperties check on hasOwnProperty, no context object', () => {
    const js = readFileSync(join(REPO_ROOT, 'generated', 'validators.js'), 'utf8');
    expect(js).toMatch(/__keysOf_schema\d+\.has\(key\d+\)/);
    expect(js).not.toMatch(/\.call\(schema\d+\.properties, key\d+\)/);
    expect(js).toMatch(/validate\d+\([^;]*, instancePath\+"\/metadata", data, "metadata", rootData, dynamicAnchors\)/);
    expect(js).not.toContain('rootData,dynamicAnchors}');
  });

  it('report the same first error as ajv compiled at run time on every invalid schema fixture', () => {
    const invalid = listSchemaFixtures(REPO_ROOT).filter((f) => !f.expectValid && (ENTRY_POINTS as readonly string[]).includes(f.definition));
    expect(invalid.length).toBeGreaterThan(20);
    const nested = invalid.filter((f) => f.expect && f.expect.instancePath.split('/').length > 2);
    expect(nested.length).toBeGreaterThan(0);
    for (const f of invalid) {
      const generated = validators[f.definition as EntryPoint];
      const ref = reference(f.definition as EntryPoint);
      expect(generated(f.value), f.file).toBe(false);
      expect(ref(f.value)).toBe(false);
      expect(firstError(generated.errors), f.file).toBe(firstError(ref.errors));
    }
  });

  it('agree with ajv compiled at run time, verdict and first error, on real records and every one-extra-key copy of them', () => {
    const all = samples();
    expect(new Set(all.map((s) => s.entry)).size).toBeGreaterThanOrEqual(8);
    let compared = 0;
    let rejected = 0;
    const disagreements: string[] = [];
    for (const { entry, value, from } of all) {
      const generated = validators[entry];
      const ref = reference(entry);
      expect(generated(value), `${from} is valid`).toBe(true);
      expect(ref(value)).toBe(true);
      for (const path of objectPaths(value)) {
        for (const key of EXTRA_KEYS) {
          const mutated = withExtra(value, path, key);
          const a = generated(mutated);
          const b = ref(mutated);
          compared++;
          if (!a) rejected++;
          const ea = a ? 'none' : firstError(generated.errors);
          const eb = b ? 'none' : firstError(ref.errors);
          if (a !== b || ea !== eb) disagreements.push(`${entry} ${from} at /${path.join('/')} + ${key}: generated ${a} ${ea}, ajv ${b} ${eb}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Extra keys are mostly refused (open objects such as metadata, rawInput and _meta accept them).
    expect(compared).toBeGreaterThan(5000);
    expect(rejected).toBeGreaterThan(compared / 4);
  });
});
