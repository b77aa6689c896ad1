// Params schemas are compiled once, at registration, with Ajv2019 (the built-ins are plain
// JSON Schema; a caller's TypeBox schema is a draft-07/2019 mix, which Ajv2019 also reads). ajv errors become ValidationIssues whose `path` points at the offending parameter.
import { Ajv2019 } from 'ajv/dist/2019.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ValidationIssue, ValidationResult } from '../contract/index.js';
import type { ParamsSchema } from './types.js';

export type CompiledParams = ValidateFunction;

export function createAjv(): Ajv2019 {
  // strict off: user schemas carry annotations (examples, x-…) that strict mode rejects.
  return new Ajv2019({ allErrors: true, strict: false, validateFormats: false });
}

export function compileParams(ajv: Ajv2019, schema: ParamsSchema): CompiledParams {
  return ajv.compile(schema as Record<string, unknown>);
}

function issueOf(e: ErrorObject): ValidationIssue {
  const p = e.params as Record<string, unknown>;
  const child = (typeof p.missingProperty === 'string' && p.missingProperty) || (typeof p.additionalProperty === 'string' && p.additionalProperty) || undefined;
  const path = child ? `${e.instancePath}/${child.replace(/~/g, '~0').replace(/\//g, '~1')}` : e.instancePath;
  const message = e.keyword === 'additionalProperties' ? `unknown parameter ${JSON.stringify(child)}` : e.message ?? `fails ${e.keyword}`;
  return { path, message: `${path || '(input)'}: ${message}`, keyword: e.keyword };
}

export const VALID: ValidationResult = Object.freeze({ valid: true, issues: Object.freeze([]) as unknown as ValidationIssue[] });

/** @contract ValidationResult */
export function validateWith(fn: CompiledParams, input: unknown): ValidationResult {
  if (fn(input)) return VALID;
  return { valid: false, issues: (fn.errors ?? []).map(issueOf) };
}

/** The schema node a pointer names, when the schema spells it out (properties / items). */
export function schemaAt(schema: ParamsSchema, segments: readonly string[]): Record<string, unknown> | undefined | null {
  let node = schema as Record<string, unknown> | undefined;
  for (const s of segments) {
    if (!node) return undefined;
    if (s === '*') {
      const items = node.items ?? node.additionalProperties;
      node = items && typeof items === 'object' ? (items as Record<string, unknown>) : undefined;
      continue;
    }
    const props = node.properties as Record<string, unknown> | undefined;
    if (!props) {
      const type = node.type;
      const objectish = type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
      // A scalar has no params below it; an object without a `properties` list (refs,
      // combinators, open maps) cannot be checked here.
      return objectish ? null : undefined;
    }
    node = props[s] as Record<string, unknown> | undefined;
  }
  return node;
}
