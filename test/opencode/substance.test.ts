// The substance rows of the OpenCode adapter (src/adapters/opencode/substance.ts), each against the
// shape OpenCode itself records (docs/providers/opencode.md#built-in-tools): the diff an edit
// recorded, the file list of apply_patch, the result text of glob / grep / list, the todo list,
// bash's exit status; and the typed approval of a permission request.
import { describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart } from '../../src/contract/index.js';
import { MAX_SEARCH_PATHS, recordedDiff } from '../../src/adapters/opencode/substance.js';
import { busEvent, completed, CWD, failed, MSG, onlyPart, partUpdated, running, run, SES, sessionCreated, sse, toolPart } from '../helpers/opencode-lines.js';

const inSession = (...events: Record<string, unknown>[]) => sse([sessionCreated(SES), ...events]);
const one = (tool: string, state: Record<string, unknown>) => {
  const p = onlyPart(inSession(partUpdated(toolPart('prt_1', tool, state))));
  expect(issuesOfNormalizedToolPart(p)).toEqual([]);
  return p;
};

// jsdiff's createTwoFilesPatch, as OpenCode 1.18.33 records it in metadata.diff / filediff.patch.
const JSDIFF = `Index: ${CWD}/a.txt\n===================================================================\n--- ${CWD}/a.txt\n+++ ${CWD}/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n`;

