// Rollout hand cases: Responses API calls paired by call_id, their outputs, and the event records
// Codex writes for the same calls.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { fixturePath } from '../helpers/golden-cases.js';
import { eventTypes, part, run } from '../helpers/codex-lines.js';

let second = 0;
const ts = () => `2026-01-15T10:00:${String(second++ % 60).padStart(2, '0')}.000Z`;
const meta = { timestamp: '2026-01-15T10:00:00.000Z', type: 'session_meta', payload: { id: 'sess', cwd: '/w', cli_version: '0.104.0' } };
const ri = (payload: object) => ({ timestamp: ts(), type: 'response_item', payload });
const ev = (payload: object) => ({ timestamp: ts(), type: 'event_msg', payload });
const call = (name: string, args: object, id: string) => ri({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
const output = (id: string, out: unknown) => ri({ type: 'function_call_output', call_id: id, output: typeof out === 'string' ? out : JSON.stringify(out) });

describe('codex rollouts', () => {
  it('pairs function_call and function_call_output by call_id; session and cwd from session_meta; times from timestamps', () => {
    second = 1;
    const r = run([
      meta,
      call('shell', { command: ['bash', '-lc', 'cat src/a.ts'], workdir: '/w' }, 'c1'),
      ri({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }),
      ri({ type: 'reasoning', summary: [], encrypted_content: 'x' }),
      output('c1', { output: 'export {}\n', metadata: { exit_code: 0, duration_seconds: 0.25 } }),
    ]);
    expect([...r.sessions.keys()]).toEqual(['sess']);
    expect(r.parts).toHaveLength(1);
    expect(part(r, 'c1')).toMatchObject({
      name: 'shell', kind: 'bash', title: 'Reading src/a.ts', state: 'complete',
      input: { command: "bash -lc 'cat src/a.ts'", cwd: '/w' },
      output: { text: 'export {}\n' },
      timing: { startedAt: Date.parse('2026-01-15T10:00:01.000Z'), completedAt: Date.parse('2026-01-15T10:00:04.000Z'), elapsedMs: 250 },
      metadata: { provider: 'codex', rawType: 'function_call', cwd: '/w', exitCode: 0 },
    });
  });

  it('shell outputs: non-zero exit, sandbox failure, user rejection, timeout', () => {
    const r = run([
      meta,
      call('shell', { command: ['bash', '-lc', 'false'] }, 'a'), output('a', { output: 'boom\n', metadata: { exit_code: 1, duration_seconds: 0 } }),
      call('shell', { command: ['bash', '-lc', 'ls ('] }, 'b'), output('b', 'failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: syntax error'),
      call('shell', { command: ['bash', '-lc', 'rm x'] }, 'c'), output('c', 'exec command rejected by user'),
      call('shell', { command: ['bash', '-lc', 'sleep 99'] }, 'd'), output('d', { output: 'command timed out after 10000 milliseconds\n', metadata: { exit_code: 124, duration_seconds: 10 } }),
    ]);
    expect(part(r, 'a')).toMatchObject({ state: 'error', error: { code: 'exit_nonzero', message: 'Exit code 1\nboom' }, metadata: { exitCode: 1 } });
    expect(part(r, 'b')).toMatchObject({ state: 'error', error: { code: 'exit_nonzero' }, metadata: { exitCode: 2 } });
    expect(part(r, 'c')).toMatchObject({ state: 'error', error: { code: 'denied', message: 'exec command rejected by user' } });
    expect(part(r, 'd')).toMatchObject({ state: 'error', error: { code: 'timeout' }, timing: { elapsedMs: 10000 } });
  });

  it('exec_command (0.163 header output) and write_stdin', () => {
    const r = run([
      meta,
      call('exec_command', { cmd: 'npm test', workdir: '/w/pkg', yield_time_ms: 1000 }, 'e'),
      output('e', 'Chunk ID: 1\nWall time: 1.0000 seconds\nProcess running with session ID 7\nOriginal token count: 3\nOutput:\nrunning…\n'),
      call('write_stdin', { session_id: 7, chars: '' }, 'w'),
      output('w', 'Chunk ID: 2\nWall time: 2.5 seconds\nProcess exited with code 0\nOutput:\nok\n'),
    ]);
    expect(part(r, 'e')).toMatchObject({ title: 'npm test', state: 'complete', input: { command: 'npm test', cwd: '/w/pkg', yield_time_ms: 1000 }, output: { text: 'running…\n' }, metadata: { processSession: 7 }, timing: { elapsedMs: 1000 } });
    expect(part(r, 'w')).toMatchObject({ kind: 'bash', title: 'Waiting for session 7', state: 'complete', output: { text: 'ok\n' }, metadata: { exitCode: 0 } });
    // exec_command names its workdir; the process still runs, so no exit code yet.
    expect(part(r, 'e').metadata!.command).toEqual({ command: 'npm test', cwd: '/w/pkg' });
    // write_stdin runs no command of its own (it polls session 7).
    expect(part(r, 'w').metadata!.command).toBeUndefined();
  });

  it('custom_tool_call apply_patch, the heredoc patch inside shell, and local_shell_call', () => {
    const patch = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch\n';
    const r = run([
      meta,
      ri({ type: 'custom_tool_call', call_id: 'p', name: 'apply_patch', input: patch }),
      ri({ type: 'custom_tool_call_output', call_id: 'p', output: 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nM src/app.ts\n' }),
      call('shell', { command: ['bash', '-lc', `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: n.md\n+x\n*** End Patch\nPATCH`] }, 'h'),
      output('h', 'patch rejected by user'),
      ri({ type: 'local_shell_call', id: 'lsh', call_id: null, status: 'completed', action: { type: 'exec', command: ['ls', '-la'], working_directory: '/w', timeout_ms: 5000, env: { SECRET: 'x' } } }),
      output('lsh', { output: 'total 0\n', metadata: { exit_code: 0, duration_seconds: 0 } }),
    ]);
    expect(part(r, 'p')).toMatchObject({ name: 'apply_patch', kind: 'file_edit', title: 'Editing src/app.ts', input: { patch, changes: [{ path: 'src/app.ts', kind: 'update' }] }, state: 'complete', output: { text: '*** Update File: src/app.ts\n@@\n-a\n+b\n', structured: { changes: [{ path: 'src/app.ts', kind: 'update' }] } }, metadata: { exitCode: 0 } });
    expect(part(r, 'h')).toMatchObject({ name: 'shell', kind: 'file_write', title: 'Creating n.md', state: 'error', error: { code: 'denied' } });
    expect(part(r, 'lsh')).toMatchObject({ name: 'local_shell', kind: 'bash', title: 'Listing files', input: { command: 'ls -la', cwd: '/w', timeout_ms: 5000 } });
    expect(JSON.stringify(part(r, 'lsh'))).not.toContain('SECRET');
    // The patches' files, absolute against the session cwd; the denied one says what it would have changed.
    expect(part(r, 'p').metadata!.files).toEqual([{ path: '/w/src/app.ts', operation: 'modify', diff: '--- /w/src/app.ts\n+++ /w/src/app.ts\n@@ -1 +1 @@\n-a\n+b\n', stats: { added: 1, removed: 1 } }]);
    expect(part(r, 'h').metadata!.files).toMatchObject([{ path: '/w/n.md', operation: 'create', oldText: null, newText: 'x\n' }]);
    expect(part(r, 'h').metadata!.command).toBeUndefined();
    expect(part(r, 'lsh').metadata!.command).toEqual({ command: 'ls -la', cwd: '/w', exitCode: 0 });
  });

  it('MCP calls named mcp__<server>__<tool> (or namespaced) and web_search_call in both action casings', () => {
    const r = run([
      meta,
      call('mcp__amalgm__browser_snapshot', {}, 'm1'),
      output('m1', { content: [{ type: 'text', text: 'tree' }], isError: false }),
      ri({ type: 'function_call', name: 'browser_navigate', namespace: 'mcp__amalgm', arguments: '{"url":"https://apnews.com"}', call_id: 'm2' }),
      ri({ type: 'function_call_output', call_id: 'm2', output: [{ type: 'input_text', text: 'ok' }] }),
      call('mcp__amalgm__browser_navigate', {}, 'm2b'),
      output('m2b', [{ type: 'input_text', text: 'also ok' }]),
      call('mcp__github__create_issue', { title: 't' }, 'm3'),
      output('m3', { content: [{ type: 'text', text: '403' }], isError: true }),
      ri({ type: 'web_search_call', id: 'ws1', status: 'completed', action: { type: 'search', query: 'Reuters top news' } }),
      ri({ type: 'web_search_call', id: 'ws2', status: 'completed', action: { type: 'open_page', url: 'https://apnews.com/' } }),
      ri({ type: 'web_search_call', id: 'ws3', status: 'completed', action: { type: 'find_in_page', url: 'https://apnews.com/', pattern: 'Updated' } }),
      ri({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'no id' } }),
    ]);
    expect(part(r, 'm1')).toMatchObject({ name: 'browser_snapshot', kind: 'browser', title: 'Reading browser page', metadata: { mcp: { server: 'amalgm', tool: 'browser_snapshot' } }, output: { text: 'tree' } });
    expect(part(r, 'm2')).toMatchObject({ name: 'browser_navigate', title: 'Opening browser page', input: { url: 'https://apnews.com' }, output: { text: 'ok' } });
    expect(part(r, 'm2b')).toMatchObject({ output: { text: 'also ok' } });
    expect(part(r, 'm3')).toMatchObject({ kind: 'mcp', state: 'error', error: { code: 'tool_error', message: '403' } });
    expect(['ws1', 'ws2', 'ws3'].map((id) => part(r, id).title)).toEqual(['Searching Reuters top news', 'Opening apnews.com', 'Finding "Updated" on apnews.com']);
    expect(part(r, 'ws2').metadata?.action).toEqual({ type: 'openPage', url: 'https://apnews.com/' });
    expect(['ws1', 'ws2', 'ws3'].map((id) => part(r, id).metadata!.search)).toEqual([{ query: 'Reuters top news' }, { path: 'https://apnews.com/' }, { path: 'https://apnews.com/', pattern: 'Updated' }]);
    expect(part(r, 'web_search_call-case.jsonl:13')).toMatchObject({ title: 'Searching no id' });
  });

  it('0.163 item_completed refines the call it belongs to and ends it once; the later output is the same call', () => {
    const r = run([
      meta,
      call('exec_command', { cmd: 'ls /nope' }, 'call_sh1'),
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'call_sh1', command: ['/bin/bash', '-lc', 'ls /nope'], cwd: 'file:///w', parsed_cmd: [{ type: 'list_files', cmd: 'ls /nope', path: '/nope' }], status: 'failed', aggregated_output: 'no such dir\n', exit_code: 2, duration: { secs: 0, nanos: 32000000 } }, started_at_ms: 1000, completed_at_ms: 1032 }),
      output('call_sh1', 'Chunk ID: x\nWall time: 0.03 seconds\nProcess exited with code 2\nOutput:\nno such dir\n'),
      ev({ type: 'item_completed', item: { type: 'WebSearch', id: 'ws', query: 'q', action: { type: 'search', query: 'q' } }, started_at_ms: 2000, completed_at_ms: 2001 }),
      ri({ type: 'web_search_call', id: 'ws', status: 'completed', action: { type: 'search', query: 'q' } }),
    ]);
    expect(r.parts.map((p) => p.id)).toEqual(['call_sh1', 'ws']);
    expect(part(r, 'call_sh1')).toMatchObject({ name: 'exec_command', title: 'Listing /nope', input: { command: 'ls /nope' }, state: 'error', error: { code: 'exit_nonzero' }, timing: { completedAt: 1032, elapsedMs: 32 }, metadata: { rawType: 'function_call', exitCode: 2 } });
    expect(eventTypes(r, 'call_sh1')).toEqual(['tool.started', 'tool.updated', 'tool.failed']);
    expect(eventTypes(r, 'ws')).toEqual(['tool.started', 'tool.completed']);
    expect(r.diagnostics).toEqual([]);
  });

  it('older *_end events do the same (mcp_tool_call_end with a Rust Result)', () => {
    const r = run([
      meta,
      call('mcp__db__query', { sql: 'x' }, 'q'),
      ev({ type: 'mcp_tool_call_end', call_id: 'q', invocation: { server: 'db', tool: 'query', arguments: { sql: 'x' } }, duration: { secs: 1, nanos: 0 }, result: { Err: 'connection refused' } }),
      output('q', 'connection refused'),
    ]);
    expect(part(r, 'q')).toMatchObject({ name: 'query', state: 'error', error: { code: 'tool_error', message: 'connection refused' }, timing: { elapsedMs: 1000 } });
    expect(eventTypes(r, 'q')).toEqual(['tool.started', 'tool.failed']);
  });

  it('turn_aborted interrupts open calls; update_plan is todo; unknown functions are kept with a humane title', () => {
    const r = run([
      meta,
      call('update_plan', { explanation: 'b is next', plan: [{ step: 'a', status: 'completed' }, { step: 'b', status: 'in_progress' }] }, 'plan'),
      output('plan', 'Plan updated'),
      call('shell', { command: ['bash', '-lc', 'sleep 100'] }, 'slow'),
      call('frobnicate_widget', { x: 1 }, 'odd'),
      ev({ type: 'turn_aborted', reason: 'interrupted' }),
      output('slow', 'aborted'),
    ]);
    expect(part(r, 'plan')).toMatchObject({ kind: 'todo', title: 'Updating plan (1/2 done)', output: { text: 'b is next\n[x] a\n[~] b' } });
    expect(part(r, 'plan').metadata!.plan).toEqual({ explanation: 'b is next', entries: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] });
    // No workdir on the call: the session's cwd.
    expect(part(r, 'slow').metadata!.command).toEqual({ command: 'sleep 100', cwd: '/w' });
    expect(part(r, 'slow')).toMatchObject({ state: 'error', error: { code: 'interrupted', message: 'sleep 100: the turn was interrupted' } });
    expect(part(r, 'odd')).toMatchObject({ kind: 'unknown', title: 'Running frobnicate widget', input: { x: 1 }, state: 'error' });
    // The output that arrives after the abort is for a call already ended: reported, not applied.
    expect(r.diagnostics.map((d) => d.code)).toEqual(['late_event']);
  });

  it('spawn_agent output names the child thread', () => {
    const r = run([meta, call('spawn_agent', { message: 'Review the diff' }, 's'), output('s', { agent_id: 'thr_child' })]);
    expect(part(r, 's')).toMatchObject({ kind: 'subagent', title: 'Spawning agent: Review the diff', metadata: { childSessionId: 'thr_child' } });
  });

  it('reports outputs without a call and lines without a payload', () => {
    const r = run([meta, output('nobody', 'x'), { timestamp: ts(), type: 'response_item' }, ri({ type: 'function_call_output', output: 'x' })]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['orphan_result', 'malformed_line', 'orphan_result']);
    expect(r.parts).toEqual([]);
  });
});

