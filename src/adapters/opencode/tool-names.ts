// From an OpenCode tool id to the tool's identity: a built-in from the table, an MCP tool
// `<server>_<tool>` split with a known-server list, or a name kept whole. OpenCode builds MCP ids
// as sanitize(server) + "_" + sanitize(tool) where sanitize keeps `_` and `-`, so splitting on the
// first `_` is ambiguous (`my_db_query`): only a known server or a known MCP tool name decides.
import type { McpRef, ToolKind } from '../../contract/index.js';
import { kindFromName } from '../shared/kinds.js';
import { knownMcpTools, mcpIntentKind } from '../shared/mcp.js';
import { toolSpec, type ToolSpec } from './tools.js';

export interface ToolIdentity {
  /** The OpenCode tool id as given, or the MCP tool's name when the id splits (never guessed from input). */
  name: string;
  kind: ToolKind;
  spec?: ToolSpec;
  mcp?: McpRef;
}

/** OpenCode's own rule for MCP server and tool names inside a tool id. */
export const sanitizeMcpName = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');

const byLengthDesc = (a: string, b: string) => b.length - a.length;

export class ToolNames {
  private readonly servers: { id: string; server: string }[];
  private readonly tools: string[];
  private readonly cache = new Map<string, ToolIdentity>();

  /** `servers`: configured MCP server names; `tools`: MCP tool names known to the shared registry. */
  constructor(servers: readonly string[] = [], tools: readonly string[] = knownMcpTools()) {
    this.servers = servers.filter((x) => x).map((server) => ({ id: sanitizeMcpName(server), server })).sort((a, b) => byLengthDesc(a.id, b.id));
    this.tools = [...tools].filter((t) => t).sort(byLengthDesc);
  }

  /**
   * A server learned from the input itself (an `mcp.tools.changed` event) or its neighbours: names
   * seen from now on split by it. False when it was known already.
   */
  addServer(server: string): boolean {
    if (!server || this.servers.some((s) => s.server === server)) return false;
    this.servers.push({ id: sanitizeMcpName(server), server });
    this.servers.sort((a, b) => byLengthDesc(a.id, b.id));
    this.cache.clear();
    return true;
  }

  /** `<server>_<tool>` split by the longest known server, else by the longest known MCP tool name. */
  split(name: string): McpRef | undefined {
    for (const { id, server } of this.servers) {
      if (name.length > id.length + 1 && name.startsWith(`${id}_`)) return { server, tool: name.slice(id.length + 1) };
    }
    for (const tool of this.tools) {
      const id = sanitizeMcpName(tool);
      if (name.length > id.length + 1 && name.endsWith(`_${id}`)) return { server: name.slice(0, -id.length - 1), tool };
    }
    return undefined;
  }

  identify(name: string): ToolIdentity {
    let found = this.cache.get(name);
    if (!found) {
      // Names come from input: a stream of distinct ones must not grow the cache without bound.
      if (this.cache.size >= 4096) this.cache.clear();
      found = this.resolve(name);
      this.cache.set(name, found);
    }
    return found;
  }

  private resolve(name: string): ToolIdentity {
    const spec = toolSpec(name);
    if (spec) return { name, kind: spec.kind, spec };
    const mcp = this.split(name);
    // The MCP tool's own name, as Claude and Codex name it; the OpenCode id stays in rawType.
    if (mcp) return { name: mcp.tool, kind: mcpIntentKind(mcp.server, mcp.tool), mcp };
    // Not built in and not a known MCP tool: an MCP tool of an unlisted server (or a custom tool
    // file's `${file}_${export}`) when it has the `_` of `<server>_<tool>`, otherwise a plugin tool.
    return { name, kind: name.includes('_') ? 'mcp' : kindFromName(name) };
  }
}
