import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { createReducer, reduceAll } from '../../src/events/reducer.js';
import { diagnosticsOf, projectInvocation, projectParts } from '../../src/events/projector.js';
import { emptySessionState } from '../../src/events/state.js';
import { ToolRepository } from '../../src/events/repository.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { ConcurrencyError, InvalidEventError } from '../../src/store/types.js';

const env = (partId: string, at: number) => ({ sessionId: 's', partId, at, source: { provider: 'claude' as const } });
const started = (id: string, at = 0, input: unknown = {}): ToolEvent => ({ type: 'tool.started', ...env(id, at), name: 'Bash', kind: 'bash', title: 'Run tests', input });

describe('reducer lifecycle', () => {
  it('keeps first-seen order and takes startedAt from the first event and completedAt from the terminal one', () => {
    const s = reduceAll([started('b', 10), started('a', 20), { type: 'tool.completed', ...env('a', 50), output: 'x' }, { type: 'tool.progress', ...env('b', 30) }], emptySessionState());
    const [b, a] = projectParts(s);
    expect([b!.id, a!.id]).toEqual(['b', 'a']);
    expect(b!.state).toBe('running');
    expect(a).toMatchObject({ state: 'complete', output: 'x', timing: { startedAt: 20, completedAt: 50, elapsedMs: 30 } });
  });

  it("prefers the provider's elapsedMs over the computed one", () => {
    const s = reduceAll([started('a', 0), { type: 'tool.completed', ...env('a', 1000), elapsedMs: 420 }], emptySessionState());
    expect(projectParts(s)[0]!.timing).toEqual({ startedAt: 0, completedAt: 1000, elapsedMs: 420 });
  });

  it('accumulates partial input deltas, and a final input replaces them', () => {
    let s = reduceAll([started('a'), { type: 'tool.input.delta', ...env('a', 1), delta: '{"command":' }], emptySessionState());
    expect(projectParts(s)[0]!.input).toEqual({});
    s = reduceAll([{ type: 'tool.input.delta', ...env('a', 2), delta: '"ls"}' }], s);
    expect(projectParts(s)[0]!.input).toEqual({ command: 'ls' });
    s = reduceAll([{ type: 'tool.updated', ...env('a', 3), input: { command: 'ls -la' } }], s);
    expect(projectParts(s)[0]!.input).toEqual({ command: 'ls -la' });
    expect(s.parts.get('a')!.inputBuffer).toBeUndefined();
  });

  it('never lets a terminal state regress; the late event is kept as a diagnostic', () => {
    const late: ToolEvent = { type: 'tool.completed', ...env('a', 9), output: 'late' };
    const s = reduceAll([started('a'), { type: 'tool.failed', ...env('a', 5), error: { message: 'denied', code: 'denied' } }, late, { type: 'tool.progress', ...env('a', 10) }], emptySessionState());
    const p = projectParts(s)[0]!;
    expect(p.state).toBe('error');
    const d = diagnosticsOf(s);
    expect(d.map((x) => x.code)).toEqual(['late_event', 'late_event']);
    expect(d[0]!.excerpt).toContain('"output":"late"');
  });

  it('a result before its call still produces a part plus a diagnostic, and the call then names it', () => {
    let s = reduceAll([{ type: 'tool.completed', ...env('a', 5), output: 'early' }], emptySessionState());
    expect(projectParts(s)[0]).toMatchObject({ id: 'a', name: 'unknown', kind: 'unknown', state: 'complete', output: 'early' });
    expect(diagnosticsOf(s)[0]!.code).toBe('unknown_part');
    s = reduceAll([started('a', 1, { command: 'ls' })], s);
    expect(projectParts(s)[0]).toMatchObject({ name: 'Bash', kind: 'bash', title: 'Run tests', state: 'complete', output: 'early', input: { command: 'ls' } });
    expect(diagnosticsOf(s)).toHaveLength(1);
  });

  it('replaces oversized metadata values by a size marker and records it in metadata.truncated', () => {
    const reducer = createReducer({ metadataLimitBytes: 1024 });
    const blob = 'x'.repeat(5000);
    const s = reduceAll([{ ...started('a'), metadata: { provider: 'claude', task: { id: 't1', transcript: blob } } } as ToolEvent], emptySessionState(), reducer);
    const m = projectParts(s)[0]!.metadata!;
    expect((m.task as Record<string, unknown>).id).toBe('t1');
    expect((m.task as Record<string, unknown>).transcript).toBe('[omitted by toolnorm: 5002 bytes]');
    expect(m.truncated).toEqual([{ path: '/metadata/task/transcript', originalBytes: 5002, reason: 'metadata budget of 1024 bytes' }]);
    expect(m.provider).toBe('claude');
  });

  it('projects executor history records from the same events', () => {
    const s = reduceAll([
      started('a', 0),
      { type: 'tool.policy.assessed', ...env('a', 0), assessment: { tool: 'Bash', tier: 'execute', maxTier: 'observe', decision: 'deny', checks: [{ gate: 'tier', decision: 'deny', reason: 'execute is above observe' }], reasons: ['execute is above observe'] } },
      { type: 'tool.failed', ...env('a', 1), error: { message: 'Denied: execute is above observe', code: 'denied' } },
    ], emptySessionState());
    expect(projectInvocation(s.parts.get('a')!)).toMatchObject({ partId: 'a', status: 'denied', tool: 'Bash', elapsedMs: 1, mutations: [] });
  });
});

describe('repository over the in-memory store', () => {
  it('answers parts, one part and diagnostics; appends use optimistic concurrency; invalid events are refused whole', async () => {
    const store = new MemoryEventStore();
    await store.append('s', [started('a'), started('b')], 0);
    await expect(store.append('s', [started('c')], 0)).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.append('s', [started('c'), { type: 'tool.nope' } as unknown as ToolEvent], 2)).rejects.toBeInstanceOf(InvalidEventError);
    expect(await store.head('s')).toBe(2);
    await store.append('s', [{ type: 'tool.completed', ...env('a', 3), output: 'ok' }, { type: 'tool.completed', ...env('a', 4), output: 'again' }], 2);
    const repo = new ToolRepository(store);
    expect((await repo.parts('s')).map((p) => `${p.id}:${p.state}`)).toEqual(['a:complete', 'b:started']);
    expect(await repo.part('s', 'a')).toMatchObject({ output: 'ok' });
    expect(await repo.part('s', 'zzz')).toBeUndefined();
    expect((await repo.diagnostics('s')).map((d) => d.code)).toEqual(['late_event']);
    const events = [];
    for await (const e of store.read('s', { fromSeq: 3 })) events.push(e.seq);
    expect(events).toEqual([3, 4]);
  });
});
