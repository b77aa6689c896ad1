// Each input form and correlation rule on small hand-written cases.
import { describe, expect, it } from 'vitest';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { SID, byId, err, init, meta, out, resultMsg, run, useMsg } from '../helpers/claude-lines.js';

describe('stream-json / SDK messages', () => {
  it('joins tool_use and tool_result by id, in completion order, with line timestamps', () => {
    const r = run([
      init(),
      { ...useMsg('t1', 'Grep', { pattern: 'x' }), timestamp: '2026-01-01T00:00:01.000Z' },
      { ...useMsg('t2', 'Glob', { pattern: '*.ts' }), timestamp: '2026-01-01T00:00:01.100Z' },
      { ...resultMsg('t2', 'a.ts', { structured: { filenames: ['a.ts'], numFiles: 1 } }), timestamp: '2026-01-01T00:00:01.500Z' },
      { ...resultMsg('t1', 'a.ts:1:x'), timestamp: '2026-01-01T00:00:02.000Z' },
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(r.parts.map((p) => [p.id, p.state])).toEqual([['t1', 'complete'], ['t2', 'complete']]);
    const t1 = byId(r.parts, 't1');
    expect(t1.timing).toEqual({ startedAt: Date.parse('2026-01-01T00:00:01.000Z'), completedAt: Date.parse('2026-01-01T00:00:02.000Z'), elapsedMs: 1000 });
    expect(out(byId(r.parts, 't2'))).toEqual({ text: 'a.ts', structured: { filenames: ['a.ts'], numFiles: 1 } });
    expect(meta(t1)).toMatchObject({ provider: 'claude', rawType: 'tool_use:Grep', cwd: '/repo' });
    for (const p of r.parts) expect(validateNormalizedToolPart(p)).toBe(true);
  });

  it('produces no parts and no diagnostics for text, thinking and bookkeeping', () => {
    const r = run([
      init(),
      { type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'hi' }, { type: 'thinking', thinking: '', signature: 's' }] }, session_id: SID, uuid: 'a1' },
      { type: 'user', message: { role: 'user', content: 'plain prompt' }, session_id: SID, uuid: 'a2' },
      { type: 'system', subtype: 'status', status: 'requesting', session_id: SID },
      { type: 'rate_limit_event', rate_limit_info: {}, session_id: SID },
      { type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: SID },
    ]);
    expect(r.parts).toEqual([]);
    expect(r.events).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('de-duplicates repeated assistant frames by uuid, not by message id', () => {
    const a = useMsg('t1', 'Bash', { command: 'ls' }, { uuid: 'same' });
    const b = { ...useMsg('t2', 'Bash', { command: 'pwd' }), message: { ...useMsg('t2', 'Bash', { command: 'pwd' }).message, id: 'msg-t1' } };
    const r = run([init(), a, a, b, resultMsg('t1', 'x'), resultMsg('t2', 'y')]);
    expect(r.parts.map((p) => p.id)).toEqual(['t1', 't2']);
    expect(r.events.filter((e) => e.type === 'tool.started')).toHaveLength(2);
    expect(r.diagnostics).toEqual([]);
    // A repeated frame is skipped whole: its orphan result is reported once, not twice.
    const orphan = resultMsg('ghost', 'x', { extra: { uuid: 'dup' } });
    expect(run([init(), orphan, orphan]).diagnostics.map((d) => d.code)).toEqual(['orphan_result']);
    // Each orphan of a repeated two-result frame is reported once.
    const two = { ...orphan, uuid: 'dup2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'g1', content: 'x' }, { type: 'tool_result', tool_use_id: 'g2', content: 'y' }] } };
    expect(run([init(), two, two]).diagnostics.map((d) => d.partId)).toEqual(['g1', 'g2']);
    // A frame repeated after its call completed changes nothing and reports nothing (no late event).
    const late = run([init(), a, resultMsg('t1', 'x'), a, resultMsg('t1', 'x', { extra: { uuid: 'r-again' } })]);
    expect(late.events.map((e) => e.type)).toEqual(['tool.started', 'tool.completed']);
    expect(late.diagnostics).toEqual([]);
  });

  it('keeps the structured result and moves image data out', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000004', 'hex').toString('base64').repeat(4);
    const r = run([
      init(),
      useMsg('t1', 'Read', { file_path: '/repo/red.png' }),
      resultMsg('t1', [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }], { structured: { type: 'image', file: { base64: png, type: 'image/png', originalSize: 80 } } }),
    ]);
    const p = byId(r.parts, 't1');
    const o = out(p)!;
    expect(o.content).toEqual([{ type: 'image', mediaType: 'image/png', bytes: Buffer.from(png, 'base64').length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(JSON.stringify(p)).not.toContain(png);
    expect((o.structured as { file: { base64: string; originalSize: number } }).file).toMatchObject({ base64: `[omitted by toolnorm: ${png.length} bytes]`, originalSize: 80 });
    expect((meta(p).truncated as { path: string }[]).map((n) => n.path)).toEqual(['/output/content/0', '/output/structured/file/base64']);
    expect(validateNormalizedToolPart(p)).toBe(true);
  });

  it('keeps Edit structuredPatch and strips model-facing reminders from text', () => {
    const patch = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }];
    const r = run([
      init(),
      useMsg('t1', 'Edit', { file_path: '/repo/f', old_string: 'a', new_string: 'b' }),
      resultMsg('t1', 'The file /repo/f has been updated.\n\n<system-reminder>\nnote for the model\n</system-reminder>\n', { structured: { filePath: '/repo/f', structuredPatch: patch } }),
    ]);
    expect(out(byId(r.parts, 't1'))).toEqual({ text: 'The file /repo/f has been updated.', structured: { filePath: '/repo/f', structuredPatch: patch } });
  });

  it('reports a result without its call, and malformed lines, without crashing', () => {
    const r = run([init(), 'not json', '[1,2]', '{"no":"type"}', resultMsg('ghost', 'x'), { type: 'brand_new', tool_use_id: 't9', session_id: SID }]);
    expect(r.parts).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['malformed_line', 'malformed_line', 'malformed_line', 'orphan_result', 'unknown_event']);
    expect(r.diagnostics.every((d) => d.source?.line !== undefined)).toBe(true);
  });

  it('is deterministic and falls back to a session id from the file name', () => {
    const lines = [useMsg('t1', 'Bash', { command: 'ls' }, { session_id: undefined }), resultMsg('t1', 'x', { extra: { session_id: undefined } })];
    const a = run([{ name: 'logs/my-run.jsonl', lines }]);
    const b = run([{ name: 'logs/my-run.jsonl', lines }]);
    expect(a.events).toEqual(b.events);
    expect([...a.sessions.keys()]).toEqual(['claude-my-run']);
    expect([...run([{ name: 'x.jsonl', lines }], { sessionId: 'given' }).sessions.keys()]).toEqual(['given']);
  });
});

