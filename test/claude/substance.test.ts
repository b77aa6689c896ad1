// Each typed-substance mapping of the Claude adapter on small hand-written lines: metadata.files
// for the file tools, command for Bash, search, plan, and typed approvals with their events.
import { describe, expect, it } from 'vitest';
import { isNormalizedToolPart, isToolEvent, type FileChange, type ToolApproval } from '../../src/contract/index.js';
import { commandItemTitle } from '../../src/adapters/shared/command-title.js';
import { SID, byId, err, init, meta, resultMsg, run, useMsg } from '../helpers/claude-lines.js';

const files = (p: Parameters<typeof meta>[0]) => meta(p).files as FileChange[] | undefined;
const approval = (p: Parameters<typeof meta>[0]) => meta(p).approval as ToolApproval | undefined;

describe('metadata.files', () => {
  it('Edit: the snippet diff before the result, the file\'s own line numbers from structuredPatch after', () => {
    const input = { file_path: 'src/a.ts', old_string: 'world', new_string: 'there' };
    const patch = [{ oldStart: 7, oldLines: 2, newStart: 7, newLines: 2, lines: ['-hello world', '+hello there', ' second line'] }];
    const open = run([init(), useMsg('t1', 'Edit', input)]);
    const before = files(byId(open.parts, 't1'))!;
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ path: '/repo/src/a.ts', operation: 'modify', oldText: 'world', newText: 'there' });
    expect(before[0]!.diff).toContain('@@ -1 +1 @@\n-world\n\\ No newline at end of file\n+there');

    const done = run([init(), useMsg('t1', 'Edit', input), resultMsg('t1', 'updated', { structured: { filePath: '/repo/src/a.ts', oldString: 'world', newString: 'there', originalFile: 'x', structuredPatch: patch } })]);
    const after = files(byId(done.parts, 't1'))!;
    expect(after).toHaveLength(1);
    expect(after[0]!.diff).toBe('--- /repo/src/a.ts\n+++ /repo/src/a.ts\n@@ -7,2 +7,2 @@\n-hello world\n+hello there\n second line\n');
    expect(after[0]).toMatchObject({ stats: { added: 1, removed: 1 }, oldText: 'world', newText: 'there' });
    expect(isNormalizedToolPart(byId(done.parts, 't1'))).toBe(true);
  });

  it('a failed or denied edit keeps what it would have changed', () => {
    const r = run([
      init(),
      useMsg('t1', 'Edit', { file_path: '/repo/a', old_string: 'NOT-PRESENT', new_string: 'x' }),
      resultMsg('t1', '<tool_use_error>String to replace not found in file.</tool_use_error>', { isError: true, structured: 'Error: String to replace not found in file.' }),
      useMsg('t2', 'Write', { file_path: '/repo/b', content: 'new\n' }),
      { type: 'system', subtype: 'permission_denied', tool_name: 'Write', tool_use_id: 't2', message: 'denied by rule', decision_reason_type: 'rule', session_id: SID },
      resultMsg('t2', 'denied by rule', { isError: true }),
    ]);
    expect(byId(r.parts, 't1').state).toBe('error');
    expect(files(byId(r.parts, 't1'))![0]).toMatchObject({ path: '/repo/a', operation: 'modify', oldText: 'NOT-PRESENT', newText: 'x', diff: expect.stringContaining('-NOT-PRESENT') });
    expect(err(byId(r.parts, 't2'))!.code).toBe('denied');
    expect(files(byId(r.parts, 't2'))![0]).toMatchObject({ path: '/repo/b', operation: 'modify', newText: 'new\n' });
  });

  it('MultiEdit: one entry for its path; one diff with the result, a hunk per edit before it', () => {
    const edits = [{ old_string: 'a', new_string: 'A' }, { old_string: 'c', new_string: 'C' }];
    const before = run([init(), useMsg('t1', 'MultiEdit', { file_path: '/repo/f', edits })]);
    const f = files(byId(before.parts, 't1'))!;
    expect(f).toHaveLength(1);
    expect(f[0]!.diff!.match(/^@@/gm)).toHaveLength(2);
    expect(f[0]!.diff!.match(/^--- /gm)).toHaveLength(1);
    expect(f[0]!.oldText).toBeUndefined();

    // No structuredPatch: the whole file before with the edits applied is a true diff.
    const applied = run([init(), useMsg('t1', 'MultiEdit', { file_path: '/repo/f', edits }), resultMsg('t1', 'ok', { structured: { filePath: '/repo/f', edits, originalFileContents: 'a\nb\nc\n' } })]);
    expect(files(byId(applied.parts, 't1'))).toEqual([expect.objectContaining({ path: '/repo/f', operation: 'modify', oldText: 'a\nb\nc\n', newText: 'A\nb\nC\n', diff: expect.stringContaining('+A\n+b\n+C') })]);
  });

  it('Write: create from the result\'s type, modify with the old text from originalFile, no diff before the result', () => {
    const open = run([init(), useMsg('t1', 'Write', { file_path: 'n.txt', content: 'alpha\n' })]);
    const o = files(byId(open.parts, 't1'))![0]!;
    expect(o).toMatchObject({ path: '/repo/n.txt', operation: 'modify', newText: 'alpha\n' });
    expect(o.diff).toBeUndefined();

    const created = run([init(), useMsg('t1', 'Write', { file_path: 'n.txt', content: 'alpha\n' }), resultMsg('t1', 'ok', { structured: { type: 'create', filePath: '/repo/n.txt', content: 'alpha\n', structuredPatch: [], originalFile: null } })]);
    expect(files(byId(created.parts, 't1'))![0]).toMatchObject({ path: '/repo/n.txt', operation: 'create', oldText: null, newText: 'alpha\n', diff: expect.stringMatching(/^--- \/dev\/null\n\+\+\+ \/repo\/n\.txt\n/) });

    const updated = run([init(), useMsg('t1', 'Write', { file_path: '/repo/n.txt', content: 'beta\n' }), resultMsg('t1', 'ok', { structured: { type: 'update', filePath: '/repo/n.txt', content: 'beta\n', originalFile: 'alpha\n' } })]);
    expect(files(byId(updated.parts, 't1'))![0]).toMatchObject({ operation: 'modify', oldText: 'alpha\n', newText: 'beta\n', diff: expect.stringContaining('-alpha\n+beta') });
  });

  it('NotebookEdit: an inserted cell is a diff from nothing; the result\'s whole notebook wins', () => {
    const r = run([init(), useMsg('t1', 'NotebookEdit', { notebook_path: 'nb.ipynb', new_source: 'print(1)\n', edit_mode: 'insert' })]);
    expect(files(byId(r.parts, 't1'))![0]).toMatchObject({ path: '/repo/nb.ipynb', operation: 'modify', diff: expect.stringContaining('+print(1)') });
    const done = run([init(), useMsg('t1', 'NotebookEdit', { notebook_path: 'nb.ipynb', new_source: 'x', cell_id: 'c1' }), resultMsg('t1', 'ok', { structured: { notebook_path: '/repo/nb.ipynb', new_source: 'x', original_file: '{"cells":[1]}\n', updated_file: '{"cells":[2]}\n' } })]);
    expect(files(byId(done.parts, 't1'))![0]).toMatchObject({ oldText: '{"cells":[1]}\n', newText: '{"cells":[2]}\n' });
  });
});

