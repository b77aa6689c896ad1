// fast-check arbitraries that produce contract-valid values by construction (tests also assert it).
import fc from 'fast-check';
import type { NormalizedToolPart, ToolEvent, ToolKind, ToolMetadata } from '../../src/contract/index.js';

export const KINDS: ToolKind[] = ['web_search', 'browser', 'file_read', 'file_write', 'file_edit', 'bash', 'subagent', 'mcp', 'question', 'todo', 'unknown'];

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype');
const scalar = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)), fc.boolean(), fc.constant(null));

/** JSON values without `__proto__` keys and without -0 (which JSON cannot carry). */
export const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
})).value;

const nonEmpty = fc.string({ minLength: 1, maxLength: 24 });
const epoch = fc.integer({ min: 0, max: 2_000_000_000_000 });

export const metadata: fc.Arbitrary<ToolMetadata> = fc.record({
  provider: fc.constantFrom('claude', 'codex', 'opencode', 'acp', 'executor'),
  rawType: fc.string({ maxLength: 16 }),
  mcp: fc.record({ server: nonEmpty, tool: nonEmpty }),
  parentId: nonEmpty,
  childSessionId: nonEmpty,
  task: fc.dictionary(key, json, { maxKeys: 3 }),
  exitCode: fc.oneof(fc.integer({ min: -5, max: 255 }), fc.constant(null)),
  custom: json,
}, { requiredKeys: [] }) as fc.Arbitrary<ToolMetadata>;

const error = fc.record({ message: nonEmpty, code: fc.constantFrom('denied', 'cancelled', 'timeout', 'exit_nonzero', 'tool_error'), details: json }, { requiredKeys: ['message'] });

const instant = fc.oneof(epoch, fc.constant('2026-11-30T08:00:00Z'));
const timing = fc.record({ startedAt: instant, completedAt: instant, elapsedMs: fc.integer({ min: 0, max: 10_000_000 }) }, { requiredKeys: [] });

export const part: fc.Arbitrary<NormalizedToolPart> = fc
  .record({
    id: nonEmpty,
    name: nonEmpty,
    kind: fc.constantFrom(...KINDS),
    title: nonEmpty,
    input: json,
    state: fc.constantFrom('started', 'running', 'complete', 'error'),
    output: fc.option(json, { nil: undefined }),
    error,
    timing: fc.option(timing, { nil: undefined }),
    metadata: fc.option(metadata, { nil: undefined }),
  })
  .map(({ output, error: err, timing: t, metadata: m, ...rest }) => {
    const p: Record<string, unknown> = { ...rest };
    if (t) p.timing = t;
    if (m) p.metadata = m;
    if (rest.state === 'complete' && output !== undefined) p.output = output;
    if (rest.state === 'error') p.error = err;
    return p as unknown as NormalizedToolPart;
  });

const TYPES = ['tool.started', 'tool.input.delta', 'tool.updated', 'tool.progress', 'tool.completed', 'tool.failed', 'tool.output.compressed', 'tool.file.mutated', 'tool.policy.assessed'] as const;
const sha = fc.constantFrom('0'.repeat(64), 'ab'.repeat(32));

/** A stream of events over a few part ids, in any order (results before calls, repeats, late events). */
export function eventStream(maxLength = 30): fc.Arbitrary<ToolEvent[]> {
  const one = fc.record({
    type: fc.constantFrom(...TYPES),
    partId: fc.constantFrom('p1', 'p2', 'p3', 'p4'),
    at: fc.integer({ min: 0, max: 10_000 }),
    name: nonEmpty,
    kind: fc.constantFrom(...KINDS),
    title: nonEmpty,
    input: json,
    delta: fc.constantFrom('{"a":', '1}', '[', '"x"', ''),
    output: json,
    error,
    elapsed: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
    metadata: fc.option(metadata, { nil: undefined }),
    message: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    outputDelta: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
    sha,
  });
  return fc.array(one, { maxLength }).map((raw) =>
    raw.map((r): ToolEvent => {
      const env = { sessionId: 's', partId: r.partId, at: r.at, source: { provider: 'executor' as const } };
      const meta = r.metadata ? { metadata: r.metadata } : {};
      const el = r.elapsed !== undefined ? { elapsedMs: r.elapsed } : {};
      switch (r.type) {
        case 'tool.started': return { type: r.type, ...env, name: r.name, kind: r.kind, title: r.title, input: r.input, ...meta };
        case 'tool.input.delta': return { type: r.type, ...env, delta: r.delta };
        case 'tool.updated': return { type: r.type, ...env, title: r.title, input: r.input, ...meta };
        case 'tool.progress': return { type: r.type, ...env, ...(r.message !== undefined ? { message: r.message } : {}), ...(r.outputDelta !== undefined ? { outputDelta: r.outputDelta } : {}), ...el };
        case 'tool.completed': return { type: r.type, ...env, output: r.output, ...el, ...meta };
        case 'tool.failed': return { type: r.type, ...env, error: r.error, ...el };
        case 'tool.output.compressed': return { type: r.type, ...env, output: 'short', compression: { stats: { specId: 's', strategy: 'head', estimator: 'bytes4', originalBytes: 10, originalLines: 2, originalTokens: 3, keptBytes: 5, keptLines: 1, keptTokens: 2, omittedLines: 1, omittedBytes: 5 }, original: { partId: r.partId, sha256: r.sha } } };
        case 'tool.file.mutated': return { type: r.type, ...env, mutation: { path: '/w/a', operation: 'modify', before: { size: 1, sha256: r.sha }, after: { size: 2, sha256: r.sha } } };
        case 'tool.policy.assessed': return { type: r.type, ...env, assessment: { tool: r.name, tier: 'observe', maxTier: 'execute', decision: 'allow', checks: [], reasons: [] } };
      }
    }),
  );
}