describe('errors', () => {
  const fail = (name: string, input: unknown, content: string, opts: Parameters<typeof resultMsg>[2] = {}, before: object[] = []) => {
    const r = run([init(), useMsg('t1', name, input), ...before, resultMsg('t1', content, { isError: true, ...opts })]);
    const p = byId(r.parts, 't1');
    expect(p.state).toBe('error');
    return p;
  };

  it('strips <tool_use_error> and names the code', () => {
    expect(err(fail('Edit', {}, '<tool_use_error>String to replace not found in file.\nString: X</tool_use_error>', { structured: 'Error: String to replace not found in file.\nString: X' }))).toEqual({ message: 'String to replace not found in file.\nString: X', code: 'tool_error' });
    expect(err(fail('Read', {}, '<tool_use_error>Sibling tool call errored</tool_use_error>'))!.code).toBe('cancelled');
    expect(err(fail('TodoWrite', {}, '<tool_use_error>Error: No such tool available: TodoWrite</tool_use_error>'))!.code).toBe('unknown_tool');
    expect(err(fail('Task', {}, '<tool_use_error>InputValidationError: Task failed</tool_use_error>'))!.code).toBe('invalid_input');
  });

  it('gives Bash exit codes exit_nonzero with metadata.exitCode', () => {
    const p = fail('Bash', { command: 'exit 3' }, 'Exit code 3\nto-stderr', { structured: 'Error: Exit code 3\nto-stderr' });
    expect(err(p)).toEqual({ message: 'Exit code 3\nto-stderr', code: 'exit_nonzero' });
    expect(meta(p).exitCode).toBe(3);
    // Not a shell tool: the same text is just a tool error.
    expect(err(fail('Read', {}, 'Exit code 3'))!.code).toBe('tool_error');
  });

  it('gives permission denials and user rejections the code denied', () => {
    const denied = fail('WebFetch', { url: 'http://x' }, 'Claude requested permissions to use WebFetch, but you haven\'t granted it yet.', {
      extra: { tool_result_meta: [{ id: 't1', non_execution_kind: 'user-rejected', permission_decision: { decision: 'reject', source: 'config' } }] },
    }, [{ type: 'system', subtype: 'permission_denied', tool_name: 'WebFetch', tool_use_id: 't1', message: 'Claude requested permissions to use WebFetch, but you haven\'t granted it yet.', session_id: SID }]);
    expect(err(denied)!.code).toBe('denied');
    // system/permission_denied answers first (no decision_reason_type, nobody asked: policy); the result's reject repeats it.
    expect(meta(denied).approval).toMatchObject({ state: 'denied', source: 'policy', reason: expect.stringContaining('WebFetch') });
    const rejected = fail('Edit', {}, 'The user doesn\'t want to proceed with this tool use. The tool use was rejected.', { structured: 'User rejected tool use' });
    expect(err(rejected)!.code).toBe('denied');
    // Known from its text only: still a typed, answered approval, a person's.
    expect(meta(rejected).approval).toMatchObject({ state: 'denied', source: 'user' });
    // The permission_denied message alone decides, whatever the text.
    expect(err(fail('Bash', {}, 'blocked', {}, [{ type: 'system', subtype: 'permission_denied', tool_use_id: 't1', message: 'no', session_id: SID }]))!.code).toBe('denied');
    // Transcript form: toolDenialKind on the result line.
    expect(err(fail('Bash', {}, 'rejected', { extra: { toolDenialKind: 'user-rejected' } }))!.code).toBe('denied');
  });

  it('keeps the structured failure when it says more than the message', () => {
    const p = fail('Task', {}, '<tool_use_error>InputValidationError: prompt missing</tool_use_error>', { structured: 'InputValidationError: [{"path":["prompt"]}]' });
    expect(err(p)!.details).toEqual({ toolUseResult: 'InputValidationError: [{"path":["prompt"]}]' });
  });
});

