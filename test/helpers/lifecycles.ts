// Hand-written ToolEvent streams with every lifecycle the ecosystem encoders map: streamed input,
// running, complete without output, denied, failed, late enrichment, a subagent with a child, and
// calls still open at the end.
import type { ToolEvent } from '../../src/contract/index.js';

const env = (partId: string, at: number, sessionId = 's1') => ({ sessionId, partId, at, source: { provider: 'claude' as const } });

export const LIFECYCLES: ToolEvent[] = [
  { type: 'tool.started', ...env('p1', 1000), name: 'Bash', kind: 'bash', title: 'Listing files' },
  { type: 'tool.input.delta', ...env('p1', 1001), delta: '{"command":' },
  { type: 'tool.input.delta', ...env('p1', 1002), delta: '"ls"}' },
  { type: 'tool.updated', ...env('p1', 1003), input: { command: 'ls' } },
  { type: 'tool.progress', ...env('p1', 1100), message: 'still running', elapsedMs: 100 },
  { type: 'tool.completed', ...env('p1', 1500) },
  { type: 'tool.started', ...env('p2', 1600), name: 'Write', kind: 'file_write', title: 'Writing a.txt', input: { path: 'a.txt' } },
  { type: 'tool.failed', ...env('p2', 1700), error: { message: 'The user denied the write', code: 'denied' } },
  { type: 'tool.started', ...env('p3', 1800), name: 'Read', kind: 'file_read', title: 'Reading b.txt', input: { path: 'b.txt' } },
  { type: 'tool.failed', ...env('p3', 1900), error: { message: 'no such file' } },
  // Enrichment after the outcome, inside the grace window.
  { type: 'tool.updated', ...env('p3', 1950), metadata: { exitCode: 1 } },
  { type: 'tool.started', ...env('t1', 2000), name: 'Task', kind: 'subagent', title: 'Research the code', input: { prompt: 'look' } },
  { type: 'tool.progress', ...env('t1', 2001) },
  { type: 'tool.started', ...env('c1', 2100), name: 'Grep', kind: 'file_read', title: 'Searching TODO', input: { pattern: 'TODO' }, metadata: { parentId: 't1' } },
  { type: 'tool.completed', ...env('c1', 2200), output: { text: 'a.ts:1: TODO' } },
  { type: 'tool.completed', ...env('t1', 2300), output: { text: 'one TODO' } },
  { type: 'tool.started', ...env('p4', 2400), name: 'Bash', kind: 'bash', title: 'Sleeping', input: { command: 'sleep 9' } },
  { type: 'tool.started', ...env('p5', 2500), name: 'Bash', kind: 'bash', title: 'Waiting', input: { command: 'wait' } },
  { type: 'tool.progress', ...env('p5', 2600) },
];

export const LIFECYCLES_NDJSON = `${LIFECYCLES.map((e) => JSON.stringify(e)).join('\n')}\n`;
