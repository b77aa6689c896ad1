// Deterministic synthetic ToolEvent / NormalizedToolPart records for benchmarks (no randomness
// from the clock: a seeded LCG, so every run measures the same bytes).
import type { NormalizedToolPart, ToolEvent, ToolKind } from '../src/contract/index.js';

const KINDS: ToolKind[] = ['bash', 'file_read', 'file_edit', 'file_write', 'web_search', 'mcp', 'browser', 'subagent', 'todo', 'question'];
const NAMES: Record<string, string> = { bash: 'Bash', file_read: 'Read', file_edit: 'Edit', file_write: 'Write', web_search: 'WebSearch', mcp: 'create_issue', browser: 'browser_snapshot', subagent: 'Task', todo: 'TodoWrite', question: 'AskUserQuestion' };

export function lcg(seed = 42): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Output sizes log-uniform between 10 and `max` characters, like the "mixed" set of docs/benchmarks.md#synthetic-inputs. */
function text(rand: () => number, max: number): string {
  if (max <= 0) return '';
  const n = Math.floor(Math.exp(Math.log(10) + rand() * (Math.log(max) - Math.log(10))));
  const line = 'src/components/Button.tsx:42: const x = useMemo(() => compute(a, b), [a, b]);\n';
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

/** One tool call's lifecycle: started, a progress event, then completed or failed. */
export function* syntheticEvents(count: number, sessions = 10, seed = 42, maxOutput = 30_000): Generator<ToolEvent> {
  const rand = lcg(seed);
  let produced = 0;
  for (let i = 0; produced < count; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const env = { sessionId: `sess-${i % sessions}`, partId: `toolu_${i.toString(36).padStart(8, '0')}`, source: { provider: 'claude' as const, line: i + 1, offset: i * 300 } };
    const at = 1764489600000 + i * 10;
    const steps: ToolEvent[] = [
      { type: 'tool.started', ...env, at, name: NAMES[kind]!, kind, title: `Working on item ${i}`, input: { command: `echo ${i}`, description: 'synthetic' }, metadata: { provider: 'claude', rawType: `tool_use:${NAMES[kind]}` } },
      { type: 'tool.progress', ...env, at: at + 3, message: 'running', elapsedMs: 3 },
      i % 7 === 0
        ? { type: 'tool.failed', ...env, at: at + 9, error: { message: 'Exit code 1', code: 'exit_nonzero' }, metadata: { exitCode: 1 } }
        : { type: 'tool.completed', ...env, at: at + 9, output: { text: text(rand, maxOutput) }, elapsedMs: 9 },
    ];
    for (const e of steps) {
      if (produced++ >= count) return;
      yield e;
    }
  }
}

export function* syntheticParts(count: number, seed = 7, maxOutput = 30_000): Generator<NormalizedToolPart> {
  const rand = lcg(seed);
  for (let i = 0; i < count; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const base = { id: `toolu_${i}`, name: NAMES[kind]!, kind, title: `Working on item ${i}`, input: { path: `src/file${i}.ts` }, timing: { startedAt: 1764489600000 + i, completedAt: 1764489600009 + i, elapsedMs: 9 }, metadata: { provider: 'codex' as const } };
    yield i % 5 === 0 ? { ...base, state: 'error', error: { message: 'failed', code: 'tool_error' } } : { ...base, state: 'complete', output: { text: text(rand, maxOutput) } };
  }
}
