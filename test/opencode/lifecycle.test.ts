import { describe, expect, it } from 'vitest';
import { isNormalizedToolPart } from '../../src/contract/index.js';
import { outputDelta } from '../../src/adapters/opencode/output.js';
import { completed, CWD, failed, run, onlyPart, partUpdated, pending, running, SES, sessionCreated, sse, toolPart, busEvent, MSG } from '../helpers/opencode-lines.js';

const BASH = { command: 'npm test', description: 'Run the tests' };

describe('OpenCode states → toolnorm states', () => {
  it('pending → started, running → running with progress, completed → complete', () => {
    const seq = [
      sessionCreated(SES),
      partUpdated(toolPart('prt_1', 'bash', pending()), 900),
      partUpdated(toolPart('prt_1', 'bash', running(BASH)), 1000),
      partUpdated(toolPart('prt_1', 'bash', running(BASH, { metadata: { output: 'line 1\n' } })), 1100),
      partUpdated(toolPart('prt_1', 'bash', running(BASH, { metadata: { output: 'line 1\nline 2\n' } })), 1200),
      partUpdated(toolPart('prt_1', 'bash', completed(BASH, 'line 1\nline 2\n', { title: 'npm test', metadata: { output: 'line 1\nline 2\n', exit: 0, truncated: false } })), 1500),
    ];
    const r = run(sse(seq));
    // The pending state is announced with the running state's input (one event fewer), at the pending time.
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.progress', 'tool.progress', 'tool.progress', 'tool.completed']);
    const started = r.events[0]!;
    expect(started).toMatchObject({ type: 'tool.started', partId: 'prt_1', sessionId: SES, at: 900, name: 'bash', kind: 'bash', input: BASH, title: 'npm test' });
    expect(r.events.slice(1, 4).map((e) => (e as { outputDelta?: string }).outputDelta)).toEqual([undefined, 'line 1\n', 'line 2\n']);
    const p = r.parts[0]!;
    expect(p).toMatchObject({ id: 'prt_1', state: 'complete', title: 'npm test', input: BASH, output: { text: 'line 1\nline 2\n', structured: { exit: 0, truncated: false } } });
    expect(p.metadata).toMatchObject({ provider: 'opencode', rawType: 'bash', callId: 'call_prt_1', cwd: CWD, exitCode: 0 });
    // time → timing: the transport time of the first sighting, the tool's own end and duration.
    expect(p.timing).toEqual({ startedAt: 900, completedAt: 1500, elapsedMs: 500 });
    expect(isNormalizedToolPart(p)).toBe(true);
  });

  it('a part seen only once, already final (run JSON, exports), is started and finished from that state', () => {
    const line = JSON.stringify({ type: 'tool_use', timestamp: 2000, sessionID: SES, part: toolPart('prt_2', 'read', completed({ filePath: `${CWD}/a.txt` }, 'one', { title: 'a.txt' })) });
    const r = run(line);
    expect(r.events.map((e) => [e.type, e.at])).toEqual([['tool.started', 1000], ['tool.completed', 1500]]);
    expect(r.parts[0]).toMatchObject({ state: 'complete', title: 'Reading a.txt', output: { text: 'one' } });
  });

  it('error → error with the free text kept and a well-known code', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_3', 'read', failed({ filePath: '/x/nope' }, 'File not found: /x/nope')))]));
    expect(p).toMatchObject({ state: 'error', error: { message: 'File not found: /x/nope', code: 'not_found' } });
  });

  it('an unknown error text gets code tool_error, and the running metadata rides along as details', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_3b', 'grep', failed({ pattern: 'x' }, 'ripgrep execution failed', { metadata: { matches: 0 } })))]));
    expect(p.state === 'error' && p.error).toEqual({ message: 'ripgrep execution failed', code: 'tool_error', details: { metadata: { matches: 0 } } });
  });

  it('"Tool execution aborted" with metadata.interrupted → interrupted, even straight from pending (stray raw kept out)', () => {
    const seq = [
      partUpdated(toolPart('prt_4', 'webfetch', pending())),
      partUpdated(toolPart('prt_4', 'webfetch', { status: 'error', input: {}, raw: '', error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: 1000, end: 1001 } })),
    ];
    const r = run(sse(seq));
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.failed']);
    expect(r.parts[0]).toMatchObject({ state: 'error', error: { code: 'interrupted', message: 'Tool execution aborted' } });
  });

  it('a bash call force-failed while running keeps its partial output in the error details', () => {
    const seq = [
      partUpdated(toolPart('prt_4b', 'bash', running(BASH, { metadata: { output: 'partial' } }))),
      partUpdated(toolPart('prt_4b', 'bash', { status: 'error', input: BASH, error: 'Tool execution aborted', metadata: { output: 'partial', interrupted: true }, time: { start: 1000, end: 1300 } })),
    ];
    const p = run(sse(seq)).parts[0]!;
    expect(p.state === 'error' && p.error).toEqual({ message: 'Tool execution aborted', code: 'interrupted', details: { metadata: { output: 'partial', interrupted: true } } });
  });

  it('a deny rule and a permission rejection → denied', () => {
    const rule = 'The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [{"permission":"bash","pattern":"rm *","action":"deny"}]';
    const reject = 'The user rejected permission to use this specific tool call.';
    expect(onlyPart(sse([partUpdated(toolPart('prt_5', 'bash', failed({ command: 'rm -rf x' }, rule)))]))).toMatchObject({ error: { code: 'denied', message: rule } });
    expect(onlyPart(sse([partUpdated(toolPart('prt_6', 'edit', failed({ filePath: 'a' }, reject)))]))).toMatchObject({ error: { code: 'denied' } });
  });

  it('permission.asked / permission.replied reject: the approval is kept and the failure is denied whatever its text', () => {
    const seq = [
      partUpdated(toolPart('prt_7', 'bash', pending())),
      partUpdated(toolPart('prt_7', 'bash', running(BASH))),
      busEvent('permission.asked', { id: 'per_1', sessionID: SES, permission: 'bash', patterns: ['npm test'], metadata: {}, always: [], tool: { messageID: MSG, callID: 'call_prt_7' } }),
      busEvent('permission.replied', { sessionID: SES, requestID: 'per_1', reply: 'reject' }),
      partUpdated(toolPart('prt_7', 'bash', failed(BASH, 'Rejected by the user interface'))),
    ];
    const r = run(sse(seq));
    const p = r.parts[0]!;
    expect(p).toMatchObject({ state: 'error', error: { code: 'denied' } });
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.progress', 'tool.approval.requested', 'tool.approval.resolved', 'tool.failed']);
    // The request, typed: pending, asked of the person, with OpenCode's three answers.
    expect(r.events[2]).toMatchObject({ approval: { state: 'pending', source: 'user', options: [{ id: 'once', kind: 'allow_once' }, { id: 'always', kind: 'allow_always' }, { id: 'reject', kind: 'reject_once' }] } });
    expect(p.metadata?.approval).toEqual({
      state: 'denied', source: 'user', optionId: 'reject',
      options: [{ id: 'once', name: 'Allow once', kind: 'allow_once' }, { id: 'always', name: 'Always allow', kind: 'allow_always' }, { id: 'reject', name: 'Reject', kind: 'reject_once' }],
      detail: { requestId: 'per_1', permission: 'bash', patterns: ['npm test'] },
    });
    expect(r.diagnostics).toEqual([]);
  });

  it('a permission request for a call still pending announces it first (no event before tool.started)', () => {
    const seq = [
      partUpdated(toolPart('prt_7b', 'edit', pending())),
      busEvent('permission.asked', { id: 'per_2', sessionID: SES, permission: 'edit', patterns: ['a.ts'], metadata: {}, always: [], tool: { messageID: MSG, callID: 'call_prt_7b' } }),
      partUpdated(toolPart('prt_7b', 'edit', failed({ filePath: 'a.ts' }, 'The user rejected permission to use this specific tool call.'))),
    ];
    const r = run(sse(seq));
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.approval.requested', 'tool.updated', 'tool.approval.resolved', 'tool.failed']);
    expect(r.diagnostics).toEqual([]);
    // No reply was read; the failure says the user rejected it, so the approval is denied by the user.
    expect(r.parts[0]).toMatchObject({ state: 'error', error: { code: 'denied' }, metadata: { approval: { state: 'denied', source: 'user', detail: { requestId: 'per_2' } } } });
  });

  it('calls still pending at the end are started in the order OpenCode created them', () => {
    const r = run(sse([partUpdated(toolPart('prt_p1', 'read', pending())), partUpdated(toolPart('prt_p2', 'grep', pending())), partUpdated(toolPart('prt_p1', 'read', pending()))]));
    expect(r.parts.map((p) => [p.id, p.state])).toEqual([['prt_p1', 'started'], ['prt_p2', 'started']]);
  });

  it('the invalid tool → unknown_tool, named after what the model asked for; the mid-life rename is an update', () => {
    const asked = { tool: 'no_such_tool', error: "Model tried to call unavailable tool 'no_such_tool'. Available tools: bash, read." };
    const seq = [
      partUpdated(toolPart('prt_8', 'no_such_tool', pending())),
      partUpdated(toolPart('prt_8', 'invalid', running(asked))),
      partUpdated(toolPart('prt_8', 'invalid', completed(asked, `The arguments provided to the tool are invalid: ${asked.error}`, { title: 'Invalid Tool' }))),
    ];
    const r = run(sse(seq));
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.progress', 'tool.failed']);
    expect(r.events[0]).toMatchObject({ name: 'no_such_tool', kind: 'unknown', title: 'Calling unavailable tool no_such_tool', metadata: { rawType: 'invalid', requestedTool: 'no_such_tool' } });
    const p = r.parts[0]!;
    expect(r.parts).toHaveLength(1);
    // Announced while still pending (another call started in between): the rename is a tool.updated.
    const other = partUpdated(toolPart('prt_other', 'read', running({ filePath: '/a' })));
    const r2 = run(sse([seq[0]!, other, ...seq.slice(1)]));
    const ours = r2.events.filter((e) => e.partId === 'prt_8');
    expect(ours.map((e) => e.type)).toEqual(['tool.started', 'tool.updated', 'tool.progress', 'tool.failed']);
    expect(ours[0]).toMatchObject({ name: 'no_such_tool', kind: 'mcp', metadata: { rawType: 'no_such_tool' } });
    expect(ours[1]).toMatchObject({ kind: 'unknown', title: 'Calling unavailable tool no_such_tool', metadata: { rawType: 'invalid', requestedTool: 'no_such_tool' } });
    expect(r2.sessions.get(SES)!.map((x) => x.id)).toEqual(['prt_8', 'prt_other']);
    expect(r2.parts.find((x) => x.id === 'prt_8')).toEqual(p);
    expect(p).toMatchObject({ id: 'prt_8', name: 'no_such_tool', kind: 'unknown', state: 'error', input: asked });
    expect(p.state === 'error' && p.error).toEqual({ message: `The arguments provided to the tool are invalid: ${asked.error}`, code: 'unknown_tool', details: { requestedTool: 'no_such_tool', reason: asked.error } });
  });

  it('the invalid tool for a known tool with unparsable arguments → invalid_input with that tool\'s kind', () => {
    const asked = { tool: 'read', error: 'Invalid input for tool read: JSON parsing failed' };
    const p = onlyPart(sse([partUpdated(toolPart('prt_9', 'invalid', completed(asked, `The arguments provided to the tool are invalid: ${asked.error}`)))]));
    expect(p).toMatchObject({ name: 'read', kind: 'file_read', title: 'Reading a file', state: 'error', error: { code: 'invalid_input' } });
  });

  it('bash aborted by the user (completed, exit null, <shell_metadata>) → error cancelled', () => {
    const input = { command: 'sleep 8', description: 'Slow command' };
    const output = '(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>';
    const p = onlyPart(sse([partUpdated(toolPart('prt_10', 'bash', completed(input, output, { metadata: { output, exit: null, truncated: false } })))]));
    expect(p.state).toBe('error');
    expect(p.state === 'error' && p.error).toEqual({ message: 'User aborted the command', code: 'cancelled', details: { output, opencodeStatus: 'completed' } });
    expect(p.metadata?.exitCode).toBeNull();
  });

  it('bash killed by its timeout (older <bash_metadata> note) → error timeout', () => {
    const output = 'partial\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n</bash_metadata>';
    const p = onlyPart(sse([partUpdated(toolPart('prt_11', 'bash', completed({ command: 'sleep 999' }, output, { metadata: { output, exit: null } })))]));
    expect(p).toMatchObject({ state: 'error', error: { code: 'timeout', message: 'bash tool terminated command after exceeding timeout 120000 ms' } });
  });

  it('a bash command that exits non-zero is an error (exit_nonzero), OpenCode\'s own status kept in metadata.opencodeStatus', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_12', 'bash', completed({ command: 'exit 7' }, 'partial\n', { metadata: { output: 'partial\n', exit: 7 } })))]));
    expect(p).toMatchObject({ state: 'error', error: { code: 'exit_nonzero', message: 'Exit code 7\npartial' }, metadata: { exitCode: 7, opencodeStatus: 'completed' } });
    const ok = onlyPart(sse([partUpdated(toolPart('prt_12z', 'bash', completed({ command: 'true' }, '', { metadata: { output: '', exit: 0 } })))]));
    expect(ok).toMatchObject({ state: 'complete', metadata: { exitCode: 0 } });
    expect(ok.metadata?.opencodeStatus).toBeUndefined();
  });

  it('a <shell_metadata> note alone (exit code known) is not an abort', () => {
    const output = 'ok\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>';
    const p = onlyPart(sse([partUpdated(toolPart('prt_12b', 'bash', completed({ command: 'x' }, output, { metadata: { exit: 0 } })))]));
    expect(p.state).toBe('complete');
  });

  it('repeated final states (sync duplicates, compaction re-sends, a second file) are dropped; a conflicting one is reported', () => {
    const done = toolPart('prt_13', 'read', completed({ filePath: '/a' }, 'x'));
    const compacted = toolPart('prt_13', 'read', completed({ filePath: '/a' }, 'x', { time: { start: 1000, end: 1500, compacted: 9999 } }));
    const r = run(sse([partUpdated(done), partUpdated(compacted), partUpdated(done)]));
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.completed']);
    expect(r.diagnostics).toEqual([]);
    const r2 = run(sse([partUpdated(done), partUpdated(toolPart('prt_13', 'read', failed({ filePath: '/a' }, 'boom')))]));
    expect(r2.parts[0]!.state).toBe('complete');
    expect(r2.diagnostics.map((d) => d.code)).toEqual(['conflicting_update']);
  });

  it('an export of an already compacted part records when OpenCode pruned it', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_14', 'read', completed({ filePath: '/a' }, 'x', { time: { start: 1, end: 2, compacted: 3 } })))]));
    expect(p.metadata?.compactedAt).toBe(3);
  });

  it('image attachments become image blocks without their data, with a truncation note', () => {
    const png = Buffer.from('fake png bytes').toString('base64');
    const att = { id: 'prt_f', sessionID: SES, messageID: MSG, type: 'file', mime: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${png}` };
    const p = onlyPart(sse([partUpdated(toolPart('prt_15', 'read', completed({ filePath: '/p.png' }, 'Image read successfully', { attachments: [att] })))]));
    expect(p.state === 'complete' && p.output).toMatchObject({ text: 'Image read successfully', content: [{ type: 'image', mediaType: 'image/png', bytes: 14 }] });
    expect(JSON.stringify(p)).not.toContain(png);
    expect(p.metadata?.truncated).toEqual([{ path: '/output/content/0', originalBytes: png.length, reason: expect.any(String) }]);
  });

  it('parts still open at the end of input stay started / running', () => {
    const r = run(sse([partUpdated(toolPart('prt_16', 'bash', pending())), partUpdated(toolPart('prt_17', 'bash', running(BASH)))]));
    expect(r.parts.map((p) => p.state)).toEqual(['started', 'running']);
  });

  it('state.input {value: x} (a non-object provider input) is kept as OpenCode stores it', () => {
    const p = onlyPart(sse([partUpdated(toolPart('prt_18', 'demo_echo', completed({ value: 'raw' }, 'ok')))]));
    expect(p.input).toEqual({ value: 'raw' });
  });
});

describe('identity: part.id, not callID', () => {
  it('two calls that reuse a callID in different turns stay two parts', () => {
    const a = toolPart('prt_a', 'bash', completed(BASH, 'a'), { callID: 'call_0' });
    const b = toolPart('prt_b', 'bash', completed(BASH, 'b'), { callID: 'call_0', messageID: 'msg_000000000002AAAAAAAAAAAAAA' });
    const r = run(sse([partUpdated(a), partUpdated(b)]));
    expect(r.parts.map((p) => [p.id, p.metadata?.callId])).toEqual([['prt_a', 'call_0'], ['prt_b', 'call_0']]);
  });

  it('a part without an id falls back to messageID:callID', () => {
    const part = toolPart('', 'bash', completed(BASH, 'x'));
    delete part.id;
    expect(onlyPart(sse([partUpdated(part)])).id).toBe(`${MSG}:call_`);
  });
});

describe('streamed output deltas', () => {
  it('appends, and follows a sliding tail preview without repeating it', () => {
    expect(outputDelta('', 'abc')).toBe('abc');
    expect(outputDelta('abc', 'abcdef')).toBe('def');
    const prev = 'x'.repeat(300) + 'TAIL-0123456789';
    const next = prev.slice(100) + 'NEW';
    expect(outputDelta(prev, next)).toBe('NEW');
    expect(outputDelta('unrelated', 'other')).toBe('other');
  });
});
