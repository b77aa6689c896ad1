// ToolExecutor: the order of steps, the events each outcome leaves, and the invariant that the
// terminal event is stored before execute() returns, whatever the tool did.
import { Type } from '@sinclair/typebox';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  issuesOfToolCallAssessmentRecord, issuesOfToolInvocationRecord, issuesOfValidationResult, type ToolEvent, type ToolOutputCompressedEvent,
} from '../../src/contract/index.js';
import type { ToolOutputCompressor } from '../../src/compress/types.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import {
  ExecutorRecordError, ToolExecutor, ToolRegistry, builtinTools, failure, success, type FileAffectingTool, type Tool, type ToolExecutorOptions,
} from '../../src/executor/index.js';
import { checkResult, sleep, tempDir } from '../helpers/executor.js';

const ws = tempDir();

function tool(partial: Partial<Tool> & Pick<Tool, 'execute'>): Tool {
  return { name: 'probe', kind: 'unknown', tier: 'observe', description: 'test tool', params: Type.Object({}, { additionalProperties: true }), title: () => 'Probing', ...partial };
}

function executor(tools: Tool[], options: Partial<ToolExecutorOptions> = {}) {
  return new ToolExecutor({ registry: new ToolRegistry(tools), cwd: ws, home: ws, abortGraceMs: 200, ...options });
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The whole stored stream of an executor's session: it must be exactly what the call reported. */
async function stored(ex: ToolExecutor): Promise<ToolEvent[]> {
  const out: ToolEvent[] = [];
  for await (const e of ex.store.read(ex.sessionId)) out.push(e);
  return out;
}

describe('lifecycle', () => {
  it('a completed call: started → assessed → running → completed, stored before execute returns', async () => {
    const store = new MemoryEventStore();
    const ex = executor([tool({ execute: async (_i, ctx) => { ctx.progress({ message: 'half way' }); return success({ text: 'done' }, { exitCode: 0 }); } })], { store, sessionId: 'S1' });
    const r = await ex.execute({ tool: 'probe', input: { a: 1 } });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.progress', 'tool.completed']);
    expect(r.part).toMatchObject({ state: 'complete', name: 'probe', title: 'Probing', input: { a: 1 }, output: { text: 'done' }, metadata: { provider: 'executor', exitCode: 0 } });
    expect(r.status).toBe('succeeded');
    expect(await store.head('S1')).toBe(r.events.at(-1)!.seq);
    // The repository, replaying the store, sees exactly what execute() returned.
    const repo = ex.repository();
    expect(await repo.part('S1', r.part.id)).toEqual(r.part);
    const [inv] = await repo.invocations('S1');
    expect(issuesOfToolInvocationRecord(inv)).toEqual([]);
    expect(inv).toEqual(r.invocation);
    expect(inv).toMatchObject({ tool: 'probe', status: 'succeeded', mutations: [] });
    expect(issuesOfToolCallAssessmentRecord(inv!.assessment)).toEqual([]);
  });

  it('events carry the injected clock and the part its elapsed time', async () => {
    let now = 1000;
    const ex = executor([tool({ execute: async () => { now += 250; return success(); } })], { clock: () => now, newPartId: () => 'p-1' });
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(r.part.id).toBe('p-1');
    expect(r.part.timing).toEqual({ startedAt: 1000, completedAt: 1250, elapsedMs: 250 });
    expect(r.part.state === 'complete' && 'output' in r.part).toBe(false);
  });

  it('parallel calls on one session interleave without gaps or lost events', async () => {
    const store = new MemoryEventStore();
    const ex = executor([tool({ execute: async (i: any, ctx) => { for (let k = 0; k < 3; k++) { ctx.progress({ message: `step ${k}` }); await sleep(1); } return success({ text: String(i.n) }); } })], { store, sessionId: 'P' });
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => ex.execute({ tool: 'probe', input: { n } })));
    const all: ToolEvent[] = [];
    for await (const e of store.read('P')) all.push(e);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.length).toBe(results.reduce((n, r) => n + r.events.length, 0));
    results.forEach((r, n) => {
      expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.progress', 'tool.progress', 'tool.progress', 'tool.completed']);
      expect(r.part).toMatchObject({ state: 'complete', output: { text: String(n) } });
    });
    expect((await ex.repository().parts('P')).length).toBe(8);
  });

  it('another writer appending to the same session is waited for, not overwritten', async () => {
    const store = new MemoryEventStore();
    const ex = executor([tool({ execute: async () => {
      // Someone else appends while the tool runs: our next append meets a moved head.
      await store.append('shared', [{ type: 'tool.started', sessionId: 'shared', partId: 'other', at: 1, source: { provider: 'executor' }, name: 'x', kind: 'unknown', title: 'Other' }], await store.head('shared'));
      return success({ text: 'ok' });
    } })], { store, sessionId: 'shared' });
    const r = await ex.execute({ tool: 'probe', input: {} });
    checkResult({ ...r, events: r.events.slice(3) });
    expect(r.events.map((e) => e.seq)).toEqual([1, 2, 3, 5]);
    expect((await ex.repository().parts('shared')).map((p) => [p.id, p.state])).toEqual([[r.part.id, 'complete'], ['other', 'started']]);
  });
});

