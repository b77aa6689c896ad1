// The one tool name → kind lookup (src/adapters/tool-kinds.ts) holds every provider table's
// answer, so a tool added to a table is known to the ACP decoder without a second list to edit.
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES_WITH_KIND, toolKindByName } from '../../src/adapters/tool-kinds.js';
import { KNOWN_TOOL_NAMES, specOf } from '../../src/adapters/claude/tools.js';
import { CALLS, nameKind } from '../../src/adapters/codex/tools.js';
import { TOOL_TABLE } from '../../src/adapters/opencode/tools.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { splitMcpName, wholeMcpName } from '../../src/adapters/shared/mcp-names.js';

const TABLES: [string, [string, string][]][] = [
  ['claude', KNOWN_TOOL_NAMES.map((n) => [n, specOf(n)!.kind])],
  ['codex', Object.keys(CALLS).map((n) => [n, nameKind(n)!])],
  ['opencode', Object.entries(TOOL_TABLE).map(([n, s]) => [n, s.kind])],
];

describe('toolKindByName', () => {
  it.each(TABLES)('gives every %s tool the kind its table gives it', (_provider, rows) => {
    expect(rows.length).toBeGreaterThan(10);
    const wrong = rows.filter(([name, kind]) => kind !== 'unknown' && toolKindByName(name) !== kind).map(([n, k]) => `${n}: table ${k}, lookup ${toolKindByName(n)}`);
    expect(wrong).toEqual([]);
  });

  it('knows no name that no table has, and leaves unknown to the other clues', () => {
    const all = new Set(TABLES.flatMap(([, rows]) => rows.map(([n]) => n)));
    expect(TOOL_NAMES_WITH_KIND.filter((n) => !all.has(n))).toEqual([]);
    // OpenCode's `invalid` tool is in the table with kind unknown: the lookup has no answer for it.
    expect(toolKindByName('invalid')).toBeUndefined();
    expect(toolKindByName('NoSuchTool')).toBeUndefined();
  });

  it('keeps the kinds of the hand list it replaces, and knows the tools that list lacked', () => {
    const before: Record<string, string> = {
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
    for (const [name, kind] of Object.entries(before)) expect(toolKindByName(name), name).toBe(kind);
    expect(['Monitor', 'NotebookRead', 'ToolSearch', 'Skill'].map(toolKindByName)).toEqual(['bash', 'file_read', 'file_read', 'file_read']);
  });

  it('answers an MCP name with the MCP registry, and the ACP decoder uses it for foreign frames', () => {
    expect(toolKindByName('mcp__github__create_issue')).toBe('mcp');
    const frame = (toolCallId: string, name: string) => ({ sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId, title: 'x', kind: 'other', status: 'pending', _meta: { claudeCode: { toolName: name } } } });
    const { parts } = decodeFrames([frame('a', 'Monitor'), frame('b', 'Grep')]);
    expect(parts.map((p) => p.kind)).toEqual(['bash', 'file_read']);
  });
});

describe('splitMcpName (one splitter for Claude, Codex and ACP)', () => {
  it('splits at the first __ without known servers, and has no answer without a server and a tool', () => {
    expect(splitMcpName('mcp__probe__echo')).toEqual({ server: 'probe', tool: 'echo' });
    expect(splitMcpName('mcp__solo')).toBeUndefined();
    expect(splitMcpName('mcp__a__')).toBeUndefined();
    expect(splitMcpName('Bash')).toBeUndefined();
    // Claude Code still calls an unsplit mcp__ name MCP, named by the whole rest.
    expect(wholeMcpName('mcp__solo')).toEqual({ server: 'solo', tool: 'solo' });
  });
});
