// App-server v2 JSON-RPC hand cases: items, deltas, approvals, turns, threads.
import { describe, expect, it } from 'vitest';
import { eventTypes, part, run } from '../helpers/codex-lines.js';

const T = 1_700_000_000_000;
const started = (item: object, t = T, threadId = 'thr') => ({ method: 'item/started', params: { item, threadId, turnId: 'turn_1', startedAtMs: t } });
const completed = (item: object, t = T, threadId = 'thr') => ({ method: 'item/completed', params: { item, threadId, turnId: 'turn_1', completedAtMs: t } });
const turnDone = (status: string, threadId = 'thr', error: object | null = null) => ({ method: 'turn/completed', params: { threadId, turn: { id: 'turn_1', items: [], status, error } } });
const cmd = (over: object = {}) => ({ type: 'commandExecution', id: 'call_1', command: "/bin/bash -lc 'cat /w/src/a.ts'", cwd: '/w', processId: null, source: 'agent', status: 'inProgress', commandActions: [{ type: 'read', command: 'cat /w/src/a.ts', name: 'a.ts', path: '/w/src/a.ts' }], aggregatedOutput: null, exitCode: null, durationMs: null, ...over });

describe('codex app-server', () => {
  it('items: startedAtMs/completedAtMs give the times, durationMs the elapsed time, commandActions the title', () => {
    const r = run([
      { method: 'thread/started', params: { thread: { id: 'thr', cwd: '/w' } } },
      started(cmd(), T + 10),
      completed(cmd({ status: 'completed', aggregatedOutput: 'x', exitCode: 0, durationMs: 7, processId: '9' }), T + 50),
    ]);
    expect(part(r, 'call_1')).toMatchObject({
      name: 'commandExecution', kind: 'bash', title: 'Reading src/a.ts', state: 'complete', output: { text: 'x' },
      input: { command: "/bin/bash -lc 'cat /w/src/a.ts'", cwd: '/w' },
      timing: { startedAt: T + 10, completedAt: T + 50, elapsedMs: 7 },
      metadata: { provider: 'codex', rawType: 'commandExecution', cwd: '/w', exitCode: 0, processId: '9', source: 'agent' },
    });
  });

  it('output deltas are progress; a failed command without exit code keeps its output as the message', () => {
    const r = run([
      started(cmd()),
      { method: 'item/commandExecution/outputDelta', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'call_1', delta: 'partial ' } },
      { method: 'item/commandExecution/outputDelta', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'call_1', delta: 'out' } },
      completed(cmd({ status: 'failed', aggregatedOutput: 'spawn failed: ENOENT' })),
    ]);
    expect(eventTypes(r, 'call_1')).toEqual(['tool.started', 'tool.progress', 'tool.progress', 'tool.failed']);
    expect(r.events.filter((e) => e.type === 'tool.progress').map((e) => (e as { outputDelta?: string }).outputDelta)).toEqual(['partial ', 'out']);
    expect(part(r, 'call_1')).toMatchObject({ state: 'error', error: { code: 'tool_error', message: 'spawn failed: ENOENT' } });
  });

  it('declined approval: request, client decline, resolved → tool.approval.requested / resolved, typed metadata.approval and a denied error', () => {
    const r = run([
      started(cmd()),
      { id: 7, method: 'item/commandExecution/requestApproval', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'call_1', reason: 'reads a file', availableDecisions: ['accept', 'decline'] } },
      { id: 7, result: { decision: 'decline' } },
      { method: 'serverRequest/resolved', params: { threadId: 'thr', requestId: 7 } },
      completed(cmd({ status: 'declined' })),
    ]);
    expect(part(r, 'call_1')).toMatchObject({
      state: 'error',
      error: { code: 'denied', message: 'Reading src/a.ts: declined by the user' },
    });
    expect(part(r, 'call_1').metadata!.approval).toEqual({
      state: 'denied', source: 'user', reason: 'reads a file', at: T, requestedAt: T, optionId: 'decline',
      options: [{ id: 'accept' }, { id: 'decline' }],
      detail: { requestId: 7, method: 'item/commandExecution/requestApproval', decision: 'decline' },
    });
    expect(eventTypes(r, 'call_1')).toEqual(['tool.started', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
    const requested = r.events.find((e) => e.type === 'tool.approval.requested') as { approval: unknown };
    expect(requested.approval).toMatchObject({ state: 'pending', source: 'user', reason: 'reads a file', options: [{ id: 'accept' }, { id: 'decline' }] });
  });

  it('an approval asked before the item starts starts the part; a declined one that never completes is denied at turn end', () => {
    const r = run([
      { id: 'a1', method: 'item/commandExecution/requestApproval', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'call_2', command: 'rm -rf /', cwd: '/w' } },
      { dir: 'out', msg: { id: 'a1', result: { decision: 'cancel' } } },
      turnDone('interrupted'),
    ]);
    expect(part(r, 'call_2')).toMatchObject({ kind: 'bash', title: 'rm -rf /', state: 'error', error: { code: 'denied', message: 'rm -rf /: cancelled by the user' }, metadata: { approval: { state: 'denied', source: 'user', optionId: 'cancel', detail: { decision: 'cancel' } } } });
    expect(eventTypes(r, 'call_2')).toEqual(['tool.started', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
  });

  it('approvals never answered expire at turn end; an error answer expires; with no answer recorded, the item status says it', () => {
    const fc = (id: string, status: string) => ({ type: 'fileChange', id, status, changes: [{ path: '/w/a.ts', kind: { type: 'update' }, diff: '@@ -1 +1 @@\n-a\n+b\n' }] });
    const r = run([
      started(cmd({ id: 'wait' })),
      { id: 1, method: 'item/commandExecution/requestApproval', params: { threadId: 'thr', itemId: 'wait', reason: 'network' } },
      started(fc('err', 'inProgress')),
      { id: 2, method: 'item/fileChange/requestApproval', params: { threadId: 'thr', itemId: 'err' } },
      { dir: 'out', msg: { id: 2, error: { code: -1, message: 'client gone' } } },
      started(fc('ran', 'inProgress')),
      { id: 3, method: 'item/fileChange/requestApproval', params: { threadId: 'thr', itemId: 'ran' } },
      { method: 'serverRequest/resolved', params: { threadId: 'thr', requestId: 3 } },
      completed(fc('ran', 'completed')),
      started(cmd({ id: 'no' })),
      { id: 4, method: 'item/commandExecution/requestApproval', params: { threadId: 'thr', itemId: 'no' } },
      completed(cmd({ id: 'no', status: 'declined' })),
      turnDone('interrupted'),
    ]);
    // While waiting, the part is running with a pending approval: the "waiting for you" state.
    const pending = r.events.find((e) => e.type === 'tool.approval.requested' && e.partId === 'wait') as { approval: unknown };
    expect(pending.approval).toEqual({ state: 'pending', source: 'user', reason: 'network', at: T, detail: { requestId: 1, method: 'item/commandExecution/requestApproval' } });
    expect(part(r, 'wait')).toMatchObject({ state: 'error', error: { code: 'interrupted' }, metadata: { approval: { state: 'expired', reason: 'network', requestedAt: T } } });
    expect(eventTypes(r, 'wait')).toEqual(['tool.started', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
    expect(part(r, 'err').metadata!.approval).toMatchObject({ state: 'expired', detail: { error: 'client gone' } });
    expect(part(r, 'ran')).toMatchObject({ state: 'complete', metadata: { approval: { state: 'approved', detail: { itemStatus: 'completed' } } } });
    expect(part(r, 'no')).toMatchObject({ state: 'error', error: { code: 'denied' }, metadata: { approval: { state: 'denied', detail: { itemStatus: 'declined' } } } });
    // The answer comes before the end it causes.
    expect(eventTypes(r, 'no')).toEqual(['tool.started', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
    for (const id of ['wait', 'err', 'ran', 'no']) expect(eventTypes(r, id).filter((t) => t === 'tool.approval.resolved'), id).toHaveLength(1);
  });

  it('commands carry metadata.command (unwrapped, cwd, exit code) and a search command metadata.search', () => {
    const grep = cmd({ id: 'g', command: "/bin/bash -lc 'rg -n TODO src'", commandActions: [] });
    const r = run([
      { method: 'thread/started', params: { thread: { id: 'thr', cwd: '/w' } } },
      started(cmd()),
      completed(cmd({ status: 'completed', aggregatedOutput: 'x', exitCode: 3 })),
      started(grep),
      completed({ ...grep, status: 'completed', exitCode: 0, aggregatedOutput: '' }),
    ]);
    expect(part(r, 'call_1').metadata).toMatchObject({ command: { command: 'cat /w/src/a.ts', cwd: '/w', exitCode: 3 }, exitCode: 3 });
    const started1 = r.events.find((e) => e.type === 'tool.started' && e.partId === 'call_1') as { metadata: { command: unknown } };
    expect(started1.metadata.command).toEqual({ command: 'cat /w/src/a.ts', cwd: '/w' });
    expect(part(r, 'g').metadata).toMatchObject({ command: { command: 'rg -n TODO src', exitCode: 0 }, search: { pattern: 'TODO', path: '/w/src' } });
    expect(part(r, 'call_1').metadata!.search).toBeUndefined();
  });

  it('without a recorded direction, a response answers a request only when it fits it', () => {
    const r = run([
      started(cmd()),
      { id: 1, method: 'item/commandExecution/requestApproval', params: { threadId: 'thr', itemId: 'call_1' } },
      { id: 1, result: { thread: { id: 'other', cwd: '/x' } } },
      { id: 1, result: { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['cat'] } } } },
      completed(cmd({ status: 'completed', exitCode: 0, aggregatedOutput: '' })),
    ]);
    expect(part(r, 'call_1')).toMatchObject({ state: 'complete', metadata: { approval: { state: 'approved', optionId: 'acceptWithExecpolicyAmendment', detail: { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['cat'] } } } } } });
    // The thread result did not answer the request: exactly one answer was applied.
    expect(eventTypes(r, 'call_1').filter((t) => t === 'tool.approval.resolved')).toHaveLength(1);
  });

  it('file change: patchUpdated refines, paths relative to the thread cwd, diff is the output', () => {
    const fc = (status: string, changes: object[]) => ({ type: 'fileChange', id: 'fc', changes, status });
    const r = run([
      { id: 1, result: { thread: { id: 'thr', cwd: '/w' } } },
      started(fc('inProgress', [{ path: '/w/a.ts', kind: { type: 'update', move_path: null }, diff: '@@ -1 +1 @@\n-a\n+b\n' }])),
      { method: 'item/fileChange/patchUpdated', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'fc', changes: [{ path: '/w/a.ts', kind: { type: 'update', move_path: null }, diff: '@@' }, { path: '/w/n.ts', kind: { type: 'add' }, diff: 'new\n' }] } },
      completed(fc('completed', [{ path: '/w/a.ts', kind: { type: 'update', move_path: null }, diff: '@@ -1 +1 @@\n-a\n+b\n' }, { path: '/w/n.ts', kind: { type: 'add' }, diff: 'new\n' }])),
    ]);
    const events = r.events.filter((e) => e.partId === 'fc');
    // patchUpdated changes the title and the files; the completed item's diff changes the files again.
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.updated', 'tool.updated', 'tool.completed']);
    expect(events[0]).toMatchObject({ title: 'Editing a.ts', kind: 'file_edit' });
    expect(events[1]).toMatchObject({ title: 'Editing a.ts, n.ts' });
    expect(part(r, 'fc')).toMatchObject({ state: 'complete' });
    expect((part(r, 'fc') as { output?: unknown }).output).toEqual({ text: '*** Update File: a.ts\n@@ -1 +1 @@\n-a\n+b\n*** Add File: n.ts\nnew\n', structured: { changes: [{ path: '/w/a.ts', kind: 'update' }, { path: '/w/n.ts', kind: 'add' }] } });
    expect(part(r, 'fc').input).toEqual({ changes: [{ path: '/w/a.ts', kind: 'update' }, { path: '/w/n.ts', kind: 'add' }] });
    expect(part(r, 'fc').metadata!.files).toEqual([
      { path: '/w/a.ts', operation: 'modify', diff: '--- /w/a.ts\n+++ /w/a.ts\n@@ -1 +1 @@\n-a\n+b\n', stats: { added: 1, removed: 1 } },
      { path: '/w/n.ts', operation: 'create', diff: '--- /dev/null\n+++ /w/n.ts\n@@ -0,0 +1 @@\n+new\n', stats: { added: 1, removed: 0 }, oldText: null, newText: 'new\n' },
    ]);
  });

  it('fileChange changes → metadata.files: add with its content, delete with the old content, an update moved, a relative path; rollout 0163 path maps too', () => {
    const r = run([
      { method: 'thread/started', params: { thread: { id: 'thr', cwd: '/w' } } },
      completed({ type: 'fileChange', id: 'fc', status: 'completed', changes: [
        { path: 'new.txt', kind: { type: 'add' }, diff: 'one\ntwo\n' },
        { path: '/w/gone.txt', kind: { type: 'delete' }, diff: 'bye\n' },
        { path: '/w/a.ts', kind: { type: 'update', move_path: '/w/b.ts' }, diff: '@@ -1 +1 @@\n-a\n+b\n' },
      ] }),
    ]);
    expect(part(r, 'fc').metadata!.files).toEqual([
      { path: '/w/new.txt', operation: 'create', oldText: null, newText: 'one\ntwo\n', diff: '--- /dev/null\n+++ /w/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n', stats: { added: 2, removed: 0 } },
      { path: '/w/gone.txt', operation: 'delete', oldText: 'bye\n', newText: null, diff: '--- /w/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n', stats: { added: 0, removed: 1 } },
      { path: '/w/b.ts', from: '/w/a.ts', operation: 'rename', diff: '--- /w/a.ts\n+++ /w/b.ts\n@@ -1 +1 @@\n-a\n+b\n', stats: { added: 1, removed: 1 } },
    ]);
    const rollout = run([
      { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 's', cwd: '/r' } },
      { timestamp: '2026-01-01T00:00:01.000Z', type: 'event_msg', payload: { type: 'item_completed', item: { type: 'FileChange', id: 'p', status: 'completed', changes: { 'x.txt': { type: 'add', content: 'hi\n' }, '/r/y.txt': { type: 'update', unified_diff: '--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-o\n+n\n' } } } } },
    ]);
    expect(part(rollout, 'p').metadata!.files).toMatchObject([
      { path: '/r/x.txt', operation: 'create', newText: 'hi\n' },
      // A diff that has its own file headers is kept as given.
      { path: '/r/y.txt', operation: 'modify', diff: '--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-o\n+n\n', stats: { added: 1, removed: 1 } },
    ]);
  });

  it('interrupted and failed turns end what is still open; the turn plan completes with the turn', () => {
    const r = run([
      { method: 'turn/plan/updated', params: { threadId: 'thr', turnId: 'turn_1', explanation: null, plan: [{ step: 'a', status: 'inProgress' }, { step: 'b', status: 'pending' }] } },
      { method: 'turn/plan/updated', params: { threadId: 'thr', turnId: 'turn_1', explanation: 'a is done', plan: [{ step: 'a', status: 'completed' }, { step: 'b', status: 'inProgress' }] } },
      started(cmd()),
      started({ type: 'webSearch', id: 'ws', query: '', action: null, results: null }),
      turnDone('interrupted'),
      started(cmd({ id: 'call_3' }), T, 'thr2'),
      turnDone('failed', 'thr2', { message: 'context window exceeded', codexErrorInfo: 'contextWindowExceeded' }),
    ]);
    expect(part(r, 'turn_1/plan')).toMatchObject({ name: 'update_plan', kind: 'todo', title: 'Updating plan (1/2 done)', state: 'complete', output: { text: 'a is done\n[x] a\n[~] b' } });
    expect(part(r, 'turn_1/plan').metadata!.plan).toEqual({ explanation: 'a is done', entries: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] });
    expect(part(r, 'call_1')).toMatchObject({ state: 'error', error: { code: 'interrupted', message: 'Reading src/a.ts: the turn was interrupted' } });
    expect(part(r, 'ws')).toMatchObject({ state: 'error', title: 'Searching the web', error: { code: 'interrupted' } });
    expect(part(r, 'call_3')).toMatchObject({ state: 'error', error: { code: 'interrupted', message: 'Reading src/a.ts: stopped because the turn failed (context window exceeded)' } });
  });

  it('a full item list at turn end closes open items with their final state', () => {
    const r = run([
      started(cmd()),
      { method: 'turn/completed', params: { threadId: 'thr', turn: { id: 'turn_1', itemsView: 'full', status: 'completed', items: [cmd({ status: 'completed', exitCode: 0, aggregatedOutput: 'ok' })] } } },
    ]);
    expect(part(r, 'call_1')).toMatchObject({ state: 'complete', output: { text: 'ok' } });
    expect(r.diagnostics).toEqual([]);
  });

  it('MCP: seed browser titles via the shared registry, kind browser, progress, failure', () => {
    const mcp = (id: string, tool: string, over: object = {}) => ({ type: 'mcpToolCall', id, server: 'amalgm', tool, status: 'inProgress', arguments: {}, result: null, error: null, durationMs: null, ...over });
    const r = run([
      started(mcp('s', 'browser_snapshot')),
      { method: 'item/mcpToolCall/progress', params: { threadId: 'thr', turnId: 'turn_1', itemId: 's', message: 'reading' } },
      completed(mcp('s', 'browser_snapshot', { status: 'completed', result: { content: [{ type: 'text', text: 'tree' }], structuredContent: null, _meta: null }, durationMs: 3 })),
      completed(mcp('n', 'browser_navigate', { status: 'completed', arguments: { url: 'https://apnews.com' }, result: { content: [], structuredContent: { ok: true } } })),
      completed({ type: 'mcpToolCall', id: 'f', server: 'db', tool: 'query', status: 'failed', arguments: { sql: 'x' }, result: null, error: { message: 'syntax error' } }),
      completed({ type: 'mcpToolCall', id: 'e', server: 'db', tool: 'query', status: 'completed', arguments: {}, result: { content: [{ type: 'text', text: 'denied by server' }], isError: true } }),
    ]);
    expect(part(r, 's')).toMatchObject({ title: 'Reading browser page', kind: 'browser', name: 'browser_snapshot', output: { text: 'tree' }, timing: { elapsedMs: 3 }, metadata: { mcp: { server: 'amalgm', tool: 'browser_snapshot' } } });
    expect(eventTypes(r, 's')).toEqual(['tool.started', 'tool.progress', 'tool.completed']);
    expect(part(r, 'n')).toMatchObject({ title: 'Opening browser page', kind: 'browser', input: { url: 'https://apnews.com' }, output: { structured: { ok: true } } });
    expect(part(r, 'f')).toMatchObject({ kind: 'mcp', state: 'error', error: { code: 'tool_error', message: 'syntax error' } });
    expect(part(r, 'e')).toMatchObject({ state: 'error', error: { message: 'denied by server' } });
  });

  it('web search: the in-flight title is refined on completion; results are the output; action in metadata', () => {
    const r = run([
      started({ type: 'webSearch', id: 'ws', query: '', action: null, results: null }),
      completed({ type: 'webSearch', id: 'ws', query: 'Reuters top news', action: { type: 'search', query: 'Reuters top news', queries: null }, results: [{ type: 'text_result', title: 'Reuters', url: 'https://reuters.com', snippet: 's' }] }),
    ]);
    const events = r.events.filter((e) => e.partId === 'ws');
    expect(events.map((e) => [e.type, (e as { title?: string }).title])).toEqual([['tool.started', 'Searching the web'], ['tool.updated', 'Searching Reuters top news'], ['tool.completed', undefined]]);
    expect(part(r, 'ws')).toMatchObject({ metadata: { action: { type: 'search', query: 'Reuters top news' } }, output: { text: 'Reuters\nhttps://reuters.com\ns' } });
  });

  it('dynamic tools keep their name; imageView is file_read; plan items are todo; sleep waits', () => {
    const r = run([
      { method: 'thread/started', params: { thread: { id: 'thr', cwd: '/w' } } },
      completed({ type: 'dynamicToolCall', id: 'd', namespace: null, tool: 'lookup_ticket', arguments: { id: 42 }, status: 'completed', contentItems: [{ type: 'inputText', text: 'open' }], success: true, durationMs: 5 }),
      completed({ type: 'dynamicToolCall', id: 'd2', namespace: 'crm', tool: 'lookup_ticket', arguments: {}, status: 'failed', contentItems: [{ type: 'inputText', text: 'no such ticket' }], success: false }),
      completed({ type: 'imageView', id: 'iv', path: '/w/shot.png' }),
      completed({ type: 'plan', id: 'pl', text: '1. do it' }),
      completed({ type: 'sleep', id: 'zz', durationMs: 1500 }),
    ]);
    expect(part(r, 'd')).toMatchObject({ name: 'lookup_ticket', kind: 'mcp', title: 'Lookup ticket (client tool)', input: { id: 42 }, output: { text: 'open' } });
    expect(part(r, 'd2')).toMatchObject({ title: 'Lookup ticket (crm)', state: 'error', error: { message: 'no such ticket' }, metadata: { namespace: 'crm' } });
    expect(part(r, 'iv')).toMatchObject({ kind: 'file_read', title: 'Viewing shot.png', input: { path: '/w/shot.png' } });
    expect(part(r, 'pl')).toMatchObject({ kind: 'todo', output: { text: '1. do it' }, metadata: { plan: { entries: [{ content: 'do it', status: 'pending' }] } } });
    expect(part(r, 'zz')).toMatchObject({ kind: 'bash', title: 'Waiting 1.5s' });
  });

  it('legacy execCommandApproval / applyPatchApproval start the part and take approved / denied / abort', () => {
    const r = run([
      { id: 10, method: 'execCommandApproval', params: { conversationId: 'conv', callId: 'c1', command: ['bash', '-lc', 'make deploy'], cwd: '/w', reason: 'network', parsedCmd: [{ type: 'unknown', cmd: 'make deploy' }] } },
      { id: 10, result: { decision: 'denied' } },
      { id: 11, method: 'applyPatchApproval', params: { conversationId: 'conv', callId: 'p1', fileChanges: { '/w/a.ts': { type: 'update', unified_diff: '@@' } }, reason: null, grantRoot: null } },
      { id: 11, result: { decision: 'approved_for_session' } },
      { id: 12, method: 'mcpServer/elicitation/request', params: { threadId: 'conv', serverName: 'x', message: 'token?' } },
      turnDone('interrupted', 'conv'),
    ]);
    expect(part(r, 'c1')).toMatchObject({ kind: 'bash', title: 'make deploy', input: { command: "bash -lc 'make deploy'", cwd: '/w' }, state: 'error', error: { code: 'denied' }, metadata: { approval: { state: 'denied', optionId: 'denied', reason: 'network', detail: { method: 'execCommandApproval', decision: 'denied' } } } });
    expect(part(r, 'p1')).toMatchObject({ kind: 'file_edit', title: 'Editing /w/a.ts', state: 'error', error: { code: 'interrupted' }, metadata: { approval: { state: 'approved', optionId: 'approved_for_session' } } });
    expect(r.parts).toHaveLength(2);
  });

  it('requestUserInput is a question answered by the client', () => {
    const r = run([
      { id: 3, method: 'item/tool/requestUserInput', params: { threadId: 'thr', turnId: 'turn_1', itemId: 'q1', questions: [{ id: 'a', header: 'Env', question: 'Deploy to prod?' }] } },
      { id: 3, result: { answers: { a: { answers: ['yes'] } } } },
    ]);
    expect(part(r, 'q1')).toMatchObject({ kind: 'question', title: 'Asking: Deploy to prod?', state: 'complete', output: { structured: { answers: { a: { answers: ['yes'] } } } } });
  });

  it('sub-agent threads: own session, linked to the spawning call, also when the link comes late', () => {
    const spawn = (receivers: string[], status: string) => ({ type: 'collabAgentToolCall', id: 'spawn', tool: 'spawnAgent', status, senderThreadId: 'p', receiverThreadIds: receivers, prompt: 'count TODOs', agentsStates: {} });
    const r = run([
      { id: 1, result: { thread: { id: 'p', cwd: '/w' } } },
      started(spawn([], 'inProgress'), T, 'p'),
      started(cmd({ id: 'child_1' }), T, 'c'),
      completed(spawn(['c'], 'completed'), T, 'p'),
      started(cmd({ id: 'child_2' }), T, 'c'),
      completed({ type: 'subAgentActivity', id: 'act', kind: 'started', agentThreadId: 'c2', agentPath: '/root/x' }, T, 'p'),
      started(cmd({ id: 'grandchild' }), T, 'c2'),
    ]);
    expect([...r.sessions.keys()]).toEqual(['p', 'c', 'c2']);
    expect(part(r, 'spawn').metadata).toMatchObject({ childSessionId: 'c' });
    expect(r.sessions.get('c')!.map((p) => [p.id, p.metadata?.parentId, p.metadata?.parentThreadId])).toEqual([['child_1', 'spawn', 'p'], ['child_2', 'spawn', 'p']]);
    expect(part(r, 'grandchild').metadata).toMatchObject({ parentId: 'act', parentThreadId: 'p' });
    // The late link is a metadata-only update of the part already shown.
    expect(r.events.filter((e) => e.partId === 'child_1').map((e) => e.type)).toEqual(['tool.started', 'tool.updated']);
  });

  it('deltas for unknown items and unknown item/* methods are reported, not applied', () => {
    const r = run([
      { method: 'item/commandExecution/outputDelta', params: { threadId: 'thr', turnId: 't', itemId: 'ghost', delta: 'x' } },
      { method: 'item/newThing/delta', params: { threadId: 'thr', itemId: 'x' } },
      { method: 'item/agentMessage/delta', params: { threadId: 'thr', itemId: 'm', delta: 'hi' } },
      { method: 'item/started', params: { threadId: 'thr' } },
      { jsonrpc: '2.0' },
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['orphan_event', 'unknown_event', 'malformed_event', 'malformed_line']);
    expect(r.parts).toEqual([]);
  });
});
