// The reducer decides whether a part's metadata needs an exact size check from an upper bound of
// its serialized length; the bound must never be below the truth, or over-budget metadata would
// slip through unchecked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLengthBound } from '../../src/events/budget.js';
import { createReducer } from '../../src/events/reducer.js';
import { emptySessionState } from '../../src/events/state.js';
import type { ToolEvent } from '../../src/contract/index.js';

/** Strings rich in what JSON escapes: quotes, backslashes, control characters, lone and paired surrogates. */
const nasty = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\ud800', '\udc00', '😀', 'é', 'a'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 700 });
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, nasty, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(nasty, tie('v'), { maxKeys: 5 })),
})).v;

describe('jsonLengthBound', () => {
  it('is never below JSON.stringify(value).length (10k cases)', () => {
    fc.assert(fc.property(value, (v) => { expect(jsonLengthBound(v, Number.MAX_SAFE_INTEGER)).toBeGreaterThanOrEqual((JSON.stringify(v) ?? '').length); }), { numRuns: 10_000 });
  });

  it('reports cap + 1 once the bound passes the cap, and 2 for an empty object', () => {
    expect(jsonLengthBound({ a: 'x'.repeat(100) }, 50)).toBe(51);
    const plain = { provider: 'claude', rawType: 'tool_use:Bash', cwd: '/home/u/project' };
    expect(jsonLengthBound(plain, 10_000)).toBeGreaterThanOrEqual(JSON.stringify(plain).length);
    expect(jsonLengthBound('plain', 100)).toBeLessThanOrEqual(6 * 'plain'.length + 2);
    expect(jsonLengthBound({}, 100)).toBe(2);
    // The longest numbers JSON writes (found by this suite in CI): 25 characters.
    for (const n of [-0.0000010505242508290752, -1.2345678901234567e-308, -123456789012345680000]) expect(jsonLengthBound(n, 100)).toBeGreaterThanOrEqual(JSON.stringify(n).length);
    expect(jsonLengthBound({ gone: undefined }, 100)).toBe(2);
  });

  it('still lets the reducer enforce the budget when merges add up past it', () => {
    const reducer = createReducer({ metadataLimitBytes: 2048 });
    const source = { provider: 'claude' as const };
    let state = reducer(emptySessionState(), { type: 'tool.started', sessionId: 's', partId: 'p', at: 1, source, name: 'Bash', kind: 'bash', title: 'Running', input: {}, metadata: { provider: 'claude', note: 'n'.repeat(600) } } as ToolEvent);
    for (let i = 0; i < 5; i++) state = reducer(state, { type: 'tool.updated', sessionId: 's', partId: 'p', at: 2 + i, source, metadata: { [`k${i}`]: 'v'.repeat(600) } } as ToolEvent);
    const record = state.parts.get('p')!;
    expect(Buffer.byteLength(JSON.stringify(record.metadata))).toBeLessThanOrEqual(2048);
    expect(record.metadata.truncated?.length).toBeGreaterThan(0);
    expect(record.metadataChars).toBeGreaterThanOrEqual(JSON.stringify(record.metadata).length);
  });
});