describe('metadata.command', () => {
  it('Bash: command, cwd, the model\'s description beside it, exit status; the title is the command\'s', () => {
    const r = run([
      init(),
      useMsg('t1', 'Bash', { command: 'cat README.md', description: 'Show the readme' }),
      resultMsg('t1', 'hi', { isError: false, structured: { stdout: 'hi', stderr: '', interrupted: false, isImage: false } }),
      useMsg('t2', 'Bash', { command: 'exit 3', description: 'Fail' }),
      resultMsg('t2', 'Exit code 3\n', { isError: true, structured: 'Error: Exit code 3' }),
      useMsg('t3', 'Bash', { command: 'sleep 9', description: 'Wait', run_in_background: true }),
      resultMsg('t3', 'Command running in background with ID: b1. Output is being written to: /tmp/x', { isError: false, structured: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: 'b1' } }),
      useMsg('t4', 'BashOutput', { bash_id: 'b1' }),
    ]);
    const t1 = byId(r.parts, 't1');
    expect(meta(t1).command).toEqual({ command: 'cat README.md', cwd: '/repo', description: 'Show the readme', exitCode: 0 });
    // Were the description the title, this would be "Show the readme".
    expect(t1.title).toBe('Reading README.md');
    expect(t1.title).toBe(commandItemTitle('cat README.md', '/repo'));
    expect(t1.title).not.toBe('Show the readme');
    expect(meta(byId(r.parts, 't2')).command).toEqual({ command: 'exit 3', cwd: '/repo', description: 'Fail', exitCode: 3 });
    expect(meta(byId(r.parts, 't3')).command).toEqual({ command: 'sleep 9', cwd: '/repo', description: 'Wait', background: true });
    // Its status comes later, with the task's notification.
    const notified = run([
      init(),
      useMsg('t3', 'Bash', { command: 'sleep 9', description: 'Wait', run_in_background: true }),
      resultMsg('t3', 'Command running in background with ID: b1.', { isError: false, structured: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'b1' } }),
      { type: 'system', subtype: 'task_notification', task_id: 'b1', tool_use_id: 't3', status: 'completed', output_file: '', summary: 'Background command "Wait" completed (exit code 2)', session_id: SID },
    ]);
    expect(meta(byId(notified.parts, 't3')).command).toEqual({ command: 'sleep 9', cwd: '/repo', description: 'Wait', background: true, exitCode: 2 });
    // A background shell's reader is still titled by what the model said the command is for.
    expect(byId(r.parts, 't4').title).toBe('Reading output of "Wait"');
    for (const p of r.parts) expect(isNormalizedToolPart(p), p.id).toBe(true);
  });

  it('leaves the exit status out when Claude read the status itself or the command was interrupted', () => {
    const r = run([
      init(),
      useMsg('t1', 'Bash', { command: 'grep x f' }),
      resultMsg('t1', '', { isError: false, structured: { stdout: '', stderr: '', interrupted: false, returnCodeInterpretation: 'No matches found' } }),
      useMsg('t2', 'Bash', { command: 'sleep 100' }),
      resultMsg('t2', '', { isError: false, structured: { stdout: '', stderr: '', interrupted: true } }),
    ]);
    expect(meta(byId(r.parts, 't1')).command).toEqual({ command: 'grep x f', cwd: '/repo' });
    expect(meta(byId(r.parts, 't2')).command).toEqual({ command: 'sleep 100', cwd: '/repo' });
  });
});