describe('failures leave a failed part with the right code and a complete history', () => {
  it('a tool that throws → tool_error', async () => {
    const ex = executor([tool({ execute: async () => { throw new TypeError('boom'); } })]);
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.failed']);
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'tool_error', message: 'boom', details: { thrown: 'TypeError' } } });
    expect(r.status).toBe('failed');
    expect(await stored(ex)).toEqual(r.events);
    expect(await ex.repository().part(ex.sessionId, r.part.id)).toEqual(r.part);
  });

  it('a tool that throws synchronously (not even a promise) → tool_error', async () => {
    const ex = executor([tool({ execute: (() => { throw new Error('sync boom'); }) as unknown as Tool['execute'] })]);
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'tool_error', message: 'sync boom' } });
  });

  it('a tool that times out → timeout, after its signal fired', async () => {
    let sawAbort = false;
    const ex = executor([tool({ execute: (_i, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { sawAbort = true; resolve(failure('stopped', 'stopped')); })) })]);
    const r = await ex.execute({ tool: 'probe', input: {}, timeoutMs: 30 });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.failed']);
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'timeout', message: 'timed out after 30 ms', details: { limitMs: 30 } } });
    expect(sawAbort).toBe(true);
    expect(await stored(ex)).toEqual(r.events);
    expect(await ex.repository().part(ex.sessionId, r.part.id)).toEqual(r.part);
  });

  it("a tool that ignores its signal is recorded anyway after the grace period, and says so", async () => {
    const ex = executor([tool({ execute: () => new Promise(() => {}) })], { abortGraceMs: 20 });
    const r = await ex.execute({ tool: 'probe', input: {}, timeoutMs: 20 });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'timeout', details: { stillRunning: true } } });
  });

  it('the tightest limit wins: the tool asks for less than the executor default', async () => {
    const ex = executor([tool({ timeoutMs: () => 25, execute: (_i, ctx) => new Promise((res) => ctx.signal.addEventListener('abort', () => res(success()))) })], { defaultTimeoutMs: 60_000 });
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'timeout', details: { limitMs: 25 } } });
  });

  it('a call aborted by the caller while running → cancelled, with the reason', async () => {
    const controller = new AbortController();
    const ex = executor([tool({ execute: (_i, ctx) => { ctx.progress({ outputDelta: 'partial output' }); setTimeout(() => controller.abort(new Error('user pressed stop')), 10); return new Promise((res) => ctx.signal.addEventListener('abort', () => res(failure('aborted', 'x')))); } })]);
    const r = await ex.execute({ tool: 'probe', input: {}, signal: controller.signal });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.progress', 'tool.failed']);
    expect(r.events[3]).toMatchObject({ type: 'tool.progress', outputDelta: 'partial output' });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'cancelled', message: 'cancelled: user pressed stop', details: { reason: 'user pressed stop' } } });
    expect(await stored(ex)).toEqual(r.events);
    expect(await ex.repository().part(ex.sessionId, r.part.id)).toEqual(r.part);
    expect(r.invocation).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
  });

  it('a call aborted before it starts never runs', async () => {
    const execute = vi.fn(async () => success());
    const ex = executor([tool({ execute })]);
    const r = await ex.execute({ tool: 'probe', input: {}, signal: AbortSignal.abort() });
    expect(execute).not.toHaveBeenCalled();
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.failed']);
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'cancelled' } });
  });

  it('a failure result keeps its code and details; missing codes become tool_error', async () => {
    const ex = executor([
      tool({ name: 'a', execute: async () => failure('nope', 'not_found', { path: 'x' }, { exitCode: 2 }) }),
      tool({ name: 'b', execute: async () => ({ ok: false, error: { message: '' } }) }),
      tool({ name: 'c', execute: async () => 'not a result' as never }),
      tool({ name: 'd', execute: async () => success({ structured: { n: 10n } }) }),
    ]);
    expect((await ex.execute({ tool: 'a', input: {} })).part).toMatchObject({ state: 'error', error: { code: 'not_found', message: 'nope', details: { path: 'x' } }, metadata: { exitCode: 2 } });
    expect((await ex.execute({ tool: 'b', input: {} })).part).toMatchObject({ error: { code: 'tool_error', message: 'the tool failed without a message' } });
    expect((await ex.execute({ tool: 'c', input: {} })).part).toMatchObject({ error: { code: 'tool_error', message: /not a ToolResult/ } });
    expect((await ex.execute({ tool: 'd', input: {} })).part).toMatchObject({ error: { code: 'invalid_output', message: /BigInt/ } });
  });

  it('invalid params → invalid_input with the ValidationResult, no assessment, nothing run', async () => {
    const execute = vi.fn(async () => success());
    const t = tool({ params: Type.Object({ path: Type.String(), n: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }), execute });
    const ex = executor([t]);
    const r = await ex.execute({ tool: 'probe', input: { n: 0, extra: true } });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.failed']);
    expect(execute).not.toHaveBeenCalled();
    const details = (r.part as { error: { details: unknown } }).error.details;
    expect(issuesOfValidationResult(details)).toEqual([]);
    expect(details).toMatchObject({ valid: false });
    expect((details as { issues: { path: string; keyword: string }[] }).issues.map((i) => [i.path, i.keyword]).sort()).toEqual([['/extra', 'additionalProperties'], ['/n', 'minimum'], ['/path', 'required']]);
    expect(r.part).toMatchObject({ state: 'error', title: 'Calling probe', error: { code: 'invalid_input' } });
  });

  it("the tool's own validate() runs after the schema and can reject", async () => {
    const ex = executor(builtinTools());
    writeFileSync(join(ws, 'v.txt'), 'x');
    const r = await ex.execute({ tool: 'file_edit', input: { path: 'v.txt', old: 'x', new: 'x' } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'invalid_input', details: { valid: false, issues: [{ path: '/new' }] } } });
  });

  it('input that is not JSON data is refused as invalid_input and recorded as a marker', async () => {
    const ex = executor([tool({ execute: async () => success() })]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const r = await ex.execute({ tool: 'probe', input: cyclic });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'invalid_input' }, input: { unserializable: expect.stringMatching(/circular/) } });
  });

  it('an unknown tool → unknown_tool, still recorded', async () => {
    const ex = executor([tool({ execute: async () => success() })]);
    const r = await ex.execute({ tool: 'nope', input: {} });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.failed']);
    expect(r.part).toMatchObject({ name: 'nope', kind: 'unknown', title: 'Calling nope', state: 'error', error: { code: 'unknown_tool', message: /known: probe/ } });
  });

  it('a denied call never runs, and its history says why', async () => {
    const execute = vi.fn(async () => success());
    const ex = executor([tool({ tier: 'execute', execute })], { policy: { maxTier: 'workspace' } });
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(checkResult(r)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.failed']);
    expect(execute).not.toHaveBeenCalled();
    expect(r.status).toBe('denied');
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'denied', message: 'Denied: tier execute (runs commands in the session working directory) is above the session maximum workspace' } });
    expect(r.invocation.assessment).toMatchObject({ decision: 'deny', maxTier: 'workspace', tier: 'execute' });
  });

  it('a store that refuses the start: the tool does not run and the caller is told', async () => {
    const execute = vi.fn(async () => success());
    const store = new MemoryEventStore();
    store.append = async () => { throw new Error('disk full'); };
    const ex = executor([tool({ execute })], { store });
    const err = await ex.execute({ tool: 'probe', input: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutorRecordError);
    expect(err).toMatchObject({ ran: false, message: /did not run because its start could not be stored: disk full/ });
    expect(execute).not.toHaveBeenCalled();
  });

  it('a store that refuses the outcome: the caller is told the call ran', async () => {
    const store = new MemoryEventStore();
    const append = store.append.bind(store);
    store.append = async (s, events, seq) => {
      if (events.some((e) => e.type === 'tool.completed')) throw new Error('connection lost');
      return append(s, events, seq);
    };
    const ex = executor([tool({ execute: async () => success() })], { store });
    await expect(ex.execute({ tool: 'probe', input: {} })).rejects.toMatchObject({ name: 'ExecutorRecordError', ran: true, message: /ran but its outcome could not be stored: connection lost/ });
  });
});

