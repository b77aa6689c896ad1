import { describe, expect, it } from 'vitest';
import { TOOL_TABLE, patchFiles } from '../../src/adapters/opencode/tools.js';
import { ToolNames } from '../../src/adapters/opencode/tool-names.js';
import { registerMcpTitle } from '../../src/adapters/shared/mcp.js';
import { completed, CWD, run, onlyPart, partUpdated, pending, running, sessionCreated, SES, sse, toolPart } from '../helpers/opencode-lines.js';

/** Every built-in tool named in docs/providers/opencode.md#built-in-tools: the 1.18.33 registry plus the legacy ones. */
const DOCUMENTED = [
  'invalid', 'question', 'bash', 'read', 'glob', 'grep', 'edit', 'write', 'task', 'webfetch', 'todowrite', 'websearch', 'skill', 'apply_patch', 'execute', 'lsp', 'plan_exit',
  'list', 'multiedit', 'patch', 'todoread', 'codesearch', 'batch', 'reload_config',
];

const titleOf = (tool: string, input: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  onlyPart(sse([sessionCreated(SES), partUpdated(toolPart('prt_t', tool, completed(input, 'ok', more)))])).title;

describe('the tool table', () => {
  it('covers every documented built-in, current and legacy, with a non-unknown kind (invalid aside: it names a missing tool)', () => {
    for (const tool of DOCUMENTED) {
      expect(TOOL_TABLE[tool], tool).toBeDefined();
      if (tool !== 'invalid') expect(TOOL_TABLE[tool]!.kind, tool).not.toBe('unknown');
    }
    for (const legacy of ['list', 'multiedit', 'patch', 'todoread', 'codesearch', 'batch']) expect(TOOL_TABLE[legacy]!.legacy, legacy).toBeTruthy();
  });

  it('kinds follow the cross-provider intents', () => {
    const kinds = Object.fromEntries(DOCUMENTED.map((t) => [t, TOOL_TABLE[t]!.kind]));
    expect(kinds).toMatchObject({
      bash: 'bash', read: 'file_read', glob: 'file_read', grep: 'file_read', list: 'file_read', codesearch: 'file_read', lsp: 'file_read',
      write: 'file_write', edit: 'file_edit', multiedit: 'file_edit', patch: 'file_edit', apply_patch: 'file_edit',
      webfetch: 'web_search', websearch: 'web_search', task: 'subagent', todowrite: 'todo', todoread: 'todo', question: 'question', plan_exit: 'question',
    });
  });

  it('every tool has a non-empty title even with no input (a pending call)', () => {
    for (const tool of DOCUMENTED) {
      const r = run(sse([partUpdated(toolPart('prt_p', tool, pending()))]));
      expect(r.parts[0]!.title.trim(), tool).not.toBe('');
      expect(r.parts[0]!.title, tool).not.toBe(tool);
    }
  });
});

describe('titles', () => {
  it('reproduces the seed examples exactly', () => {
    expect(titleOf('amalgm_browser_tabs_new', {})).toBe('Opening browser tab');
    expect(titleOf('task', { description: 'Research Northern India politics', prompt: 'p', subagent_type: 'general' })).toBe('Research Northern India politics');
  });

  it('amalgm_browser_tabs_new is split through the shared registry into a browser MCP call', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_m', 'amalgm_browser_tabs_new', completed({}, 'ok')))]));
    expect(p).toMatchObject({ name: 'browser_tabs_new', kind: 'browser', metadata: { rawType: 'amalgm_browser_tabs_new', mcp: { server: 'amalgm', tool: 'browser_tabs_new' } } });
  });

  it('titles are action text built from the input, paths relative to the session cwd', () => {
    expect(titleOf('read', { filePath: `${CWD}/src/a.ts` })).toBe('Reading src/a.ts');
    expect(titleOf('write', { filePath: `${CWD}/new.txt`, content: 'x' })).toBe('Writing new.txt');
    expect(titleOf('edit', { filePath: `${CWD}/new.txt`, oldString: 'a', newString: 'b' })).toBe('Editing new.txt');
    expect(titleOf('multiedit', { filePath: `${CWD}/m.ts`, edits: [{}, {}, {}] })).toBe('Editing m.ts (3 edits)');
    expect(titleOf('glob', { pattern: '**/*.txt', path: `${CWD}/docs` })).toBe('Finding files matching "**/*.txt" in docs');
    expect(titleOf('grep', { pattern: 'alpha', include: '*.txt' })).toBe('Searching for "alpha" (*.txt)');
    expect(titleOf('list', { path: `${CWD}/src` })).toBe('Listing files in src');
    expect(titleOf('list', {})).toBe('Listing files');
    // One command-title rule for every provider: the command decides, the description does not.
    expect(titleOf('bash', { command: 'echo hi && ls', description: 'Print greeting' })).toBe('Listing files');
    expect(titleOf('bash', { command: 'cat README.md', description: 'Show the readme' })).toBe('Reading README.md');
    expect(titleOf('bash', { command: `cat ${CWD}/src/a.ts` })).toBe('Reading src/a.ts');
    expect(titleOf('bash', { command: 'npm test', description: 'Run the tests' })).toBe('npm test');
    expect(titleOf('bash', { command: 'echo hi\necho there' })).toBe('echo hi');
    expect(titleOf('webfetch', { url: 'https://www.example.com/a/b', format: 'markdown' })).toBe('Fetching example.com');
    expect(titleOf('websearch', { query: 'Reuters top news' })).toBe('Searching Reuters top news');
    expect(titleOf('codesearch', { query: 'useEffect cleanup', tokensNum: 5000 })).toBe('Searching code for "useEffect cleanup"');
    expect(titleOf('todowrite', { todos: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'pending' }] })).toBe('Updating todo list (1/2 done)');
    expect(titleOf('todoread', {})).toBe('Reading todo list');
    expect(titleOf('skill', { name: 'pdf' })).toBe('Loading skill pdf');
    expect(titleOf('question', { questions: [{ question: 'Which database?', header: 'DB', options: [] }] })).toBe('Asking: Which database?');
    expect(titleOf('question', { questions: [{ question: 'a' }, { question: 'b' }] })).toBe('Asking 2 questions');
    expect(titleOf('lsp', { operation: 'goToDefinition', filePath: `${CWD}/a.ts`, line: 3, character: 5 })).toBe('Finding definition in a.ts:3:5');
    expect(titleOf('lsp', { operation: 'workspaceSymbol', query: 'Foo' })).toBe('Searching symbols for "Foo"');
    expect(titleOf('plan_exit', {})).toBe('Switching to build agent');
    expect(titleOf('batch', { tool_calls: [{ tool: 'read', parameters: {} }, { tool: 'grep', parameters: {} }] })).toBe('Running 2 tools in parallel');
    expect(titleOf('task', { prompt: 'p', subagent_type: 'explore' })).toBe('Running explore agent');
  });

  it('apply_patch: its multi-line state.title is never used; the files come from the patch text', () => {
    const patchText = '*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.ts\n@@\n-y\n+z\n*** End Patch';
    const multiLine = 'Success. Updated the following files:\nA a.txt\nM src/b.ts';
    expect(patchFiles(patchText)).toEqual(['a.txt', 'src/b.ts']);
    expect(titleOf('apply_patch', { patchText }, { title: multiLine })).toBe('Patching 2 files');
    expect(titleOf('apply_patch', { patchText: '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch' }, { title: multiLine })).toBe('Patching old.txt');
    expect(titleOf('patch', { patchText }, { title: '2 files changed' })).toBe('Patching 2 files');
  });

  it('an empty or multi-line state.title is never the title of an unknown tool either', () => {
    expect(titleOf('deploy', {}, { title: '' })).toBe('Running deploy');
    expect(titleOf('deploy', {}, { title: 'line one\nline two' })).toBe('Running deploy');
    expect(titleOf('deploy', {}, { title: 'Deployed to staging' })).toBe('Deployed to staging');
  });

  it('state.metadata.actionDescriptor, when present and usable, is the preferred title', () => {
    expect(titleOf('bash', { command: 'ls', description: 'List' }, { metadata: { actionDescriptor: 'Listing the workspace' } })).toBe('Listing the workspace');
    expect(titleOf('bash', { command: 'ls' }, { metadata: { actionDescriptor: { title: 'Listing files' } } })).toBe('Listing files');
    expect(titleOf('bash', { command: 'ls' }, { metadata: { actionDescriptor: '  ' } })).toBe('Listing files');
  });

  it('without a session cwd (run JSON), a file tool uses OpenCode\'s own relative path when the input path ends with it', () => {
    const line = (title: string) => JSON.stringify({ type: 'tool_use', timestamp: 1, sessionID: SES, part: toolPart('prt_r', 'read', completed({ filePath: '/home/u/ws/notes.txt' }, 'x', { title })) });
    expect(onlyPart(line('notes.txt')).title).toBe('Reading notes.txt');
    expect(onlyPart(line('')).title).toBe('Reading /home/u/ws/notes.txt');
    expect(onlyPart(line('other.txt')).title).toBe('Reading /home/u/ws/notes.txt');
    expect(onlyPart(line('notes.txt'), { cwd: '/home/u' }).title).toBe('Reading ws/notes.txt');
  });

  it('titles follow the input as it arrives: pending fallback, then the running input', () => {
    const pendingOnly = run(sse([partUpdated(toolPart('prt_x', 'read', pending()))]));
    expect(pendingOnly.parts[0]).toMatchObject({ state: 'started', title: 'Reading a file' });
    const both = run(sse([partUpdated(toolPart('prt_x', 'read', pending())), partUpdated(toolPart('prt_x', 'read', running({ filePath: '/a/b.txt' })))]));
    expect(both.events[0]).toMatchObject({ type: 'tool.started', title: 'Reading /a/b.txt' });
    const announced = run(sse([
      partUpdated(toolPart('prt_x', 'read', pending())),
      partUpdated(toolPart('prt_y', 'bash', running({ command: 'ls' }))),
      partUpdated(toolPart('prt_x', 'read', running({ filePath: '/a/b.txt' }))),
    ]));
    expect(announced.events[0]).toMatchObject({ type: 'tool.started', partId: 'prt_x', title: 'Reading a file' });
    expect(announced.events.find((e) => e.partId === 'prt_x' && e.type === 'tool.updated')).toMatchObject({ title: 'Reading /a/b.txt', input: { filePath: '/a/b.txt' } });
  });
});