describe('concatenated rollouts', () => {
  it('each session_meta starts its own session; the same call id in two sessions is two parts', () => {
    const other = { ...meta, payload: { id: 'sess2', cwd: '/v' } };
    const r = run([meta, call('shell', { command: ['ls'] }, 'c'), output('c', 'x'), other, call('shell', { command: ['ls'] }, 'c'), output('c', 'y')]);
    expect([...r.sessions.keys()]).toEqual(['sess', 'sess2']);
    expect(r.sessions.get('sess2')![0]).toMatchObject({ id: 'c', output: { text: 'y' }, metadata: { cwd: '/v' } });
  });
});

describe('the same calls recorded twice', () => {
  it('an app-server trace and the rollout of the same thread give one part per call, quietly', () => {
    const text = (f: string) => readFileSync(fixturePath(`codex/${f.replace(/\.jsonl$/, '')}`, f), 'utf8');
    const both = collect(codexAdapter, [{ name: 'appserver-tools.jsonl', text: text('appserver-tools.jsonl') }, { name: 'rollout-0163-probe.jsonl', text: text('rollout-0163-probe.jsonl') }]);
    expect(both.diagnostics).toEqual([]);
    const ids = both.parts.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The rollout adds only the calls the app-server trace had no item for (update_plan).
    expect(ids.filter((id) => id.startsWith('call_plan'))).toEqual(['call_plan1', 'call_plan2']);
    expect(ids).toContain('call_sh1');
  });
});
