// The declarative tool table: kinds for every documented tool, aliases, titles, MCP names.
import { describe, expect, it } from 'vitest';
import { commandItemTitle } from '../../src/adapters/shared/command-title.js';
import { identify, KNOWN_TOOL_NAMES, TOOL_TABLE } from '../../src/adapters/claude/tools.js';
import { splitMcpName } from '../../src/adapters/shared/mcp-names.js';
import { relPath } from '../../src/adapters/claude/paths.js';

// Every tool name in docs/providers/claude.md#tool-names (inputs, results, legacy polling, Task/Agent),
// written out here independently of the table.
const DOCUMENTED = [
  'Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'Task', 'Agent', 'TodoWrite',
  'TaskCreate', 'TaskUpdate', 'TaskGet', 'TaskList', 'NotebookEdit', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion',
  'BashOutput', 'KillBash', 'KillShell', 'TaskStop', 'TaskOutput', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
  'ReadMcpResourceDirTool', 'SlashCommand', 'Skill', 'ToolSearch', 'Monitor', 'SendMessage', 'ScheduleWakeup', 'CronCreate',
  'CronDelete', 'CronList', 'Workflow', 'EnterWorktree', 'ExitWorktree', 'ListAgents', 'ReportFindings',
  // In init `tools` of the recordings and docs/providers/acp.md#how-claude-agent-acp-sends-claude-code-calls:
  'MCPSearch', 'LS', 'PowerShell',
];

const ctx = { cwd: '/repo' };