describe('retracted frames', () => {
  it('cancels the open calls of a frame that a later message supersedes or a refusal retracts', () => {
    const r = run([
      init(),
      useMsg('t1', 'Bash', { command: 'rm -rf build' }, { uuid: 'frame-1' }),
      useMsg('t2', 'Read', { file_path: '/repo/a' }, { uuid: 'frame-2' }),
      resultMsg('t2', 'x'),
      { ...useMsg('t3', 'Bash', { command: 'ls' }), supersedes: ['frame-1', 'frame-2'] },
      useMsg('t4', 'Glob', { pattern: '*' }, { uuid: 'frame-4' }),
      { type: 'system', subtype: 'model_refusal_fallback', original_model: 'a', fallback_model: 'b', retracted_message_uuids: ['frame-4'], session_id: SID },
    ]);
    expect(byId(r.parts, 't1')).toMatchObject({ state: 'error', error: { code: 'cancelled' } });
    expect(byId(r.parts, 't2').state).toBe('complete');
    expect(byId(r.parts, 't3').state).toBe('started');
    expect(byId(r.parts, 't4')).toMatchObject({ state: 'error', error: { code: 'cancelled', message: expect.stringContaining('refusal') } });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('partial messages', () => {
  const ev = (event: unknown, extra: Record<string, unknown> = {}) => ({ type: 'stream_event', event, parent_tool_use_id: null, session_id: SID, uuid: `se-${JSON.stringify(event).length}-${Math.random()}`, api_message_id: 'msg_1', ...extra });

  it('starts the part at content_block_start, streams the input, then sets the final input', () => {
    const full = { command: 'echo hi', description: 'Say hi' };
    const json = JSON.stringify(full);
    const r = run([
      init(),
      ev({ type: 'message_start', message: { id: 'msg_1' } }),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'Bash', input: {} } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json.slice(0, 10) } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json.slice(10) } }),
      { ...useMsg('t1', 'Bash', full), message: { id: 'msg_1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: full }] } },
      ev({ type: 'content_block_stop', index: 0 }),
      resultMsg('t1', 'hi', { isError: false }),
    ]);
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.input.delta', 'tool.input.delta', 'tool.updated', 'tool.completed']);
    expect(r.events[0]).toMatchObject({ name: 'Bash', title: 'Running command', input: {} });
    expect(r.events.slice(1, 3).map((e) => (e as { delta: string }).delta).join('')).toBe(json);
    // The command makes the title; the model's description goes beside it in metadata.command.
    expect(r.events[3]).toMatchObject({ input: full, title: 'echo hi', metadata: { command: { command: 'echo hi', description: 'Say hi' } } });
    expect(byId(r.parts, 't1')).toMatchObject({ state: 'complete', title: 'echo hi', input: full });
  });

  it('re-splits a streamed MCP name when the complete frame brings tool_use_meta', () => {
    const r = run([
      init(),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'm1', name: 'mcp__a__b__c', input: {} } }),
      { ...useMsg('m1', 'mcp__a__b__c', { x: 1 }), tool_use_meta: [{ id: 'm1', display_name: 'C', server_display_name: 'a', tool_name: 'b__c' }] },
    ]);
    expect(byId(r.parts, 'm1')).toMatchObject({ name: 'b__c', metadata: { mcp: { server: 'a', tool: 'b__c' } }, input: { x: 1 } });
  });

  it('uses the streamed fragments as the input when no complete frame follows', () => {
    const r = run([
      init(),
      ev({ type: 'message_start', message: { id: 'msg_2' } }, { api_message_id: undefined }),
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't2', name: 'Read', input: {} } }, { api_message_id: undefined }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file_path":"/repo/a' } }, { api_message_id: undefined }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '.ts"}' } }, { api_message_id: undefined }),
      ev({ type: 'content_block_stop', index: 1 }, { api_message_id: undefined }),
    ]);
    expect(byId(r.parts, 't2')).toMatchObject({ state: 'started', title: 'Reading a.ts', input: { file_path: '/repo/a.ts' } });
  });
});