describe('metadata.search', () => {
  it('Glob and Grep: pattern, where (the cwd when no path), and the result\'s paths made absolute, at most 100', () => {
    const many = Array.from({ length: 150 }, (_, i) => `src/f${i}.ts`);
    const r = run([
      init(),
      useMsg('t1', 'Glob', { pattern: '**/*.ts' }),
      resultMsg('t1', many.join('\n'), { structured: { filenames: many, numFiles: 150, truncated: false } }),
      useMsg('t2', 'Grep', { pattern: 'TODO', path: 'lib', output_mode: 'files_with_matches' }),
      resultMsg('t2', 'Found 1 file', { structured: { mode: 'files_with_matches', numFiles: 1, filenames: ['lib/x.ts'] } }),
      useMsg('t3', 'Grep', { pattern: 'hello' }),
      resultMsg('t3', 'a:1:hello', { structured: { mode: 'content', numFiles: 0, filenames: [], content: 'a:1:hello', numLines: 1 } }),
    ]);
    const glob = meta(byId(r.parts, 't1')).search as { pattern: string; path: string; paths: string[]; matches: number };
    expect(glob).toMatchObject({ pattern: '**/*.ts', path: '/repo', matches: 150 });
    expect(glob.paths).toHaveLength(100);
    expect(glob.paths[0]).toBe('/repo/src/f0.ts');
    expect(meta(byId(r.parts, 't2')).search).toEqual({ pattern: 'TODO', path: '/repo/lib', paths: ['/repo/lib/x.ts'], matches: 1 });
    expect(meta(byId(r.parts, 't3')).search).toEqual({ pattern: 'hello', path: '/repo', matches: 1 });
  });

  it('Glob without a structured result (subagent transcripts): the paths of its text, one per line', () => {
    const r = run([
      init(),
      useMsg('t1', 'Glob', { pattern: '*.txt' }),
      resultMsg('t1', 'sample.txt\nnew.txt'),
      useMsg('t2', 'Glob', { pattern: '*.md' }),
      resultMsg('t2', 'No files found'),
      useMsg('t3', 'Glob', { pattern: '**/*.py' }),
      resultMsg('t3', '/srv/a.py\n(Results are truncated. Consider using a more specific path or pattern.)'),
    ]);
    expect(meta(byId(r.parts, 't1')).search).toEqual({ pattern: '*.txt', path: '/repo', paths: ['/repo/sample.txt', '/repo/new.txt'] });
    expect(meta(byId(r.parts, 't2')).search).toEqual({ pattern: '*.md', path: '/repo' });
    expect(meta(byId(r.parts, 't3')).search).toEqual({ pattern: '**/*.py', path: '/repo', paths: ['/srv/a.py'] });
  });

  it('WebSearch names its query, WebFetch its URL', () => {
    const r = run([init(), useMsg('t1', 'WebSearch', { query: 'vitest' }), useMsg('t2', 'WebFetch', { url: 'https://example.org/a', prompt: 'x' })]);
    expect(meta(byId(r.parts, 't1')).search).toEqual({ query: 'vitest' });
    expect(meta(byId(r.parts, 't2')).search).toEqual({ path: 'https://example.org/a' });
  });
});