describe('tool table', () => {
  it.each(DOCUMENTED)('%s has a known, non-unknown kind and an action title', (name) => {
    expect(KNOWN_TOOL_NAMES).toContain(name);
    const id = identify(name, {}, ctx);
    expect(id.kind).not.toBe('unknown');
    expect(id.name).toBe(name);
    expect(id.title.trim()).not.toBe('');
    expect(id.title).not.toBe(name);
  });

  it('treats renamed tools as one tool', () => {
    const same = (a: string, b: string, input: Record<string, unknown>) => {
      const x = identify(a, input, ctx);
      const y = identify(b, input, ctx);
      expect(x.kind).toBe(y.kind);
      expect(x.title).toBe(y.title);
      expect(x.spec).toBe(y.spec);
      expect([x.name, y.name]).toEqual([a, b]);
    };
    same('Task', 'Agent', { description: 'Inspect files', prompt: 'p' });
    same('KillBash', 'KillShell', { shell_id: 'bash_1' });
    same('BashOutput', 'TaskOutput', { bash_id: 'bash_1' });
    expect(identify('TaskOutput', { task_id: 'b1' }, ctx).title).toBe('Reading output of b1');
    expect(identify('TaskStop', { task_id: 'b1' }, { ...ctx, taskDescription: (id) => (id === 'b1' ? 'Run in background' : undefined) }).title).toBe('Stopping "Run in background"');
  });

  it('uses the same kind for the same intent', () => {
    expect(identify('WebSearch', { query: 'q' }, ctx).kind).toBe('web_search');
    expect(identify('WebFetch', { url: 'https://a.b/c' }, ctx).kind).toBe('web_search');
    expect(identify('mcp__exa__web_search', { query: 'q' }, ctx).kind).toBe('web_search');
    expect(identify('mcp__playwright__browser_click', { element: 'Submit' }, ctx).kind).toBe('browser');
    expect(identify('mcp__amalgm__browser_snapshot', {}, ctx)).toMatchObject({ kind: 'browser', title: 'Reading browser page', name: 'browser_snapshot' });
    expect(identify('mcp__github__create_issue', {}, ctx).kind).toBe('mcp');
  });

  it('gives the spec golden titles', () => {
    expect(identify('mcp__amalgm__artifacts_register', { name: 'Spotify Clone' }, ctx)).toMatchObject({
      name: 'artifacts_register', kind: 'mcp', title: 'Registering artifact Spotify Clone', mcp: { server: 'amalgm', tool: 'artifacts_register' },
    });
    expect(identify('Task', { description: 'Research Northern India politics', prompt: '…' }, ctx).title).toBe('Research Northern India politics');
    expect(identify('Agent', { description: 'Inspect files', prompt: '…' }, ctx).title).toBe('Inspect files');
  });

  it('a remembered command title is the one of its own cwd, and stays right after the memory is cleared', () => {
    for (let round = 0; round < 2; round++) {
      expect(commandItemTitle('cat /repo/src/a.ts', '/repo')).toBe('Reading src/a.ts');
      expect(commandItemTitle('cat /repo/src/a.ts', '/other')).toBe('Reading /repo/src/a.ts');
      expect(commandItemTitle('cat /repo/src/a.ts', undefined)).toBe('Reading /repo/src/a.ts');
      expect(commandItemTitle('cat /repo/src/a.ts', '/repo')).toBe('Reading src/a.ts');
      // More distinct commands than are remembered.
      for (let i = 0; i < 600; i++) expect(commandItemTitle(`cat /repo/f${i}`, '/repo')).toBe(`Reading f${i}`);
    }
  });

  it('titles Bash with its command by the shared rule, never with its description; a long command is cut at 80 characters', () => {
    // The description would have been the title before; now the command is, parsed like Codex's.
    expect(identify('Bash', { command: 'ls', description: 'List files' }, ctx).title).toBe('Listing files');
    expect(identify('Bash', { command: 'cat README.md', description: 'Show the readme' }, ctx).title).toBe(commandItemTitle('cat README.md', ctx.cwd));
    expect(identify('Bash', { command: 'cat README.md', description: 'Show the readme' }, ctx).title).toBe('Reading README.md');
    expect(identify('Bash', { command: 'npm test\necho done' }, ctx).title).toBe('npm test');
    const long = `echo ${'x'.repeat(200)}`;
    const t = identify('Bash', { command: long }, ctx).title;
    expect([...t].length).toBe(80);
    expect(t.endsWith('…')).toBe(true);
    expect(long.startsWith(t.slice(0, -1))).toBe(true);
    expect(identify('Bash', {}, ctx).title).toBe('Running command');
  });

  it('shows paths relative to the session cwd', () => {
    expect(identify('Read', { file_path: '/repo/src/a.ts' }, ctx).title).toBe('Reading src/a.ts');
    expect(identify('Read', { file_path: '/repo/src/a.ts', offset: 10, limit: 5 }, ctx).title).toBe('Reading src/a.ts (lines 10–14)');
    expect(identify('Read', { file_path: '/elsewhere/a.ts' }, ctx).title).toBe('Reading /elsewhere/a.ts');
    expect(identify('Edit', { file_path: '/repo/x.md', old_string: 'a', new_string: 'b' }, ctx).title).toBe('Editing x.md');
    expect(identify('MultiEdit', { file_path: '/repo/x.md', edits: [{}, {}, {}] }, ctx).title).toBe('Editing x.md (3 edits)');
    expect(identify('Write', { file_path: '/repo/new.txt', content: '' }, ctx).title).toBe('Writing new.txt');
    expect(identify('Grep', { pattern: 'TODO', path: '/repo/src', glob: '*.ts' }, ctx).title).toBe('Searching for "TODO" in src (*.ts)');
    expect(identify('Glob', { pattern: '**/*.md', path: '/repo' }, ctx).title).toBe('Finding **/*.md');
    expect(identify('NotebookEdit', { notebook_path: '/repo/n.ipynb', edit_mode: 'insert', new_source: '' }, ctx).title).toBe('Inserting cell in n.ipynb');
  });

  it('handles Windows paths and cwd', () => {
    expect(relPath('c:\\Projects\\App\\src\\cli.py', 'c:\\Projects\\App')).toBe('src\\cli.py');
    expect(relPath('C:\\projects\\app\\src\\cli.py', 'c:\\Projects\\App')).toBe('src\\cli.py');
    expect(relPath('d:\\other\\x.py', 'c:\\Projects\\App')).toBe('d:\\other\\x.py');
    expect(relPath('c:\\Projects\\App', 'c:\\Projects\\App\\')).toBe('.');
  });

  it('titles the other documented tools as actions', () => {
    expect(identify('WebSearch', { query: 'Reuters top news' }, ctx).title).toBe('Searching Reuters top news');
    expect(identify('WebFetch', { url: 'https://www.apnews.com/x', prompt: 'p' }, ctx).title).toBe('Fetching apnews.com');
    expect(identify('TodoWrite', { todos: [{ status: 'completed' }, { status: 'pending' }] }, ctx).title).toBe('Updating todo list (1/2 done)');
    expect(identify('AskUserQuestion', { questions: [{ question: 'Which rig?', header: 'Rig' }] }, ctx).title).toBe('Asking: Which rig?');
    expect(identify('TaskUpdate', { taskId: '3', status: 'in_progress' }, ctx).title).toBe('Marking task 3 in progress');
    expect(identify('ToolSearch', { query: 'select:WebFetch,WebSearch' }, ctx).title).toBe('Loading tool WebFetch, WebSearch');
    expect(identify('Skill', { skill: 'pdf' }, ctx).title).toBe('Loading skill pdf');
    expect(identify('SlashCommand', { command: '/review' }, ctx).title).toBe('Running /review');
  });

  it('never gives unknown tools an empty or raw-name title', () => {
    const id = identify('FrobnicateWidgets', { x: 1 }, ctx);
    expect(id.kind).toBe('unknown');
    expect(id.title).toBe('Running Frobnicate widgets');
    expect(identify('', {}, ctx).title.trim()).not.toBe('');
  });

  it('every table entry has a non-unknown kind and a fallback title', () => {
    for (const [name, spec] of Object.entries(TOOL_TABLE)) {
      expect(spec.kind, name).not.toBe('unknown');
      expect(spec.fallback.trim(), name).not.toBe('');
      expect(spec.fallback, name).not.toBe(name);
    }
  });
});

describe('MCP tool names', () => {
  it('splits at the first __ without other knowledge', () => {
    expect(splitMcpName('mcp__probe__echo')).toEqual({ server: 'probe', tool: 'echo' });
    expect(splitMcpName('mcp__claude_ai_Gmail__search_threads')).toEqual({ server: 'claude_ai_Gmail', tool: 'search_threads' });
    expect(splitMcpName('Bash')).toBeUndefined();
  });

  it('uses known server names (normalized as Claude Code does) for servers containing __', () => {
    expect(splitMcpName('mcp__my__srv__do_it')).toEqual({ server: 'my', tool: 'srv__do_it' });
    expect(splitMcpName('mcp__my__srv__do_it', ['my__srv'])).toEqual({ server: 'my__srv', tool: 'do_it' });
    expect(splitMcpName('mcp__plugin_x_my_srv__t', ['plugin:x:my.srv'])).toEqual({ server: 'plugin_x_my_srv', tool: 't' });
    // The longest known server wins.
    expect(splitMcpName('mcp__a__b__c', ['a', 'a__b'])).toEqual({ server: 'a__b', tool: 'c' });
  });

  it('prefers tool_use_meta.tool_name when the frame has it', () => {
    expect(splitMcpName('mcp__a__b__c', [], 'b__c')).toEqual({ server: 'a', tool: 'b__c' });
  });
});