describe('edit, multiedit, write', () => {
  it('edit: the diff OpenCode recorded (without jsdiff\'s Index header), the snippets as oldText/newText, a relative path made absolute', () => {
    const p = one('edit', completed({ filePath: 'a.txt', oldString: 'two', newString: 'TWO' }, 'Edit applied successfully.', { metadata: { diff: JSDIFF, filediff: { file: `${CWD}/a.txt`, patch: JSDIFF, additions: 1, deletions: 1 } } }));
    expect(p.metadata?.files).toEqual([{
      path: `${CWD}/a.txt`, operation: 'modify', oldText: 'two', newText: 'TWO', stats: { added: 1, removed: 1 },
      diff: `--- ${CWD}/a.txt\n+++ ${CWD}/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n`,
    }]);
  });

  it('edit with filediff {before, after} (Jan 2026): the diff of the whole file, not of the snippets', () => {
    const p = one('edit', completed({ filePath: `${CWD}/a.txt`, oldString: 'two', newString: 'TWO' }, '', { metadata: { diff: '-two\n+TWO', filediff: { file: `${CWD}/a.txt`, before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n' } } }));
    expect(p.metadata?.files?.[0]?.diff).toBe(`--- ${CWD}/a.txt\n+++ ${CWD}/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n`);
  });

  it('edit with nothing recorded (running, or a hunkless legacy diff): the diff of the snippets; the control shows a recorded diff wins', () => {
    const snippet = `--- ${CWD}/a.txt\n+++ ${CWD}/a.txt\n@@ -1 +1 @@\n-two\n\\ No newline at end of file\n+TWO\n\\ No newline at end of file\n`;
    const p = one('edit', completed({ filePath: `${CWD}/a.txt`, oldString: 'two', newString: 'TWO' }, '', { metadata: { diff: '-two\n+TWO' } }));
    expect(p.metadata?.files?.[0]?.diff).toBe(snippet);
    expect(recordedDiff('-two\n+TWO')).toBeUndefined();
    expect(recordedDiff(JSDIFF)).not.toBe(snippet);
  });

  it('a call waiting for approval already shows its change: files come with the running input', () => {
    const r = run(inSession(partUpdated(toolPart('prt_1', 'edit', running({ filePath: `${CWD}/a.txt`, oldString: 'a', newString: 'b' })))));
    expect(r.events[0]).toMatchObject({ type: 'tool.started', metadata: { files: [{ path: `${CWD}/a.txt`, operation: 'modify', oldText: 'a', newText: 'b' }] } });
  });

  it('multiedit: one entry per path, the edits\' hunks under one header', () => {
    const p = one('multiedit', completed({ filePath: `${CWD}/m.ts`, edits: [{ filePath: `${CWD}/m.ts`, oldString: 'a\n', newString: 'b\n' }, { filePath: `${CWD}/m.ts`, oldString: 'c\n', newString: 'd\n' }] }, 'ok', { metadata: { results: [{}, {}] } }));
    expect(p.metadata?.files).toEqual([{ path: `${CWD}/m.ts`, operation: 'modify', diff: `--- ${CWD}/m.ts\n+++ ${CWD}/m.ts\n@@ -1 +1 @@\n-a\n+b\n@@ -1 +1 @@\n-c\n+d\n`, stats: { added: 2, removed: 2 } }]);
  });

  it('write: create with the whole text as the diff when OpenCode says the file was new; modify without an invented diff when it existed', () => {
    const created = one('write', completed({ filePath: `${CWD}/n.txt`, content: 'x\n' }, 'Wrote file successfully.', { metadata: { exists: false, filepath: `${CWD}/n.txt` } }));
    expect(created.metadata?.files).toEqual([{ path: `${CWD}/n.txt`, operation: 'create', oldText: null, newText: 'x\n', diff: `--- /dev/null\n+++ ${CWD}/n.txt\n@@ -0,0 +1 @@\n+x\n`, stats: { added: 1, removed: 0 } }]);
    const over = one('write', completed({ filePath: `${CWD}/n.txt`, content: 'x\n' }, 'Wrote file successfully.', { metadata: { exists: true } }));
    expect(over.metadata?.files).toEqual([{ path: `${CWD}/n.txt`, operation: 'modify', newText: 'x\n' }]);
  });
});

describe('apply_patch and patch', () => {
  const patchText = '*** Begin Patch\n*** Add File: guide/n.md\n+# N\n*** Update File: src/a.ts\n@@\n-1\n+2\n*** Delete File: old.txt\n*** End Patch';
  const combined = `Index: ${CWD}/guide/n.md\n===\n--- ${CWD}/guide/n.md\n+++ ${CWD}/guide/n.md\n@@ -0,0 +1 @@\n+# N\nIndex: ${CWD}/src/a.ts\n===\n--- ${CWD}/src/a.ts\n+++ ${CWD}/src/a.ts\n@@ -1 +1 @@\n-1\n+2\n`;

  it('metadata.files gives paths and operations; each file\'s diff is its section of OpenCode\'s combined diff', () => {
    const p = one('apply_patch', completed({ patchText }, 'Success.', { metadata: { diff: combined, files: [
      { filePath: `${CWD}/guide/n.md`, relativePath: 'guide/n.md', type: 'add', additions: 1, deletions: 0 },
      { filePath: `${CWD}/src/a.ts`, relativePath: 'src/a.ts', type: 'update', additions: 1, deletions: 1 },
      { filePath: `${CWD}/old.txt`, relativePath: 'old.txt', type: 'delete', additions: 0, deletions: 0 },
      { filePath: `${CWD}/b.ts`, relativePath: 'b.ts', type: 'move', movePath: `${CWD}/c.ts`, patch: `--- ${CWD}/b.ts\n+++ ${CWD}/c.ts\n@@ -1 +1 @@\n-x\n+y\n` },
    ] } }));
    expect(p.metadata?.files?.map((f) => [f.operation, f.path, f.from, f.diff])).toEqual([
      ['create', `${CWD}/guide/n.md`, undefined, `--- ${CWD}/guide/n.md\n+++ ${CWD}/guide/n.md\n@@ -0,0 +1 @@\n+# N\n`],
      ['modify', `${CWD}/src/a.ts`, undefined, `--- ${CWD}/src/a.ts\n+++ ${CWD}/src/a.ts\n@@ -1 +1 @@\n-1\n+2\n`],
      ['delete', `${CWD}/old.txt`, undefined, undefined],
      ['rename', `${CWD}/c.ts`, `${CWD}/b.ts`, `--- ${CWD}/b.ts\n+++ ${CWD}/c.ts\n@@ -1 +1 @@\n-x\n+y\n`],
    ]);
  });

  it('a recorded file type that names a property of every object (`constructor`) is no operation: the file is a modify (a fuzz case found it)', () => {
    const p = one('apply_patch', completed({ patchText }, 'Success.', { metadata: { files: [{ filePath: `${CWD}/a.md`, relativePath: 'a.md', type: 'constructor' }] } }));
    expect(p.metadata?.files?.map((f) => [f.operation, f.path])).toEqual([['modify', `${CWD}/a.md`]]);
  });

  it('before it completes (no metadata.files), the shared patch parser gives the files, operations and diffs, in patch order; a patch it cannot read still names its files', () => {
    const r = run(inSession(partUpdated(toolPart('prt_1', 'apply_patch', running({ patchText })))));
    const files = r.parts[0]!.metadata!.files!;
    expect(files.map((f) => ({ path: f.path, operation: f.operation }))).toEqual([
      { path: `${CWD}/guide/n.md`, operation: 'create' },
      { path: `${CWD}/src/a.ts`, operation: 'modify' },
      { path: `${CWD}/old.txt`, operation: 'delete' },
    ]);
    expect(files[0]!.diff).toMatch(/^--- \/dev\/null\n\+\+\+ /);
    expect(files[1]!.diff).toContain('@@');
    // Control: the same envelope with a hunk the parser refuses keeps the names, without diffs.
    const broken = patchText.replace('*** End Patch', 'not a patch line\n*** End Patch');
    const b = run(inSession(partUpdated(toolPart('prt_2', 'apply_patch', running({ patchText: broken })))));
    expect(b.parts[0]!.metadata?.files).toEqual([
      { path: `${CWD}/guide/n.md`, operation: 'create' },
      { path: `${CWD}/src/a.ts`, operation: 'modify' },
      { path: `${CWD}/old.txt`, operation: 'delete' },
    ]);
  });
});

describe('bash', () => {
  it('command, the cwd (workdir made absolute), the exit status and the model\'s description; the title is the command\'s', () => {
    const p = one('bash', completed({ command: 'cat README.md', description: 'Show the readme', workdir: 'pkg' }, '# hi\n', { metadata: { output: '# hi\n', exit: 0 } }));
    expect(p.metadata?.command).toEqual({ command: 'cat README.md', cwd: `${CWD}/pkg`, exitCode: 0, description: 'Show the readme' });
    expect(p.title).toBe('Reading README.md');
  });

  it('a killed command has exitCode null; a denied one none (it never ran)', () => {
    const killed = one('bash', completed({ command: 'sleep 9' }, 'x\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>', { metadata: { exit: null } }));
    expect(killed.metadata?.command).toEqual({ command: 'sleep 9', cwd: CWD, exitCode: null });
    const denied = one('bash', failed({ command: 'rm -rf x' }, 'The user has specified a rule which prevents you from using this specific tool call.'));
    expect(denied.metadata?.command).toEqual({ command: 'rm -rf x', cwd: CWD });
  });
});

describe('searches', () => {
  it('glob: pattern, where (the cwd by default), the paths printed and the count', () => {
    const p = one('glob', completed({ pattern: '**/*.txt' }, `${CWD}/a.txt\n${CWD}/d/b.txt\n\n(Results are truncated. Consider using a more specific path or pattern.)`, { metadata: { count: 2, truncated: true } }));
    expect(p.metadata?.search).toEqual({ pattern: '**/*.txt', path: CWD, paths: [`${CWD}/a.txt`, `${CWD}/d/b.txt`], matches: 2 });
  });

  it('grep: the files of the matches, not the matched lines', () => {
    const out = `Found 3 matches\n${CWD}/a.ts:\n  Line 1: alpha\n  Line 9: alpha beta\n\n${CWD}/b.ts:\n  Line 2: alpha:\n`;
    const p = one('grep', completed({ pattern: 'alpha', path: 'src' }, out, { metadata: { matches: 3 } }));
    expect(p.metadata?.search).toEqual({ pattern: 'alpha', path: `${CWD}/src`, paths: [`${CWD}/a.ts`, `${CWD}/b.ts`], matches: 3 });
  });

  it('grep with no match and a failed glob keep what was asked, with no paths', () => {
    expect(one('grep', completed({ pattern: 'zzz' }, 'No files found', { metadata: { matches: 0 } })).metadata?.search).toEqual({ pattern: 'zzz', path: CWD, matches: 0 });
    expect(one('glob', failed({ pattern: '*.md' }, 'ripgrep execution failed')).metadata?.search).toEqual({ pattern: '*.md', path: CWD });
  });

  it('list (legacy): the tree read back into paths, nested directories included', () => {
    const p = one('list', completed({ path: `${CWD}/src` }, `${CWD}/src/\n  lib/\n    x.ts\n  a.ts\n`, { metadata: { count: 2 } }));
    expect(p.metadata?.search).toEqual({ path: `${CWD}/src`, paths: [`${CWD}/src/lib/x.ts`, `${CWD}/src/a.ts`], matches: 2 });
  });

  it(`at most ${MAX_SEARCH_PATHS} paths`, () => {
    const many = Array.from({ length: 150 }, (_, i) => `${CWD}/f${i}.ts`).join('\n');
    const p = one('glob', completed({ pattern: '*.ts' }, many, { metadata: { count: 150 } }));
    expect(p.metadata?.search?.paths).toHaveLength(MAX_SEARCH_PATHS);
    expect(p.metadata?.search?.matches).toBe(150);
  });

  it('websearch and codesearch: the query; webfetch: the URL as the path', () => {
    expect(one('websearch', completed({ query: 'q1' }, '')).metadata?.search).toEqual({ query: 'q1' });
    expect(one('codesearch', completed({ query: 'q2', tokensNum: 5 }, '')).metadata?.search).toEqual({ query: 'q2' });
    expect(one('webfetch', completed({ url: 'https://example.com/a', format: 'markdown' }, '')).metadata?.search).toEqual({ path: 'https://example.com/a' });
  });
});

describe('todos', () => {
  it('todowrite: every entry, priority and cancelled kept', () => {
    const todos = [{ content: 'a', status: 'completed', priority: 'high', id: '1' }, { content: 'b', status: 'cancelled', priority: 'low' }, { content: 'c', status: 'in_progress', priority: 'medium' }];
    expect(one('todowrite', completed({ todos }, '[]', { metadata: { todos } })).metadata?.plan).toEqual({ entries: [
      { content: 'a', status: 'completed', priority: 'high', id: '1' }, { content: 'b', status: 'cancelled', priority: 'low' }, { content: 'c', status: 'in_progress', priority: 'medium' },
    ] });
  });

  it('todoread: the list it read, once it completed', () => {
    const todos = [{ content: 'x', status: 'pending', priority: 'low' }];
    expect(one('todoread', completed({}, '[]', { metadata: { todos } })).metadata?.plan).toEqual({ entries: [{ content: 'x', status: 'pending', priority: 'low' }] });
  });
});

describe('approvals', () => {
  const ask = (id: string, callID: string) => busEvent('permission.asked', { id, sessionID: SES, permission: 'edit', patterns: ['a.ts'], metadata: {}, always: ['*'], tool: { messageID: MSG, callID } });

  it('a request still unanswered at the end of the input stays pending: the part waits for the person', () => {
    const r = run(inSession(partUpdated(toolPart('prt_1', 'edit', running({ filePath: `${CWD}/a.ts`, oldString: 'a', newString: 'b' }))), ask('per_1', 'call_prt_1')));
    expect(r.parts[0]).toMatchObject({ state: 'running', metadata: { approval: { state: 'pending', source: 'user', detail: { requestId: 'per_1', permission: 'edit', patterns: ['a.ts'], always: ['*'] } }, files: [{ path: `${CWD}/a.ts` }] } });
  });

  it('reply once → approved with the option chosen; the request\'s time is kept as requestedAt', () => {
    const r = run(inSession(
      partUpdated(toolPart('prt_1', 'edit', running({ filePath: `${CWD}/a.ts`, oldString: 'a', newString: 'b' })), 1000),
      ask('per_1', 'call_prt_1'),
      busEvent('permission.replied', { sessionID: SES, requestID: 'per_1', reply: 'once' }),
      partUpdated(toolPart('prt_1', 'edit', completed({ filePath: `${CWD}/a.ts`, oldString: 'a', newString: 'b' }, 'ok')), 1500),
    ), { clock: () => 1200 });
    expect(r.parts[0]!.metadata?.approval).toMatchObject({ state: 'approved', source: 'user', optionId: 'once', at: 1200, requestedAt: 1200 });
  });

  it('a call that ends with its request unanswered: approved when it ran, expired when it was stopped', () => {
    const ran = run(inSession(partUpdated(toolPart('prt_1', 'bash', running({ command: 'ls' }))), ask('per_1', 'call_prt_1'), partUpdated(toolPart('prt_1', 'bash', completed({ command: 'ls' }, 'a', { metadata: { exit: 0 } })))));
    expect(ran.parts[0]!.metadata?.approval).toMatchObject({ state: 'approved', source: 'opencode' });
    const stopped = run(inSession(partUpdated(toolPart('prt_1', 'bash', running({ command: 'ls' }))), ask('per_1', 'call_prt_1'), partUpdated(toolPart('prt_1', 'bash', { status: 'error', input: { command: 'ls' }, error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: 1000, end: 1100 } }))));
    expect(stopped.parts[0]).toMatchObject({ state: 'error', error: { code: 'interrupted' }, metadata: { approval: { state: 'expired', source: 'opencode' } } });
  });

  it('SDK v1 permission.updated / permission.replied {permissionID, response}: the same typed approval, its title as the reason and time.created as the time', () => {
    const r = run(inSession(
      partUpdated(toolPart('prt_1', 'bash', running({ command: 'git push' }))),
      busEvent('permission.updated', { id: 'per_v1', type: 'bash', pattern: 'git push', sessionID: SES, messageID: MSG, callID: 'call_prt_1', title: 'Run git push', metadata: {}, time: { created: 1111 } }),
      busEvent('permission.replied', { sessionID: SES, permissionID: 'per_v1', response: 'always' }),
    ), { clock: () => 2222 });
    expect(r.events.filter((e) => e.type.startsWith('tool.approval')).map((e) => (e as { approval: unknown }).approval)).toMatchObject([
      { state: 'pending', source: 'user', reason: 'Run git push', at: 1111, detail: { requestId: 'per_v1', permission: 'bash', patterns: ['git push'] } },
      { state: 'approved', source: 'user', optionId: 'always' },
    ]);
    expect(r.parts[0]!.metadata?.approval).toMatchObject({ state: 'approved', requestedAt: 1111, at: 2222, reason: 'Run git push' });
  });

  it('a reply word OpenCode does not define is reported and changes nothing', () => {
    const r = run(inSession(partUpdated(toolPart('prt_1', 'bash', running({ command: 'ls' }))), ask('per_1', 'call_prt_1'), busEvent('permission.replied', { sessionID: SES, requestID: 'per_1', reply: 'maybe' })));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown_reply']);
    expect(r.parts[0]!.metadata?.approval?.state).toBe('pending');
  });
});