describe('progress and tasks', () => {
  it('marks the part running on tool_progress; a heartbeat points at the tool itself', () => {
    const r = run([
      init(),
      { ...useMsg('t1', 'Bash', { command: 'sleep 36', description: 'Long sleep' }), timestamp: '2026-01-01T00:00:00.000Z' },
      { type: 'tool_progress', tool_use_id: 't1-heartbeat-0', tool_name: 'Bash', parent_tool_use_id: 't1', elapsed_time_seconds: 30, heartbeat: true, session_id: SID },
    ]);
    const p = byId(r.parts, 't1');
    expect(p.state).toBe('running');
    expect(meta(p).parentId).toBeUndefined();
    expect(r.parts).toHaveLength(1);
    const progress = r.events.find((e) => e.type === 'tool.progress')!;
    expect(progress).toMatchObject({ partId: 't1', elapsedMs: 30000, at: Date.parse('2026-01-01T00:00:30.000Z') });
  });

  it('a plain tool_progress keeps its own id (parent_tool_use_id is a subagent parent there)', () => {
    const r = run([init(), useMsg('task', 'Task', { description: 'D', prompt: 'P' }), useMsg('c1', 'Bash', { command: 'ls' }, { parent_tool_use_id: 'task' }), { type: 'tool_progress', tool_use_id: 'c1', tool_name: 'Bash', parent_tool_use_id: 'task', elapsed_time_seconds: 2, session_id: SID }]);
    expect(byId(r.parts, 'c1').state).toBe('running');
    expect(byId(r.parts, 'task').state).toBe('started');
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('task');
  });

  it('task_* messages only enrich metadata.task of the Task part', () => {
    const r = run([
      init(),
      useMsg('T', 'Agent', { description: 'Inspect files', prompt: 'P', subagent_type: 'general-purpose' }),
      { type: 'system', subtype: 'task_started', task_id: 'A1', tool_use_id: 'T', description: 'Inspect files', subagent_type: 'general-purpose', task_type: 'local_agent', is_backgrounded: false, prompt: 'P', session_id: SID },
      { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'P' }] }, parent_tool_use_id: 'T', agent_id: 'A1', session_id: SID, uuid: 'x1' },
      { type: 'system', subtype: 'task_progress', task_id: 'A1', tool_use_id: 'T', description: 'Running ls', usage: { total_tokens: 5, tool_uses: 1, duration_ms: 3 }, last_tool_name: 'Bash', session_id: SID },
      useMsg('c1', 'Bash', { command: 'ls' }, { parent_tool_use_id: 'T', agent_id: 'A1' }),
      resultMsg('c1', 'a', { extra: { parent_tool_use_id: 'T' } }),
      { type: 'system', subtype: 'task_updated', task_id: 'A1', patch: { status: 'completed', end_time: 5 }, session_id: SID },
      { type: 'system', subtype: 'task_notification', task_id: 'A1', tool_use_id: 'T', status: 'completed', output_file: '', summary: 'Report', session_id: SID },
      resultMsg('T', [{ type: 'text', text: '[Subagent hand-back] … Report …' }], { structured: { status: 'completed', agentId: 'A1', content: [{ type: 'text', text: 'Report' }], totalDurationMs: 42 } }),
    ]);
    expect(r.parts.map((p) => p.id)).toEqual(['T', 'c1']);
    const T = byId(r.parts, 'T');
    expect(meta(T).task).toEqual({ taskId: 'A1', type: 'local_agent', description: 'Inspect files', subagentType: 'general-purpose', backgrounded: false, status: 'completed', progress: 'Running ls', usage: { total_tokens: 5, tool_uses: 1, duration_ms: 3 }, lastToolName: 'Bash', endTime: 5, summary: 'Report' });
    expect(meta(T).childSessionId).toBe('A1');
    expect(out(T)!.text).toBe('Report');
    expect(T.timing?.elapsedMs).toBe(42);
    expect(meta(byId(r.parts, 'c1'))).toMatchObject({ parentId: 'T', agentId: 'A1' });
    // task events never change state: only tool.updated
    const taskEvents = r.events.filter((e) => e.partId === 'T' && e.type !== 'tool.started' && e.type !== 'tool.completed');
    expect(new Set(taskEvents.map((e) => e.type))).toEqual(new Set(['tool.updated']));
  });

  it('enriches a background Bash after its result and uses the task description in BashOutput titles', () => {
    const r = run([
      init(),
      useMsg('b', 'Bash', { command: 'sleep 1', description: 'Run in background', run_in_background: true }),
      { type: 'system', subtype: 'task_started', task_id: 'bg1', tool_use_id: 'b', description: 'Run in background', task_type: 'local_bash', is_backgrounded: true, session_id: SID },
      resultMsg('b', 'Command running in background with ID: bg1.', { structured: { stdout: '', backgroundTaskId: 'bg1' } }),
      useMsg('o', 'BashOutput', { bash_id: 'bg1' }),
      { type: 'system', subtype: 'task_updated', task_id: 'bg1', patch: { status: 'completed' }, session_id: SID },
      { type: 'system', subtype: 'task_notification', task_id: 'bg1', tool_use_id: 'b', status: 'completed', summary: 'Background command "Run in background" completed (exit code 0)', session_id: SID },
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(meta(byId(r.parts, 'b')).task).toMatchObject({ taskId: 'bg1', type: 'local_bash', backgrounded: true, status: 'completed', summary: expect.stringContaining('exit code 0') });
    expect(byId(r.parts, 'b').state).toBe('complete');
    expect(byId(r.parts, 'o').title).toBe('Reading output of "Run in background"');
  });

  it('titles BashOutput by the background shell\'s description without task_* lines too (a transcript has none)', () => {
    const lines = (withTask: boolean) => [
      init(),
      useMsg('b', 'Bash', { command: 'while true; do date; sleep 1; done', description: 'Background ticker', run_in_background: true }),
      ...(withTask ? [{ type: 'system', subtype: 'task_started', task_id: 'b1ac2wu73', tool_use_id: 'b', description: 'Background ticker', task_type: 'local_bash', is_backgrounded: true, session_id: SID }] : []),
      resultMsg('b', 'Command running in background with ID: b1ac2wu73. Output is being written to: /tmp/x.output', withTask ? { structured: { stdout: '', backgroundTaskId: 'b1ac2wu73' } } : {}),
      useMsg('o', 'TaskOutput', { task_id: 'b1ac2wu73' }),
      useMsg('k', 'KillShell', { shell_id: 'b1ac2wu73' }),
    ];
    for (const withTask of [true, false]) {
      const r = run(lines(withTask));
      expect(byId(r.parts, 'o').title, `task lines: ${withTask}`).toBe('Reading output of "Background ticker"');
      expect(byId(r.parts, 'k').title, `task lines: ${withTask}`).toBe('Stopping "Background ticker"');
    }
  });

  it('task_completed enriches the Task part like its siblings (metadata.task only, no state change)', () => {
    const r = run([
      init(),
      useMsg('T', 'Agent', { description: 'Inspect files', prompt: 'look', subagent_type: 'general-purpose' }),
      { type: 'system', subtype: 'task_started', task_id: 'A9', tool_use_id: 'T', description: 'Inspect files', task_type: 'local_agent', session_id: SID },
      { type: 'system', subtype: 'task_completed', task_id: 'A9', tool_use_id: 'T', summary: 'Found 2 files', usage: { total_tokens: 9 }, session_id: SID },
      resultMsg('T', 'Report'),
    ]);
    expect(r.diagnostics).toEqual([]);
    const T = byId(r.parts, 'T');
    expect(meta(T).task).toMatchObject({ taskId: 'A9', type: 'local_agent', status: 'completed', summary: 'Found 2 files', usage: { total_tokens: 9 } });
    const taskEvents = r.events.filter((e) => e.partId === 'T' && e.type !== 'tool.started' && e.type !== 'tool.completed');
    expect(new Set(taskEvents.map((e) => e.type))).toEqual(new Set(['tool.updated']));
  });

  it('streams Bash output from transcript bash_progress lines', () => {
    const r = run([
      { type: 'assistant', sessionId: SID, cwd: '/repo', parentUuid: null, isSidechain: false, uuid: 'a', timestamp: '2026-01-01T00:00:00Z', message: { id: 'm', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }] } },
      { type: 'progress', sessionId: SID, parentToolUseID: 't1', toolUseID: 'bash-progress-0', timestamp: '2026-01-01T00:00:01Z', data: { type: 'bash_progress', output: 'a\n', fullOutput: 'a\n', elapsedTimeSeconds: 1 } },
      { type: 'progress', sessionId: SID, parentToolUseID: 't1', toolUseID: 'bash-progress-1', timestamp: '2026-01-01T00:00:02Z', data: { type: 'bash_progress', output: 'b\n', fullOutput: 'a\nb\n', elapsedTimeSeconds: 2 } },
      { type: 'progress', sessionId: SID, parentToolUseID: 't1', toolUseID: 't1', timestamp: '2026-01-01T00:00:02Z', data: { type: 'hook_progress', hookEvent: 'PostToolUse' } },
    ]);
    expect(r.events.filter((e) => e.type === 'tool.progress').map((e) => (e as { outputDelta?: string }).outputDelta)).toEqual(['a\n', 'b\n']);
    expect(byId(r.parts, 't1').state).toBe('running');
  });
});

