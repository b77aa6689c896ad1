// The client model's reading of schema shapes, on small documents: what becomes a named type,
// what stays raw JSON, and the clashes it refuses. The real schema's output is covered by the
// round trips (scripts/clients-roundtrip.ts) and the drift check.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/corpus.js';
import { buildClientModel } from '../../codegen/client-model.js';
import { genGo, goFieldName, sharedFields } from '../../codegen/gen-go.js';

const doc = (defs: Record<string, unknown>) => ({ $defs: defs });

describe('client model', () => {
  const model = buildClientModel(doc({
    Kind: { title: 'Kind', type: 'string', enum: ['a', 'b'], description: 'k' },
    Thing: {
      title: 'Thing', type: 'object', additionalProperties: false, required: ['tag', 'at', 'maybe'], description: 't',
      properties: {
        tag: { const: 'thing', type: 'string' },
        at: { title: 'Instant', anyOf: [{ type: 'number' }, { type: 'string' }] },
        until: { title: 'Instant', anyOf: [{ type: 'number' }, { type: 'string' }], description: 'same shape, other words' },
        maybe: { anyOf: [{ $ref: '#/$defs/Kind' }, { type: 'null' }] },
        exit: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        blob: { allOf: [{ type: 'object' }] },
        either: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'array' }] },
        bag: { type: 'object', properties: {}, additionalProperties: true },
        inner: { type: 'object', additionalProperties: false, properties: { n: { type: 'integer' } } },
      },
    },
    Open: { title: 'Open', type: 'object', properties: { a: { type: 'string' } }, description: 'o' },
    Either: { title: 'Either', type: 'object', discriminator: { propertyName: 'tag' }, oneOf: [{ $ref: '#/$defs/Thing' }, { type: 'object', additionalProperties: false, required: ['tag'], properties: { tag: { const: 'other' } } }] },
  }));
  const thing = model.byName.get('Thing') as Extract<ReturnType<typeof model.byName.get>, { kind: 'struct' }>;
  const field = (json: string) => thing.fields.find((f) => f.json === json)!;

  it('names inline shapes by title, shares identical titled shapes, and names untitled ones by place', () => {
    expect(model.types.map((t) => `${t.kind} ${t.name}`)).toEqual(['enum Kind', 'struct Thing', 'scalars Instant', 'struct ThingInner', 'struct Open', 'union Either', 'struct EitherOther']);
    expect(field('until').type).toEqual({ k: 'named', name: 'Instant' });
  });

  it('keeps constants as tags, null as nullable, open objects open, and untypable shapes as raw JSON', () => {
    expect(thing.consts).toEqual([{ json: 'tag', value: 'thing' }]);
    expect(field('maybe')).toMatchObject({ required: true, type: { k: 'nullable', inner: { k: 'named', name: 'Kind' } } });
    expect(field('exit').type).toEqual({ k: 'nullable', inner: { k: 'integer' } });
    expect(field('blob').type).toEqual({ k: 'unknown' });
    expect(field('either').type).toEqual({ k: 'unknown' });
    expect(field('bag').type).toEqual({ k: 'map', values: { k: 'unknown' } });
    expect(thing.open).toBe(false);
    expect(model.byName.get('Open')).toMatchObject({ open: true });
    expect(model.byName.get('Either')).toMatchObject({ tag: 'tag', variants: [{ name: 'Thing', tag: 'thing' }, { name: 'EitherOther', tag: 'other' }] });
  });

  it('refuses one title for two shapes, and a union variant without its tag', () => {
    expect(() => buildClientModel(doc({
      A: { type: 'object', properties: { x: { title: 'X', type: 'string', enum: ['1'] }, y: { title: 'X', type: 'string', enum: ['2'] } } },
    }))).toThrow(/title X names two different shapes/);
    expect(() => buildClientModel(doc({
      U: { type: 'object', discriminator: { propertyName: 't' }, oneOf: [{ type: 'object', properties: { u: { type: 'string' } } }] },
    }))).toThrow(/U: a variant has no const "t"/);
  });

  it('finds the keys every variant of a union declares alike, for the Go shared accessors', () => {
    const parts = buildClientModel(doc({
      A: { type: 'object', additionalProperties: false, required: ['t', 'id', 'n'], properties: { t: { const: 'a', type: 'string' }, id: { type: 'string' }, n: { type: 'integer' }, m: { type: 'string' } } },
      B: { type: 'object', additionalProperties: false, required: ['t', 'id', 'n'], properties: { t: { const: 'b', type: 'string' }, id: { type: 'string' }, n: { type: 'string' }, m: { type: 'string' } } },
      C: { type: 'object', additionalProperties: false, required: ['t', 'id', 'm'], properties: { t: { const: 'c', type: 'string' }, id: { type: 'string' }, n: { type: 'integer' }, m: { type: 'string' } } },
      U: { type: 'object', discriminator: { propertyName: 't' }, oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }, { $ref: '#/$defs/C' }] },
    }));
    // n differs in type between A and B, m in required-ness between A and C: only id is shared.
    expect(sharedFields(parts, 'U').map((f) => f.json)).toEqual(['id']);
    expect(() => sharedFields(parts, 'A')).toThrow(/A is not a tagged union/);
    // The real schema: the part keys, so the Part accessors cover them.
    const real = buildClientModel(JSON.parse(readFileSync(join(REPO_ROOT, 'schema/toolnorm.schema.json'), 'utf8')));
    expect(sharedFields(real, 'NormalizedToolPart').map((f) => f.json)).toEqual(['id', 'name', 'kind', 'title', 'input', 'timing', 'metadata']);
    const go = genGo(real);
    for (const variant of ['StartedToolPart', 'RunningToolPart', 'CompleteToolPart', 'ErrorToolPart']) {
      expect(go).toContain(`func (v *${variant}) ID() string { return v.PartFields.ID }`);
      expect(go).toMatch(new RegExp(`func \\(v \\*${variant}\\) State\\(\\) ToolState \\{ return ToolState\\w+ \\}`));
    }
    expect(go).toContain('type Part = NormalizedToolPartVariant');
  });

  it('gives Go field names the usual initialisms', () => {
    expect(['toolCallId', '_meta', 'mimeType', 'sha256', 'uri', 'mcp', 'elapsedMs'].map(goFieldName)).toEqual(['ToolCallID', 'Meta', 'MimeType', 'SHA256', 'URI', 'MCP', 'ElapsedMs']);
  });
});
