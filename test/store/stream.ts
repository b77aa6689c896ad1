// A deterministic synthetic session: event i of a session is a pure function of (session, i), so
// a child process and the test that kills it agree on what "attempted" means without talking.
// Every event type of the contract appears, in a lifecycle the reducer accepts, so replays
// produce real parts (complete, error, compressed, with mutations and assessments).
import type { ToolEvent } from '../../src/contract/index.js';

/** Events per synthetic tool call. */
export const EVENTS_PER_PART = 8;

export interface StreamOptions {
  /** Every Nth part carries a large output of `bigBytes` characters (0 = never). */
  bigEvery?: number;
  bigBytes?: number;
  /** Tag put in part ids and inputs, e.g. a writer id. */
  tag?: string;
}

const HEX = '0123456789abcdef';
const sha = (n: number) => Array.from({ length: 64 }, (_, i) => HEX[(n * 31 + i * 7) % 16]).join('');

/** Deterministic text of `size` characters, varied enough not to compress to nothing. */
export function bigText(size: number, salt: number): string {
  const line = `line ${salt} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/** The i-th event (0-based; it is stored at seq i + 1) of a synthetic session. */
export function eventAt(sessionId: string, i: number, options: StreamOptions = {}): ToolEvent {
  const part = Math.floor(i / EVENTS_PER_PART);
  const phase = i % EVENTS_PER_PART;
  const tag = options.tag ?? 'p';
  const partId = `${tag}-${part}`;
  const at = 1_700_000_000_000 + i * 10;
  const env = { sessionId, partId, at, source: { provider: 'executor' as const, line: i + 1, offset: i * 100 } };
  const failed = part % 3 === 2;
  const path = `/work/src/file-${part % 17}.ts`;
  switch (phase) {
    case 0:
      return { ...env, type: 'tool.started', name: 'bash', kind: 'bash', title: `Run step ${part}`, input: { command: `echo ${tag} ${part}`, cwd: '/work' }, metadata: { provider: 'executor', rawType: 'bash' } };
    case 1:
      return {
        ...env,
        type: 'tool.policy.assessed',
        assessment: { tool: 'bash', tier: 'execute', maxTier: 'execute', decision: 'allow', checks: [{ gate: 'tier', decision: 'allow', reason: 'execute is within the session tier' }], reasons: [] },
      };
    case 2:
      return { ...env, type: 'tool.updated', title: `Run step ${part} (refined)`, input: { command: `echo ${tag} ${part} && true`, cwd: '/work' } };
    case 3:
      return { ...env, type: 'tool.progress', message: 'running', outputDelta: `out ${part} a\n`, elapsedMs: 5 };
    case 4:
      return { ...env, type: 'tool.progress', outputDelta: `out ${part} b — ünïcødé ✓\n`, elapsedMs: 9 };
    case 5:
      return { ...env, type: 'tool.file.mutated', mutation: { path, operation: part % 2 ? 'modify' : 'create', before: part % 2 ? { size: part, sha256: sha(part) } : null, after: { size: part + 1, sha256: sha(part + 1) } } };
    case 6: {
      if (failed) return { ...env, type: 'tool.failed', error: { message: `step ${part} exited with 3`, code: 'exit_nonzero', details: { exitCode: 3 } }, elapsedMs: 12, metadata: { exitCode: 3 } };
      const big = options.bigEvery && options.bigBytes && part % options.bigEvery === 0;
      const text = big ? bigText(options.bigBytes!, part) : `out ${part} a\nout ${part} b\n`;
      return { ...env, type: 'tool.completed', output: { text, exitCode: 0 }, elapsedMs: 12, metadata: { exitCode: 0 } };
    }
    default:
      if (failed) return { ...env, type: 'tool.updated', metadata: { note: `step ${part} failed`, nested: { values: [1, 2.5, null, true, 'x'] } } };
      return {
        ...env,
        type: 'tool.output.compressed',
        output: { text: `out ${part} a\n… 1 line omitted` },
        compression: {
          stats: { specId: 'bash-tail', strategy: 'tail', estimator: 'bytes4', originalBytes: 20, originalLines: 2, originalTokens: 5, keptBytes: 10, keptLines: 1, keptTokens: 3, omittedLines: 1, omittedBytes: 10 },
          original: { partId, seq: i, sha256: sha(part) },
        },
      };
  }
}

export function eventsRange(sessionId: string, from: number, to: number, options: StreamOptions = {}): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (let i = from; i < to; i++) out.push(eventAt(sessionId, i, options));
  return out;
}

/** Small seeded PRNG (mulberry32): reproducible "random" moments and sizes. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Batch size a crash child uses when the stream head is `head`: deterministic, 1..64. */
export function batchSizeAt(head: number): number {
  return 1 + ((head * 2654435761) >>> 0) % 64;
}

/** The stream crash children append: every 23rd part has a 512 KiB output, so some transactions are long. */
export const CRASH_STREAM: StreamOptions = { bigEvery: 23, bigBytes: 512 * 1024 };