describe('MCP', () => {
  it('names MCP calls by tool, with metadata.mcp, splitting with the init server list', () => {
    const r = run([
      init({ mcp_servers: [{ name: 'my__srv', status: 'connected' }] }),
      useMsg('t1', 'mcp__my__srv__list_items', { q: 1 }),
      useMsg('t2', 'mcp__amalgm__artifacts_register', { name: 'Spotify Clone' }),
      resultMsg('t1', [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }], { structured: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }),
      resultMsg('t2', 'probe failure', { isError: true, structured: 'Error: probe failure' }),
    ]);
    expect(byId(r.parts, 't1')).toMatchObject({ name: 'list_items', kind: 'mcp', title: 'List items (my__srv)', metadata: { mcp: { server: 'my__srv', tool: 'list_items' }, rawType: 'tool_use:mcp__my__srv__list_items' } });
    expect(out(byId(r.parts, 't1'))).toMatchObject({ text: 'one\ntwo' });
    expect(byId(r.parts, 't2')).toMatchObject({ name: 'artifacts_register', title: 'Registering artifact Spotify Clone', state: 'error', error: { message: 'probe failure', code: 'tool_error' } });
  });

  it('uses tool_use_meta to split names when the server list is unknown', () => {
    const line = { ...useMsg('t1', 'mcp__a__b__c', {}), tool_use_meta: [{ id: 't1', display_name: 'C', server_display_name: 'a', tool_name: 'b__c' }] };
    expect(meta(byId(run([line]).parts, 't1')).mcp).toEqual({ server: 'a', tool: 'b__c' });
  });
});