describe('file side effects', () => {
  it('FileMutationRecords carry the operation and size + sha256 before and after', async () => {
    const ex = executor(builtinTools());
    const p = join(ws, 'm.txt');
    const w = await ex.execute({ tool: 'file_write', input: { path: 'm.txt', content: 'hello\n' } });
    expect(checkResult(w)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.file.mutated', 'tool.completed']);
    expect(w.invocation.mutations).toEqual([{ path: p, operation: 'create', before: null, after: { size: 6, sha256: sha('hello\n') } }]);
    const e = await ex.execute({ tool: 'file_edit', input: { path: 'm.txt', old: 'hello', new: 'bye' } });
    expect(e.invocation.mutations).toEqual([{ path: p, operation: 'modify', before: { size: 6, sha256: sha('hello\n') }, after: { size: 4, sha256: sha('bye\n') } }]);
    const miss = await ex.execute({ tool: 'file_edit', input: { path: 'm.txt', old: 'absent', new: 'x' } });
    expect(miss.part).toMatchObject({ state: 'error', error: { code: 'no_match' } });
    expect(miss.invocation.mutations).toEqual([{ path: p, operation: 'unchanged', before: { size: 4, sha256: sha('bye\n') }, after: { size: 4, sha256: sha('bye\n') } }]);
    const all = await ex.repository().invocations(ex.sessionId);
    expect(all.map((i) => i.mutations[0]!.operation)).toEqual(['create', 'modify', 'unchanged']);
    for (const i of all) expect(issuesOfToolInvocationRecord(i)).toEqual([]);
  });

  it('a deleting tool records delete; a tool that fails half way still has its mutation recorded', async () => {
    const { rm } = await import('node:fs/promises');
    const deleter: FileAffectingTool = {
      ...tool({ execute: async (_i, ctx) => { await rm(ctx.path('/path')); throw new Error('crashed after deleting'); } }),
      tier: 'workspace', params: Type.Object({ path: Type.String() }), paramRoles: { '/path': 'PATH' },
      affectedPaths: (_i, ctx) => [ctx.paths['/path']!],
    };
    writeFileSync(join(ws, 'del.txt'), 'bye');
    const r = await executor([deleter]).execute({ tool: 'probe', input: { path: 'del.txt' } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'tool_error', message: 'crashed after deleting' } });
    expect(r.invocation.mutations).toEqual([{ path: join(ws, 'del.txt'), operation: 'delete', before: { size: 3, sha256: sha('bye') }, after: null }]);
  });

  it('affected paths a tool declares beyond its PATH params pass the same write gate', async () => {
    const sneaky: FileAffectingTool = {
      ...tool({ execute: async () => success() }), tier: 'workspace', params: Type.Object({}),
      affectedPaths: () => ['/etc/toolnorm-sneaky', 'inside.txt'],
    };
    const r = await executor([sneaky]).execute({ tool: 'probe', input: {} });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'denied', message: /affected path: \/etc\/toolnorm-sneaky is outside the writable roots/ } });
    const checks = r.invocation.assessment!.checks.filter((c) => c.gate === 'PATH');
    expect(checks.map((c) => [c.resolved, c.decision])).toEqual([['/etc/toolnorm-sneaky', 'deny'], [join(ws, 'inside.txt'), 'allow']]);
  });

  it('the path a gate approved is the path the tool gets (relative, ~, .., and a cwd reached through a symlink)', async () => {
    const seen: string[] = [];
    const probe: Tool = { ...tool({ execute: async (_i, ctx) => { seen.push(ctx.path('/path'), ctx.path('path')); return success(); } }), params: Type.Object({ path: Type.String() }), paramRoles: { path: 'PATH' } };
    mkdirSync(join(ws, 'real-cwd', 'd'), { recursive: true });
    symlinkSync(join(ws, 'real-cwd'), join(ws, 'cwd-link'));
    const ex = executor([probe], { cwd: join(ws, 'cwd-link'), home: join(ws, 'real-cwd', 'd'), policy: { readRoots: [join(ws, 'cwd-link')] } });
    for (const given of ['f.txt', 'd/../f.txt', '~/../f.txt']) {
      const r = await ex.execute({ tool: 'probe', input: { path: given } });
      const check = r.invocation.assessment!.checks.find((c) => c.param === '/path')!;
      expect([given, check.decision, check.resolved]).toEqual([given, 'allow', join(ws, 'real-cwd', 'f.txt')]);
      expect(seen.splice(0)).toEqual([check.resolved, check.resolved]);
    }
  });

  it('relative paths anchor on the session cwd, never on process.cwd()', async () => {
    const elsewhere = tempDir('toolnorm-elsewhere-');
    const before = process.cwd();
    process.chdir(elsewhere);
    try {
      const r = await executor(builtinTools()).execute({ tool: 'file_write', input: { path: 'anchored.txt', content: 'x' } });
      expect(r.part.state).toBe('complete');
      expect(readFileSync(join(ws, 'anchored.txt'), 'utf8')).toBe('x');
      expect(existsSync(join(elsewhere, 'anchored.txt'))).toBe(false);
    } finally {
      process.chdir(before);
    }
    expect(() => new ToolExecutor({ registry: new ToolRegistry(), cwd: 'relative/dir' })).toThrow(/cwd must be absolute/);
  });

  it('a home outside the roots: ~ paths are denied like any other outside path', async () => {
    const home = tempDir('toolnorm-home-');
    const r = await executor(builtinTools(), { home }).execute({ tool: 'file_read', input: { path: '~/.ssh/id_rsa' } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'denied', message: `Denied: ~/.ssh/id_rsa resolves to ${home}/.ssh/id_rsa, which is outside the readable roots (${ws}); only a privileged session may read outside them` } });
  });
});