describe('metadata.plan', () => {
  it('TodoWrite: the whole list', () => {
    const todos = [{ content: 'Read', status: 'completed', activeForm: 'Reading' }, { content: 'Write', status: 'in_progress', activeForm: 'Writing' }, { content: 'Test', status: 'pending', priority: 'high' }];
    const r = run([init(), useMsg('t1', 'TodoWrite', { todos })]);
    expect(meta(byId(r.parts, 't1')).plan).toEqual({ entries: [
      { content: 'Read', status: 'completed', activeForm: 'Reading' },
      { content: 'Write', status: 'in_progress', activeForm: 'Writing' },
      { content: 'Test', status: 'pending', priority: 'high' },
    ] });
  });

  it('TaskCreate / TaskUpdate: partial plans; the update finds the subject its entry was created with', () => {
    const r = run([
      init(),
      useMsg('t1', 'TaskCreate', { subject: 'Add tests', description: 'for the parser', activeForm: 'Adding tests' }),
      resultMsg('t1', 'Task #4 created', { structured: { task: { id: '4', subject: 'Add tests' } } }),
      useMsg('t2', 'TaskUpdate', { taskId: '4', status: 'in_progress' }),
      useMsg('t3', 'TaskUpdate', { taskId: '9', status: 'deleted' }),
    ]);
    expect(meta(byId(r.parts, 't1')).plan).toEqual({ entries: [{ content: 'Add tests', status: 'pending', activeForm: 'Adding tests', id: '4' }], partial: true });
    expect(meta(byId(r.parts, 't2')).plan).toEqual({ entries: [{ content: 'Add tests', status: 'in_progress', id: '4' }], partial: true });
    // An entry whose text was never seen has no content to show: no plan rather than an invented one.
    expect(meta(byId(r.parts, 't3')).plan).toBeUndefined();
  });
});