describe('transcripts and subagents', () => {
  const tline = (type: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}) => ({ type, sessionId: SID, cwd: '/repo', version: '2.1.39', isSidechain: false, message: { role: type, content }, ...extra });

  it('reads camelCase transcript envelopes (toolUseResult, permissionDecision)', () => {
    const r = run([
      tline('assistant', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/repo/a.ts' } }], { uuid: 'a1', parentUuid: null, timestamp: '2026-01-01T00:00:00Z' }),
      tline('user', [{ tool_use_id: 't1', type: 'tool_result', content: '1\tx' }], { uuid: 'u1', parentUuid: 'a1', timestamp: '2026-01-01T00:00:01Z', toolUseResult: { type: 'text', file: { filePath: '/repo/a.ts', content: 'x' } }, permissionDecision: { decision: 'accept', source: 'config', reasonType: 'rule', ruleSource: 'cliArg' } }),
    ]);
    const p = byId(r.parts, 't1');
    expect(p).toMatchObject({ title: 'Reading a.ts', state: 'complete', output: { text: '1\tx', structured: { type: 'text', file: { filePath: '/repo/a.ts', content: 'x' } } } });
    expect(meta(p).approval).toEqual({ state: 'approved', source: 'policy', at: Date.parse('2026-01-01T00:00:01Z'), detail: { decision: 'accept', decider: 'config', reasonType: 'rule', ruleSource: 'cliArg' } });
  });

  it('links 1.0.x inline sidechains to their Task by prompt and parentUuid chain', () => {
    const r = run([
      tline('assistant', [{ type: 'tool_use', id: 'TA', name: 'Task', input: { description: 'A', prompt: 'Do A' } }], { uuid: 'm1', parentUuid: null }),
      tline('assistant', [{ type: 'tool_use', id: 'TB', name: 'Task', input: { description: 'B', prompt: 'Do B' } }], { uuid: 'm2', parentUuid: 'm1' }),
      tline('user', 'Do B', { uuid: 's1', parentUuid: null, isSidechain: true }),
      tline('assistant', [{ type: 'tool_use', id: 'c1', name: 'Glob', input: { pattern: '*' } }], { uuid: 's2', parentUuid: 's1', isSidechain: true }),
      tline('user', [{ type: 'tool_result', tool_use_id: 'c1', content: 'x' }], { uuid: 's3', parentUuid: 's2', isSidechain: true }),
      tline('user', 'Do A', { uuid: 's4', parentUuid: null, isSidechain: true }),
      tline('assistant', [{ type: 'tool_use', id: 'c2', name: 'Read', input: { file_path: '/repo/x' } }], { uuid: 's5', parentUuid: 's4', isSidechain: true }),
    ]);
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('TB');
    expect(meta(byId(r.parts, 'c2')).parentId).toBe('TA');
    expect(meta(byId(r.parts, 'TA')).parentId).toBeUndefined();
  });

  const main = [
    tline('assistant', [{ type: 'tool_use', id: 'T', name: 'Agent', input: { description: 'Inspect', prompt: 'SUB' } }], { uuid: 'm1', parentUuid: null }),
    tline('user', [{ type: 'tool_result', tool_use_id: 'T', content: [{ type: 'text', text: 'done' }] }], { uuid: 'm2', parentUuid: 'm1', toolUseResult: { status: 'completed', agentId: 'abc', content: [{ type: 'text', text: 'done' }] } }),
  ];
  const sub = [
    tline('user', 'SUB', { uuid: 's1', parentUuid: null, isSidechain: true, agentId: 'abc' }),
    tline('assistant', [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'ls' } }], { uuid: 's2', parentUuid: 's1', isSidechain: true, agentId: 'abc' }),
    tline('user', [{ type: 'tool_result', tool_use_id: 'c1', content: 'a' }], { uuid: 's3', parentUuid: 's2', isSidechain: true, agentId: 'abc' }),
  ];
  const metaJson = { agentType: 'general-purpose', description: 'Inspect', toolUseId: 'T', spawnDepth: 1 };

  it('links subagents/agent-*.jsonl files: main file first', () => {
    const r = run([{ name: 'S.jsonl', lines: main }, { name: 'S/subagents/agent-abc.jsonl', lines: sub }]);
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('T');
    expect(meta(byId(r.parts, 'T')).childSessionId).toBe('abc');
    expect(r.diagnostics).toEqual([]);
  });

  it('links subagent files given before the session file', () => {
    const r = run([{ name: 'S/subagents/agent-abc.jsonl', lines: sub }, { name: 'S.jsonl', lines: main }]);
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('T');
    expect(r.diagnostics).toEqual([]);
  });

  it('uses agent-<id>.meta.json when the Task result carries no agentId', () => {
    const bare = [main[0], tline('user', [{ type: 'tool_result', tool_use_id: 'T', content: 'done' }], { uuid: 'm2', parentUuid: 'm1' })];
    // The sidechain root text does not match the prompt here, so only the meta file links them.
    const subOther = [{ ...sub[0], message: { role: 'user', content: 'something else' } }, ...sub.slice(1)];
    const without = run([{ name: 'S.jsonl', lines: bare }, { name: 'S/subagents/agent-abc.jsonl', lines: subOther }]);
    expect(meta(byId(without.parts, 'c1')).parentId).toBeUndefined();
    expect(without.diagnostics.map((d) => d.code)).toEqual(['unlinked_subagent']);
    const r = run([{ name: 'S.jsonl', lines: bare }, { name: 'S/subagents/agent-abc.jsonl', lines: subOther }, { name: 'S/subagents/agent-abc.meta.json', lines: [metaJson] }]);
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('T');
    expect(meta(byId(r.parts, 'T')).childSessionId).toBe('abc');
    expect(r.diagnostics).toEqual([]);
  });

  it('reads a pretty-printed .meta.json whole, and reports one that is not JSON', () => {
    const bare = [main[0], tline('user', [{ type: 'tool_result', tool_use_id: 'T', content: 'done' }], { uuid: 'm2', parentUuid: 'm1' })];
    const subOther = [{ ...sub[0], message: { role: 'user', content: 'other' } }, ...sub.slice(1)];
    const pretty = JSON.stringify(metaJson, null, 2).split('\n');
    const r = run([{ name: 'S.jsonl', lines: bare }, { name: 'S/subagents/agent-abc.jsonl', lines: subOther }, { name: 'S/subagents/agent-abc.meta.json', lines: pretty }]);
    expect(meta(byId(r.parts, 'c1')).parentId).toBe('T');
    expect(r.diagnostics).toEqual([]);
    const broken = run([{ name: 'S.jsonl', lines: bare }, { name: 'S/subagents/agent-abc.meta.json', lines: ['{"toolUseId": "T",'] }]);
    expect(broken.diagnostics.map((d) => [d.code, d.source?.file])).toEqual([['malformed_line', 'S/subagents/agent-abc.meta.json']]);
  });

  it('reads subagent messages nested in agent_progress lines and does not double them with the subagent file', () => {
    const progress = (message: unknown, uuid: string) => ({ type: 'progress', sessionId: SID, cwd: '/repo', uuid, parentToolUseID: 'T', toolUseID: 'agent_msg_1', data: { type: 'agent_progress', agentId: 'abc', prompt: 'SUB', message } });
    const nested = [
      progress({ type: 'assistant', uuid: 's2', timestamp: '2026-01-01T00:00:01Z', message: sub[1]!.message }, 'p1'),
      progress({ type: 'user', uuid: 's3', timestamp: '2026-01-01T00:00:02Z', message: sub[2]!.message, toolUseResult: { stdout: 'a' } }, 'p2'),
    ];
    const r = run([{ name: 'S.jsonl', lines: [main[0], ...nested, main[1]] }, { name: 'S/subagents/agent-abc.jsonl', lines: sub }]);
    expect(r.parts.map((p) => p.id)).toEqual(['T', 'c1']);
    expect(byId(r.parts, 'c1')).toMatchObject({ state: 'complete', metadata: { parentId: 'T', agentId: 'abc' }, output: { text: 'a', structured: { stdout: 'a' } } });
    expect(r.events.filter((e) => e.partId === 'c1').map((e) => e.type)).toEqual(['tool.started', 'tool.completed']);
  });
});