describe('compressor hook', () => {
  const big = 'line\n'.repeat(1000);
  const makeCompressor = (calls: { part: unknown; ctx: { seq?: number; provider: string } }[], valid = true): ToolOutputCompressor => ({
    compressPart(part, ctx) {
      calls.push({ part, ctx });
      const event: ToolOutputCompressedEvent = {
        type: 'tool.output.compressed', sessionId: ctx.sessionId, partId: part.id, at: ctx.at, source: { provider: ctx.provider },
        output: { text: 'line ×1000' },
        compression: {
          stats: {
            specId: 'test', strategy: 'collapse_repeats', estimator: 'bytes4', originalBytes: big.length, originalLines: 1000, originalTokens: big.length / 4,
            keptBytes: 11, keptLines: 1, keptTokens: 3, omittedLines: 999, omittedBytes: big.length - 5,
          },
          original: { partId: part.id, ...(ctx.seq !== undefined ? { seq: ctx.seq } : {}), sha256: valid ? sha(big) : 'not-a-hash' },
        },
      };
      return event;
    },
  });

  it('after a completed call the derived event is appended; the original output stays', async () => {
    const calls: { part: unknown; ctx: { seq?: number; provider: string } }[] = [];
    const ex = executor([tool({ execute: async () => success({ text: big }) })], { compressor: makeCompressor(calls) });
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(calls).toHaveLength(1);
    const completed = r.events.find((e) => e.type === 'tool.completed')!;
    expect(calls[0]!.ctx).toMatchObject({ seq: completed.seq, provider: 'executor' });
    expect(calls[0]!.part).toMatchObject({ state: 'complete', output: { text: big } });
    expect(checkResult(r).slice(-2)).toEqual(['tool.completed', 'tool.output.compressed']);
    expect(r.part).toMatchObject({ state: 'complete', output: { text: big }, metadata: { compression: { original: { seq: completed.seq } } } });
    expect(r.diagnostics).toEqual([]);
    expect(await ex.repository().part(ex.sessionId, r.part.id, { output: 'compressed' })).toMatchObject({ output: { text: 'line ×1000' } });
  });

  it('a derived event the store refuses becomes a diagnostic; the call stays complete', async () => {
    const ex = executor([tool({ execute: async () => success({ text: big }) })], { compressor: makeCompressor([], false) });
    const r = await ex.execute({ tool: 'probe', input: {} });
    expect(r.part.state).toBe('complete');
    expect(r.events.at(-1)!.type).toBe('tool.completed');
    expect(r.diagnostics).toMatchObject([{ code: 'compressor_error', message: /sha256/ }]);
  });

  it('is not asked about failed calls, and a throwing compressor becomes a diagnostic', async () => {
    const calls: unknown[] = [];
    const ex = executor([tool({ name: 'bad', execute: async () => failure('x', 'y') }), tool({ name: 'good', execute: async () => success({ text: 'ok' }) })], {
      compressor: { compressPart: (part) => { calls.push(part); throw new Error('compressor bug'); } },
    });
    await ex.execute({ tool: 'bad', input: {} });
    expect(calls).toHaveLength(0);
    const r = await ex.execute({ tool: 'good', input: {} });
    expect(calls).toHaveLength(1);
    expect(r.part.state).toBe('complete');
    expect(r.diagnostics).toMatchObject([{ severity: 'warning', code: 'compressor_error', message: /compressor bug/ }]);
  });
});