describe('approvals', () => {
  const canUse = (id: string, requestId: string, extra: Record<string, unknown> = {}) => ({
    type: 'control_request', request_id: requestId, request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {}, tool_use_id: id, decision_reason: 'rm is destructive', blocked_path: '/repo/build', ...extra },
  });
  const answer = (requestId: string, response: Record<string, unknown>) => ({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });

  it('can_use_tool → a pending approval while the call waits; the host\'s deny → resolved, then the denied failure', () => {
    const lines = [
      init(),
      { ...useMsg('t1', 'Bash', { command: 'rm -rf build' }), timestamp: '2026-01-01T00:00:01Z' },
      { ...canUse('t1', 'req-1'), timestamp: '2026-01-01T00:00:02Z' },
    ];
    const waiting = run(lines);
    const pending = byId(waiting.parts, 't1');
    expect(pending.state).toBe('started');
    expect(approval(pending)).toEqual({ state: 'pending', source: 'user', reason: 'rm is destructive', at: Date.parse('2026-01-01T00:00:02Z'), detail: { requestId: 'req-1', blockedPath: '/repo/build' } });
    expect(waiting.events.map((e) => e.type)).toEqual(['tool.started', 'tool.approval.requested']);

    const r = run([
      ...lines,
      { ...answer('req-1', { behavior: 'deny', message: 'not now' }), timestamp: '2026-01-01T00:00:03Z' },
      resultMsg('t1', 'not now', { isError: true }),
    ]);
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
    const p = byId(r.parts, 't1');
    expect(approval(p)).toMatchObject({ state: 'denied', source: 'user', reason: 'not now', at: Date.parse('2026-01-01T00:00:03Z'), requestedAt: Date.parse('2026-01-01T00:00:02Z') });
    // The denial decides the code, though the text is no known denial wording.
    expect(err(p)!.code).toBe('denied');
    for (const e of r.events) expect(isToolEvent(e), e.type).toBe(true);
    expect(isNormalizedToolPart(p)).toBe(true);
  });

  it('an allowed request resolves approved and the call completes', () => {
    const r = run([init(), useMsg('t1', 'Bash', { command: 'ls' }), canUse('t1', 'r2'), answer('r2', { behavior: 'allow', updatedInput: {} }), resultMsg('t1', 'a', { isError: false })]);
    expect(byId(r.parts, 't1')).toMatchObject({ state: 'complete', metadata: { approval: { state: 'approved', source: 'user' } } });
  });

  it('system/permission_denied: the source from decision_reason_type (hook, rule → policy), once per call', () => {
    const denied = (type: string | undefined) => run([
      init(),
      useMsg('t1', 'Write', { file_path: '/repo/x', content: 'y' }),
      { type: 'system', subtype: 'permission_denied', tool_name: 'Write', tool_use_id: 't1', message: 'Blocked', ...(type ? { decision_reason_type: type, decision_reason: `by ${type}` } : {}), session_id: SID },
      resultMsg('t1', 'Blocked', { isError: true, extra: { tool_result_meta: [{ id: 't1', permission_decision: { decision: 'reject', source: 'config' } }] } }),
    ]);
    const hook = denied('hook');
    expect(approval(byId(hook.parts, 't1'))).toMatchObject({ state: 'denied', source: 'hook', reason: 'by hook', detail: { message: 'Blocked', decisionReasonType: 'hook' } });
    expect(hook.events.filter((e) => e.type === 'tool.approval.resolved')).toHaveLength(1);
    expect(approval(byId(denied('rule').parts, 't1'))).toMatchObject({ source: 'policy' });
    expect(approval(byId(denied('mode').parts, 't1'))).toMatchObject({ source: 'policy' });
    expect(approval(byId(denied(undefined).parts, 't1'))).toMatchObject({ source: 'policy', reason: 'Blocked' });
    expect(err(byId(hook.parts, 't1'))!.code).toBe('denied');
  });

  it('result.permission_denials ends a call still open as denied', () => {
    const r = run([
      init(),
      useMsg('t1', 'WebFetch', { url: 'http://127.0.0.1:9/x', prompt: 'p' }),
      { type: 'result', subtype: 'success', is_error: false, result: 'done', permission_denials: [{ tool_name: 'WebFetch', tool_use_id: 't1', tool_input: {} }], session_id: SID },
    ]);
    const p = byId(r.parts, 't1');
    expect(p.state).toBe('error');
    expect(err(p)!.code).toBe('denied');
    expect(approval(p)).toMatchObject({ state: 'denied', source: 'policy' });
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.approval.resolved', 'tool.failed']);
  });

  it('a decision on the result line (permission_decision / permissionDecision) is a typed resolved approval', () => {
    const r = run([init(), useMsg('t1', 'Read', { file_path: '/repo/a' }), resultMsg('t1', 'x', { extra: { tool_result_meta: [{ id: 't1', permission_decision: { decision: 'accept', source: 'config', reason_type: 'rule' } }] } })]);
    expect(approval(byId(r.parts, 't1'))).toMatchObject({ state: 'approved', source: 'policy', detail: { decision: 'accept', decider: 'config', reasonType: 'rule' } });
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.approval.resolved', 'tool.completed']);
  });
});
