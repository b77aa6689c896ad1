// `mcp__<server>__<tool>` names, the one splitter for every reader of them: Claude Code, Codex
// rollouts (which use Claude's convention) and the ACP decoder. Claude Code builds them from the configured server name with
// every character outside [A-Za-z0-9_-] replaced by `_` (plugin servers become
// `plugin_<plugin>_<server>`, claude.ai connectors `claude_ai_<Name>`), so a server name may itself
// contain `__`. Known server names (init `mcp_servers`, `--mcp-server`) and the wire's
// `tool_use_meta` resolve that; without them the name splits at the first `__`.

export interface McpName {
  server: string;
  tool: string;
}

const PREFIX = 'mcp__';

/** The server part Claude Code puts in tool names for a configured server name. */
export const normalizeServerName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_');

export const isMcpName = (name: string): boolean => name.startsWith(PREFIX) && name.length > PREFIX.length;

/**
 * Splits an MCP tool name. `knownServers` are server names as configured; `metaTool` is the tool
 * name from `tool_use_meta` when the frame had one. Undefined when `name` is not an MCP name, or
 * has no non-empty server and tool around a `__` (`mcp__solo`: see `wholeMcpName`).
 */
export function splitMcpName(name: string, knownServers: Iterable<string> = [], metaTool?: string): McpName | undefined {
  if (!isMcpName(name)) return undefined;
  const rest = name.slice(PREFIX.length);
  if (metaTool && rest.endsWith(`__${metaTool}`) && rest.length > metaTool.length + 2) {
    return { server: rest.slice(0, rest.length - metaTool.length - 2), tool: metaTool };
  }
  let best: string | undefined;
  for (const raw of knownServers) {
    const server = normalizeServerName(raw);
    if (rest.startsWith(`${server}__`) && rest.length > server.length + 2 && (!best || server.length > best.length)) best = server;
  }
  if (best) return { server: best, tool: rest.slice(best.length + 2) };
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}

/** An MCP name that does not split (`mcp__solo`): Claude Code still calls it MCP, named by the whole rest. */
export function wholeMcpName(name: string): McpName {
  const rest = name.slice(PREFIX.length);
  return { server: rest, tool: rest };
}