describe('with the real DeclarativeCompressor', () => {
  it('a long bash output gets a derived summary; the part keeps the full output', async () => {
    const { DeclarativeCompressor } = await import('../../src/compress/index.js');
    const compressor = new DeclarativeCompressor([{
      id: 'executor-bash', match: { providers: ['executor'], kinds: ['bash'] }, budget: { maxBytes: 400 }, strategy: [{ type: 'head_tail' }],
    }]);
    const ex = executor(builtinTools(), { compressor, policy: { maxTier: 'execute' } });
    const r = await ex.execute({ tool: 'bash', input: { command: 'seq 1 2000' } });
    expect(checkResult(r).slice(-2)).toEqual(['tool.completed', 'tool.output.compressed']);
    const full = (r.part as { output: { text: string } }).output.text;
    expect(full.split('\n')).toHaveLength(2001);
    const compressed = await ex.repository().part(ex.sessionId, r.part.id, { output: 'compressed' });
    const text = JSON.stringify((compressed as { output: unknown }).output);
    expect(Buffer.byteLength(text)).toBeLessThan(full.length);
    expect(r.part.metadata?.compression?.original).toMatchObject({ partId: r.part.id, seq: r.events.find((e) => e.type === 'tool.completed')!.seq, sha256: sha(full) });
  });
});
