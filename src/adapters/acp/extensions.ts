// Client extensions other agents put under a tool call's `_meta`, one table row per key. Each row
// reads what the key says about the call into `CallFacts`; a key no row knows is kept as sent in
// `metadata.acp.meta` (docs/providers/acp.md, "Client extensions"), never dropped.
import type { McpName } from '../shared/mcp-names.js';
import { nonEmpty, obj, type Obj } from '../../fields.js';

/** What the extensions of one merged call say. */
export interface CallFacts {
  mcp?: McpName;
  parentId?: string;
  exitCode?: number | null;
  signal?: string;
  /** An AIR `commandTitle` or similar description, when the title shows something else. */
  description?: string;
  subagent?: true;
}

/** The display terminal of a call: the output a client shows and how the command ended. */
export interface TerminalState {
  data: string;
  /** The command and directory the terminal says it runs (v1 `terminal_info`, v2 `terminal_update`). */
  command?: string;
  cwd?: string;
  exitCode?: number | null;
  signal?: string;
  exited?: true;
}

interface Row {
  /** Who sends it, for the docs and for reading the table. */
  from: string;
  /** Read only in part: the value is also kept as sent in `metadata.acp.meta`. */
  keep?: true;
  read?: (value: unknown, facts: CallFacts, fields: Obj) => void;
}

const mcpOf = (v: unknown): McpName | undefined => {
  const o = obj(v);
  const server = nonEmpty(o?.server);
  const tool = nonEmpty(o?.tool);
  return server && tool ? { server, tool } : undefined;
};

/** codex-acp's MCP title, `mcp.<server>.<tool>` (the tool part may hold dots). */
const CODEX_MCP_TITLE = /^mcp\.([^.]+)\.(.+)$/;

export const META_EXTENSIONS: Readonly<Record<string, Row>> = {
  toolnorm: { from: 'toolnorm (our own frames, read exactly in decode.ts)' },
  claudeCode: {
    from: 'claude-agent-acp / claude-code-acp',
    read: (v, f) => {
      const parent = nonEmpty(obj(v)?.parentToolUseId);
      if (parent) f.parentId = parent;
    },
  },
  // Zed's display-terminal convention (claude-agent-acp, codex-acp): accumulated in the call's
  // terminal state by mergeFrame, read back through `TerminalState`.
  terminal_info: { from: 'Zed terminal convention' },
  terminal_output: { from: 'Zed terminal convention' },
  terminal_output_delta: { from: 'Zed terminal convention (claude-agent-acp, JetBrains AIR)' },
  terminal_exit: { from: 'Zed terminal convention' },
  jetbrains: {
    from: 'JetBrains AIR (claude-agent-acp air-extension)',
    keep: true,
    read: (v, f) => {
      const air = obj(obj(v)?.air);
      if (!air) return;
      const mcp = mcpOf(air.mcp);
      if (mcp) f.mcp = mcp;
      const title = nonEmpty(air.commandTitle);
      if (title) f.description = title;
      if (air.subagent === true) f.subagent = true;
    },
  },
  is_mcp_tool_call: {
    from: 'codex-acp (TypeScript)',
    read: (v, f, fields) => {
      if (v !== true) return;
      const m = CODEX_MCP_TITLE.exec(typeof fields.title === 'string' ? fields.title : '');
      f.mcp ??= mcpOf(fields.rawInput) ?? (m ? { server: m[1]!, tool: m[2]! } : undefined);
    },
  },
};

/** The facts the known keys of `meta` give, and the keys no row knows or reads only in part (kept as sent). */
export function readExtensions(meta: Obj, fields: Obj, terminal: TerminalState | undefined): { facts: CallFacts; unknown?: Obj } {
  const facts: CallFacts = {};
  let unknown: Obj | undefined;
  for (const [key, value] of Object.entries(meta)) {
    const row = Object.hasOwn(META_EXTENSIONS, key) ? META_EXTENSIONS[key] : undefined;
    if (!row || row.keep) (unknown ??= {})[key] = value;
    row?.read?.(value, facts, fields);
  }
  if (terminal?.exited) {
    facts.exitCode = terminal.exitCode ?? null;
    if (terminal.signal) facts.signal = terminal.signal;
  }
  return unknown ? { facts, unknown } : { facts };
}

/**
 * The call's display terminal after a frame's `_meta`: `terminal_output` replaces the text,
 * `terminal_output_delta` appends to it, `terminal_exit` ends it. Undefined while no key is there.
 */
export function nextTerminal(prev: TerminalState | undefined, meta: Obj): TerminalState | undefined {
  const output = obj(meta.terminal_output);
  const delta = obj(meta.terminal_output_delta);
  const exit = obj(meta.terminal_exit);
  if (!output && !delta && !exit && !obj(meta.terminal_info)) return prev;
  const next: TerminalState = { ...(prev ?? { data: '' }) };
  const info = obj(meta.terminal_info);
  if (nonEmpty(info?.command)) next.command = info!.command as string;
  if (nonEmpty(info?.cwd)) next.cwd = info!.cwd as string;
  if (output && typeof output.data === 'string') next.data = output.data;
  if (delta && typeof delta.data === 'string') next.data += delta.data;
  if (exit) applyExit(next, exit.exit_code, exit.signal);
  return next;
}

/** An exit status (`exit_code`/`exitCode`, `signal`) on a terminal state. */
export function applyExit(t: TerminalState, code: unknown, signal: unknown): void {
  t.exited = true;
  t.exitCode = typeof code === 'number' && Number.isInteger(code) ? code : null;
  const s = nonEmpty(signal);
  if (s) t.signal = s;
}
