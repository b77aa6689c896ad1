// Tool names other ACP agents put in `name` / `_meta.<vendor>.toolName`, mapped to our kinds, so
// frames without `_meta.toolnorm` decode to the same kinds our own adapters give those tools.
import type { ToolKind } from '../contract/index.js';
import { mcpIntentKind } from '../adapters/shared/mcp.js';
import { ownKeysOnly } from '../adapters/shared/table.js';

const BY_NAME: Record<string, ToolKind> = {
  Bash: 'bash', BashOutput: 'bash', TaskOutput: 'bash', KillShell: 'bash', KillBash: 'bash', PowerShell: 'bash',
  bash: 'bash', shell: 'bash', shell_command: 'bash', local_shell: 'bash', exec_command: 'bash',
  Read: 'file_read', Grep: 'file_read', Glob: 'file_read', LS: 'file_read', read: 'file_read', grep: 'file_read', glob: 'file_read', list: 'file_read',
  Write: 'file_write', write: 'file_write',
  Edit: 'file_edit', MultiEdit: 'file_edit', NotebookEdit: 'file_edit', edit: 'file_edit', multiedit: 'file_edit', patch: 'file_edit', apply_patch: 'file_edit',
  WebSearch: 'web_search', WebFetch: 'web_search', websearch: 'web_search', webfetch: 'web_search', web_search: 'web_search',
  Task: 'subagent', Agent: 'subagent', task: 'subagent',
  TodoWrite: 'todo', todowrite: 'todo', todoread: 'todo', update_plan: 'todo',
  AskUserQuestion: 'question', ExitPlanMode: 'question', EnterPlanMode: 'question', question: 'question',
};
ownKeysOnly(BY_NAME);

/** Splits `mcp__<server>__<tool>` (Claude's convention, also used in Codex rollouts). */
export function splitMcpName(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1]!, tool: m[2]! } : undefined;
}

export function kindByName(name: string): ToolKind | undefined {
  const mcp = splitMcpName(name);
  if (mcp) return mcpIntentKind(mcp.server, mcp.tool);
  return BY_NAME[name];
}