describe('MCP names', () => {
  it('splits <server>_<tool> with configured servers first, longest server wins, dashes kept', () => {
    const names = new ToolNames(['my-db', 'my', 'a.b'], []);
    expect(names.split('my-db_query')).toEqual({ server: 'my-db', tool: 'query' });
    expect(names.split('my_db_query')).toEqual({ server: 'my', tool: 'db_query' });
    expect(names.split('a_b_tool')).toEqual({ server: 'a.b', tool: 'tool' }); // server sanitized like OpenCode does
    expect(names.split('other_tool')).toBeUndefined();
  });

  it('falls back to the shared registry of MCP tool names, longest tool wins', () => {
    const names = new ToolNames([], ['browser_tabs', 'browser_tabs_new', 'tabs_new']);
    expect(names.split('amalgm_browser_tabs_new')).toEqual({ server: 'amalgm', tool: 'browser_tabs_new' });
    expect(names.split('browser_tabs_new')).toEqual({ server: 'browser', tool: 'tabs_new' }); // the only split the list allows
    expect(new ToolNames([], ['browser_tabs_new']).split('browser_tabs_new')).toBeUndefined(); // nothing left for the server
  });

  it('with mcpServers given, demo_echo is an MCP call with its registry title; without, the name is kept whole with kind mcp', () => {
    const part = toolPart('prt_e', 'demo_echo', completed({ text: 'hi' }, 'echo: hi'));
    expect(onlyPart(sse([partUpdated(part)]), { mcpServers: ['demo'] })).toMatchObject({ kind: 'mcp', title: 'Echo (demo)', metadata: { mcp: { server: 'demo', tool: 'echo' } } });
    const whole = onlyPart(sse([partUpdated(part)]));
    expect(whole).toMatchObject({ name: 'demo_echo', kind: 'mcp', title: 'Running demo_echo' });
    expect(whole.metadata?.mcp).toBeUndefined();
  });

  it('titles registered with registerMcpTitle reach OpenCode calls', () => {
    registerMcpTitle('issue_create_opencode_test', (a) => `Filing issue ${String(a.title)}`);
    const p = onlyPart(sse([partUpdated(toolPart('prt_g', 'tracker_issue_create_opencode_test', completed({ title: 'Crash on start' }, 'ok')))]));
    expect(p).toMatchObject({ title: 'Filing issue Crash on start', metadata: { mcp: { server: 'tracker', tool: 'issue_create_opencode_test' } } });
  });

  it('a built-in name is never split, even when it ends like a registry tool', () => {
    const names = new ToolNames(['apply'], ['patch']);
    expect(names.identify('apply_patch')).toMatchObject({ kind: 'file_edit' });
    expect(names.identify('apply_patch').mcp).toBeUndefined();
  });

  it('a name with no underscore that no table knows is unknown, titled "Running <name>"', () => {
    expect(new ToolNames().identify('deploy')).toEqual({ name: 'deploy', kind: 'unknown' });
  });
});
