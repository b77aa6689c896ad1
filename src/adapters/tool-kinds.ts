// Tool name → kind for a call that names its tool but not its kind in our terms, e.g. a frame of
// another ACP agent (`_meta.claudeCode.toolName: "Grep"`). Read from the provider tool tables
// themselves, so a tool added to a table is known here too (test/adapters/tool-kinds.test.ts).
// A name is looked up exactly: Claude's tools are PascalCase, OpenCode's and Codex's snake or
// lower case, and the tables agree where a name is shared (`apply_patch`, `web_search`).
import type { ToolKind } from '../contract/index.js';
import { mcpIntentKind } from './shared/mcp.js';
import { splitMcpName } from './shared/mcp-names.js';
import { KNOWN_TOOL_NAMES as CLAUDE_TOOLS, specOf as claudeSpec } from './claude/tools.js';
import { CALLS as CODEX_CALLS, nameKind as codexNameKind } from './codex/tools.js';
import { TOOL_TABLE as OPENCODE_TOOLS } from './opencode/tools.js';

/** Every provider's tools, in the order a shared name is first claimed: Claude, Codex, OpenCode. */
function tableKinds(): Map<string, ToolKind> {
  const kinds = new Map<string, ToolKind>();
  const add = (name: string, kind: ToolKind) => {
    // `unknown` says nothing (OpenCode's `invalid` tool): the caller's other clues decide instead.
    if (kind !== 'unknown' && !kinds.has(name)) kinds.set(name, kind);
  };
  for (const name of CLAUDE_TOOLS) add(name, claudeSpec(name)!.kind);
  for (const name of Object.keys(CODEX_CALLS)) add(name, codexNameKind(name)!);
  for (const [name, spec] of Object.entries(OPENCODE_TOOLS)) add(name, spec.kind);
  return kinds;
}

const KINDS: ReadonlyMap<string, ToolKind> = tableKinds();

/**
 * The kind a provider's tool table gives `name` (an `mcp__<server>__<tool>` name: the MCP
 * registry's intent for that tool), or undefined when no table has it.
 */
export function toolKindByName(name: string): ToolKind | undefined {
  const mcp = splitMcpName(name);
  if (mcp) return mcpIntentKind(mcp.server, mcp.tool);
  return KINDS.get(name);
}

/** Every name the lookup knows, for the test that holds it to the tables. */
export const TOOL_NAMES_WITH_KIND: readonly string[] = [...KINDS.keys()];
