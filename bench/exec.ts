// `npm run bench -- exec [--n N]`: the executor's overhead per call for a no-op tool, next to a
// direct call of the same function, measured in the same run. The rows split the overhead:
// params validation, policy assessment, and the full call with events (into a store that only
// counts them, then into the reference MemoryEventStore, which validates and copies each one).
import { Type } from '@sinclair/typebox';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolEvent } from '../src/contract/index.js';
import { assess, resolvePolicy, success, ToolExecutor, ToolRegistry, type Tool } from '../src/executor/index.js';
import { MemoryEventStore } from '../src/store/memory.js';
import type { AppendResult, EventStore, StoredEvent } from '../src/store/types.js';

/** Accepts every append and keeps nothing: isolates the executor's own cost from a store's. */
class CountingStore implements EventStore {
  private heads = new Map<string, number>();
  calls = 0;
  async append(sessionId: string, events: readonly ToolEvent[], _expected: number): Promise<AppendResult> {
    const first = (this.heads.get(sessionId) ?? 0) + 1;
    this.heads.set(sessionId, first + events.length - 1);
    if (events[0]?.type === 'tool.started') this.calls++;
    return { sessionId, firstSeq: first, lastSeq: first + events.length - 1 };
  }
  async *read(): AsyncIterable<StoredEvent> {}
  async head(sessionId: string) { return this.heads.get(sessionId) ?? 0; }
  async sessions() { return []; }
  async saveSnapshot() {}
  async loadSnapshot() { return undefined; }
  async close() {}
}

type Body = (i: number) => Promise<unknown> | unknown;

/** µs per call of each row: rows run interleaved in rounds and the median round counts, so a noisy neighbour hits every row alike. */
async function measure(rows: [string, Body][], n: number, rounds: number): Promise<[string, number][]> {
  const per = Math.max(1, Math.floor(n / rounds));
  for (const [, body] of rows) for (let i = 0; i < Math.min(2000, per); i++) await body(i); // warm-up
  const samples = rows.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [k, [, body]] of rows.entries()) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < per; i++) await body(i);
      samples[k]!.push(Number(process.hrtime.bigint() - t0) / 1000 / per);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return rows.map(([label], k) => [label, median(samples[k]!)]);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { n: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });
  const n = Number(values.n);
  const rounds = Number(values.rounds);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolnorm-bench-')));
  try {
    const noop = async () => success({ text: 'ok' });
    const params = Type.Object({ label: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
    const tool: Tool = { name: 'noop', kind: 'unknown', tier: 'observe', description: 'does nothing', params, title: () => 'Doing nothing', execute: noop };
    const pathTool: Tool = { ...tool, name: 'noop_path', params: Type.Object({ path: Type.String() }), paramRoles: { '/path': 'PATH' } };
    const registry = new ToolRegistry([tool, pathTool]);
    const input = { label: 'x', count: 1 };
    const policy = await resolvePolicy({}, dir);
    const session = { sessionId: 'bench', cwd: dir, home: dir };

    const counting = new CountingStore();
    const exCount = new ToolExecutor({ registry, store: counting, cwd: dir, home: dir, sessionId: 'c' });
    const exPath = new ToolExecutor({ registry, store: new CountingStore(), cwd: dir, home: dir, sessionId: 'p' });
    const exMem = new ToolExecutor({ registry, store: new MemoryEventStore(), cwd: dir, home: dir, sessionId: 'm' });
    const rows = await measure([
      ['direct call of the tool function', () => noop()],
      ['params validation only (compiled ajv)', () => registry.validateParams('noop', input)],
      ['policy assessment only (tier gate)', () => assess(tool, input, session, policy)],
      ['policy assessment only (tier + one PATH)', () => assess(pathTool, { path: 'a/b.txt' }, session, policy)],
      ['executor.execute, counting store', () => exCount.execute({ tool: 'noop', input })],
      ['executor.execute + PATH param, counting store', () => exPath.execute({ tool: 'noop_path', input: { path: 'a/b.txt' } })],
      ['executor.execute, MemoryEventStore', () => exMem.execute({ tool: 'noop', input })],
    ], n, rounds);
    const calls = await counting.head('c');

    const direct = rows[0]![1];
    console.log(`toolnorm exec bench: ${n} calls per row in ${rounds} interleaved rounds (median round shown), no-op tool, node ${process.version}`);
    console.log(`${'row'.padEnd(48)} ${'µs/call'.padStart(9)} ${'overhead µs'.padStart(12)} ${'× direct'.padStart(9)}`);
    for (const [label, us] of rows) {
      console.log(`${label.padEnd(48)} ${us.toFixed(2).padStart(9)} ${(us - direct).toFixed(2).padStart(12)} ${(us / direct).toFixed(1).padStart(9)}`);
    }
    console.log(`events per call: ${calls / (counting.calls)} (tool.started, tool.policy.assessed, tool.progress, tool.completed)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
