// `codex exec --json` hand cases: one form rule per test.
import { describe, expect, it } from 'vitest';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { eventTypes, part, run } from '../helpers/codex-lines.js';

const item = (type: string, it: object) => ({ type, item: it });
const thread = { type: 'thread.started', thread_id: 'thr_1' };

describe('codex exec --json', () => {
  it('uses the thread id as session and the item id as part id; messages and reasoning make no parts', () => {
    const r = run([
      thread,
      { type: 'turn.started' },
      item('item.completed', { id: 'item_0', type: 'reasoning', text: '**thinking**' }),
      item('item.started', { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: '', exit_code: null, status: 'in_progress' }),
      item('item.completed', { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: 'a\nb\n', exit_code: 0, status: 'completed' }),
      item('item.completed', { id: 'item_2', type: 'agent_message', text: 'done' }),
      item('item.completed', { id: 'item_3', type: 'error', message: 'model rerouted' }),
      { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    ]);
    expect([...r.sessions.keys()]).toEqual(['thr_1']);
    expect(r.parts.map((p) => p.id)).toEqual(['item_1']);
    expect(part(r, 'item_1')).toMatchObject({ name: 'commandExecution', kind: 'bash', title: 'Listing files', state: 'complete', input: { command: 'bash -lc ls' }, output: { text: 'a\nb\n' }, metadata: { provider: 'codex', rawType: 'command_execution', exitCode: 0 } });
    expect(r.diagnostics).toEqual([]);
  });

  it('web search: the first id is the part id, the provider id goes to metadata; the title is refined on completion', () => {
    const r = run([
      thread,
      '{"type":"item.started","item":{"id":"item_5","type":"web_search","id":"ws_06adad","query":"","action":{"type":"other"}}}',
      '{"type":"item.completed","item":{"id":"item_5","type":"web_search","id":"ws_06adad","query":"Reuters top news","action":{"type":"search","query":"Reuters top news"}}}',
    ]);
    expect(r.parts.map((p) => p.id)).toEqual(['item_5']);
    const p = part(r, 'item_5');
    expect(p).toMatchObject({ kind: 'web_search', title: 'Searching Reuters top news', state: 'complete', metadata: { providerItemId: 'ws_06adad', action: { type: 'search', query: 'Reuters top news' } } });
    const events = r.events.filter((e) => e.partId === 'item_5');
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.updated', 'tool.completed']);
    expect(events[0]).toMatchObject({ title: 'Searching the web' });
    expect(events[1]).toMatchObject({ title: 'Searching Reuters top news' });
  });

  it('non-zero exit → exit_nonzero with metadata.exitCode; the output is the error text', () => {
    const r = run([thread, item('item.completed', { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'ls /nope'", aggregated_output: "ls: cannot access '/nope'\n", exit_code: 2, status: 'failed' })]);
    expect(part(r, 'item_1')).toMatchObject({ state: 'error', error: { code: 'exit_nonzero', message: "Exit code 2\nls: cannot access '/nope'" }, metadata: { exitCode: 2 } });
    expect('output' in part(r, 'item_1')).toBe(false);
  });

  it('declined command → denied; failed MCP call → tool_error with its message', () => {
    const r = run([
      thread,
      item('item.completed', { id: 'item_1', type: 'command_execution', command: 'bash -lc "git push --force"', aggregated_output: '', exit_code: null, status: 'declined' }),
      item('item.started', { id: 'item_2', type: 'mcp_tool_call', server: 'github', tool: 'create_issue', arguments: { title: 'x' }, status: 'in_progress' }),
      item('item.completed', { id: 'item_2', type: 'mcp_tool_call', server: 'github', tool: 'create_issue', arguments: { title: 'x' }, result: null, error: { message: '403' }, status: 'failed' }),
    ]);
    expect(part(r, 'item_1')).toMatchObject({ state: 'error', error: { code: 'denied' }, title: 'git push --force' });
    expect(part(r, 'item_2')).toMatchObject({ name: 'create_issue', kind: 'mcp', state: 'error', error: { code: 'tool_error', message: '403' }, input: { title: 'x' }, metadata: { mcp: { server: 'github', tool: 'create_issue' } } });
  });

  it('MCP browser tools: shared registry titles, kind browser, result content and structured_content', () => {
    const r = run([
      thread,
      item('item.completed', { id: 'item_1', type: 'mcp_tool_call', server: 'amalgm', tool: 'browser_snapshot', arguments: {}, result: { content: [{ type: 'text', text: 'tree' }], structured_content: { n: 1 } }, status: 'completed' }),
      item('item.completed', { id: 'item_2', type: 'mcp_tool_call', server: 'amalgm', tool: 'browser_navigate', arguments: { url: 'https://apnews.com' }, result: { content: [] }, status: 'completed' }),
    ]);
    expect(part(r, 'item_1')).toMatchObject({ title: 'Reading browser page', kind: 'browser', output: { text: 'tree', structured: { n: 1 } } });
    expect(part(r, 'item_2')).toMatchObject({ title: 'Opening browser page', kind: 'browser', state: 'complete' });
  });

  it('an item completed while still in progress (interrupted turn) ends interrupted; turn.failed interrupts what is open', () => {
    const r = run([
      thread,
      item('item.started', { id: 'item_1', type: 'command_execution', command: 'bash -lc "npm run build"', aggregated_output: '', status: 'in_progress' }),
      item('item.completed', { id: 'item_1', type: 'command_execution', command: 'bash -lc "npm run build"', aggregated_output: '> build\n', status: 'in_progress' }),
      item('item.started', { id: 'item_2', type: 'command_execution', command: 'bash -lc "sleep 9"', aggregated_output: '', status: 'in_progress' }),
      { type: 'error', message: 'stream disconnected' },
      { type: 'turn.failed', error: { message: 'stream disconnected' } },
    ]);
    expect(part(r, 'item_1')).toMatchObject({ state: 'error', error: { code: 'interrupted' } });
    expect(part(r, 'item_2')).toMatchObject({ state: 'error', error: { code: 'interrupted', message: 'sleep 9: stopped because the turn failed (stream disconnected)' } });
  });

  it('todo_list: started, updated, completed is one todo part', () => {
    const items = (done: boolean) => [{ text: 'List files', completed: done }, { text: 'Write file', completed: false }];
    const r = run([
      thread,
      item('item.started', { id: 'item_1', type: 'todo_list', items: items(false) }),
      item('item.updated', { id: 'item_1', type: 'todo_list', items: items(true) }),
      item('item.completed', { id: 'item_1', type: 'todo_list', items: items(true) }),
    ]);
    expect(r.parts).toHaveLength(1);
    expect(part(r, 'item_1')).toMatchObject({ kind: 'todo', title: 'Updating plan (1/2 done)', state: 'complete', output: { text: '[x] List files\n[ ] Write file' } });
    expect(eventTypes(r, 'item_1')).toEqual(['tool.started', 'tool.updated', 'tool.completed']);
    // The update carries the new plan; the part ends with it.
    const updated = r.events.find((e) => e.type === 'tool.updated') as { metadata?: { plan?: unknown } };
    expect(updated.metadata?.plan).toEqual({ entries: [{ content: 'List files', status: 'completed' }, { content: 'Write file', status: 'pending' }] });
    expect(part(r, 'item_1').metadata!.plan).toEqual(updated.metadata!.plan);
  });

  it('collab_tool_call spawn_agent is a subagent with the child thread as childSessionId', () => {
    const r = run([
      thread,
      item('item.completed', { id: 'item_1', type: 'collab_tool_call', tool: 'spawn_agent', sender_thread_id: 'thr_1', receiver_thread_ids: ['thr_sub'], prompt: 'Review the diff', agents_states: { thr_sub: { status: 'pending_init', message: null } }, status: 'completed' }),
      item('item.completed', { id: 'item_2', type: 'collab_tool_call', tool: 'wait', sender_thread_id: 'thr_1', receiver_thread_ids: ['thr_sub'], agents_states: { thr_sub: { status: 'errored', message: 'crashed' } }, status: 'completed' }),
    ]);
    expect(part(r, 'item_1')).toMatchObject({ name: 'spawnAgent', kind: 'subagent', title: 'Spawning agent: Review the diff', metadata: { childSessionId: 'thr_sub', senderThreadId: 'thr_1' } });
    expect(part(r, 'item_2')).toMatchObject({ name: 'wait', state: 'error', error: { message: 'agent thr_sub errored: crashed' } });
    expect(part(r, 'item_2').metadata?.childSessionId).toBeUndefined();
  });

  it('never throws: bad lines are malformed, unknown tool-like items become unknown parts with one diagnostic', () => {
    const r = run([
      thread,
      'not json',
      '[1,2]',
      '{"type":"item.started"}',
      '{"type":"item.started","item":{"type":"command_execution"}}',
      item('item.started', { id: 'item_9', type: 'future_tool', status: 'in_progress', arguments: { a: 1 } }),
      item('item.completed', { id: 'item_9', type: 'future_tool', status: 'completed', arguments: { a: 1 } }),
      item('item.completed', { id: 'item_8', type: 'future_notice', text: 'hi' }),
      { type: 'thread.archived' },
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['malformed_line', 'malformed_line', 'malformed_line', 'malformed_line', 'unknown_event', 'unknown_event']);
    expect(r.diagnostics.every((d) => d.source?.line !== undefined)).toBe(true);
    expect(r.parts.map((p) => p.id)).toEqual(['item_9']);
    expect(part(r, 'item_9')).toMatchObject({ kind: 'unknown', name: 'futureTool', title: 'Running future tool', input: { a: 1 }, state: 'complete' });
    for (const p of r.parts) expect(validateNormalizedToolPart(p)).toBe(true);
  });

  it('without thread.started the session id comes from options, else from the file name', () => {
    const line = item('item.completed', { id: 'item_1', type: 'web_search', query: 'x' });
    expect([...run([line], { sessionId: 'given' }).sessions.keys()]).toEqual(['given']);
    expect([...run([line], {}, 'logs/run 7.jsonl').sessions.keys()]).toEqual(['codex-run-7']);
    expect([...run([thread, line], { sessionId: 'given' }).sessions.keys()]).toEqual(['thr_1']);
  });

  it('paths in titles are relative to options.cwd', () => {
    const r = run([thread, item('item.completed', { id: 'item_1', type: 'file_change', changes: [{ path: '/w/src/a.ts', kind: 'update' }, { path: '/elsewhere/b.ts', kind: 'update' }], status: 'completed' })], { cwd: '/w' });
    expect(part(r, 'item_1')).toMatchObject({ title: 'Editing src/a.ts, /elsewhere/b.ts', kind: 'file_edit', metadata: { cwd: '/w' }, output: { text: 'M src/a.ts\nM /elsewhere/b.ts' } });
    // exec reports paths and kinds only: the files are known, their diffs are not.
    expect(part(r, 'item_1').metadata!.files).toEqual([{ path: '/w/src/a.ts', operation: 'modify' }, { path: '/elsewhere/b.ts', operation: 'modify' }]);
  });

  it('same bytes, same events', () => {
    const lines = [thread, item('item.completed', { id: 'item_1', type: 'web_search', query: 'x' })];
    expect(run(lines).events).toEqual(run(lines).events);
  });
});
