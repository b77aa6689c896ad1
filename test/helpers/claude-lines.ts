// Tiny builders for hand-written Claude Code lines, so each test states only what it is about,
// and `run`, which puts them through the Claude adapter (test/helpers/run-lines.ts).
import type { Collected } from '../../src/pipeline/collect.js';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import type { AdapterOptions } from '../../src/adapters/types.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { runLines, type Line, type LinesFile } from './run-lines.js';

export { jsonl } from './run-lines.js';

export const SID = 'sess-1';
let n = 0;
const uuid = () => `u-${++n}`;

export const init = (extra: Record<string, unknown> = {}) => ({ type: 'system', subtype: 'init', session_id: SID, cwd: '/repo', tools: ['Bash'], mcp_servers: [], claude_code_version: '2.1.332', uuid: uuid(), ...extra });

export function useMsg(id: string, name: string, input: unknown, extra: Record<string, unknown> = {}) {
  return { type: 'assistant', message: { id: `msg-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] }, parent_tool_use_id: null, session_id: SID, uuid: uuid(), ...extra };
}

export function resultMsg(id: string, content: unknown, opts: { isError?: boolean; structured?: unknown; extra?: Record<string, unknown> } = {}) {
  const block: Record<string, unknown> = { type: 'tool_result', tool_use_id: id, content };
  if (opts.isError !== undefined) block.is_error = opts.isError;
  const line: Record<string, unknown> = { type: 'user', message: { role: 'user', content: [block] }, parent_tool_use_id: null, session_id: SID, uuid: uuid(), ...(opts.extra ?? {}) };
  if (opts.structured !== undefined) line.tool_use_result = opts.structured;
  return line;
}

/** Lines (one unnamed input, as on stdin) or named files through the Claude adapter and the reducer. */
export const run = (lines: readonly Line[] | readonly LinesFile[], options: AdapterOptions = {}): Collected => runLines(claudeAdapter, lines, options);

export const byId = (parts: NormalizedToolPart[], id: string): NormalizedToolPart => {
  const p = parts.find((x) => x.id === id);
  if (!p) throw new Error(`no part ${id} among ${parts.map((x) => x.id).join(', ')}`);
  return p;
};

export const meta = (p: NormalizedToolPart) => (p.metadata ?? {}) as Record<string, unknown>;
export const out = (p: NormalizedToolPart) => (p as { output?: Record<string, unknown> }).output;
export const err = (p: NormalizedToolPart) => (p as { error?: { message: string; code?: string; details?: unknown } }).error;
