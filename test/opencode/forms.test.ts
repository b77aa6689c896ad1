import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { busEvent, completed, CWD, MSG, run, partUpdated, pending, running, SES, sessionCreated, sse, toolPart } from '../helpers/opencode-lines.js';

const BASH = { command: 'ls', description: 'List files' };
const call = [
  sessionCreated(SES),
  partUpdated(toolPart('prt_1', 'bash', pending()), 900),
  partUpdated(toolPart('prt_1', 'bash', running(BASH)), 1000),
  partUpdated(toolPart('prt_1', 'bash', completed(BASH, 'a\nb\n', { metadata: { output: 'a\nb\n', exit: 0 } })), 1500),
];

describe('GET /event SSE', () => {
  it('reads data lines, ignores event/id/retry fields and comments', () => {
    const text = `: keep-alive\nevent: message\nid: 7\nretry: 1000\n${sse(call)}`;
    const r = run(text);
    expect(r.parts).toHaveLength(1);
    expect(r.parts[0]).toMatchObject({ id: 'prt_1', state: 'complete' });
    expect(r.diagnostics).toEqual([]);
  });

  it('joins an event whose data spans several data: lines', () => {
    const json = JSON.stringify(call[3], null, 2).split('\n');
    const text = sse(call.slice(0, 3)) + json.map((l) => `data: ${l}`).join('\n') + '\n\n';
    const r = run(text);
    expect(r.parts[0]!.state).toBe('complete');
    expect(r.diagnostics).toEqual([]);
  });

  it('reports data that never becomes JSON as a malformed line at its first line, and goes on', () => {
    const text = `data: {"id":"evt_x","type":"message.part.updated","properties":{\n\n${sse(call)}`;
    const r = run(text);
    expect(r.diagnostics).toMatchObject([{ code: 'malformed_line', source: { line: 1 } }]);
    expect(r.parts[0]!.state).toBe('complete');
  });

  it('reports a line that is not SSE inside an SSE stream', () => {
    const r = run(`${sse(call.slice(0, 2))}garbage here\n${sse(call.slice(2))}`);
    expect(r.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['malformed_line', 5]]);
    expect(r.parts[0]!.state).toBe('complete');
  });

  it('reads SDK v1 events: {type, properties:{part, delta}} without ids or sessionID beside the part', () => {
    const v1 = [
      { type: 'message.part.updated', properties: { part: toolPart('prt_v1', 'read', running({ filePath: '/a' })), delta: '' } },
      { type: 'message.part.updated', properties: { part: toolPart('prt_v1', 'read', completed({ filePath: '/a' }, 'text')) } },
    ];
    const r = run(sse(v1));
    expect(r.parts).toMatchObject([{ id: 'prt_v1', state: 'complete' }]);
    expect(r.events[0]!.sessionId).toBe(SES);
  });

  it('text, reasoning, step and other bus events produce no parts and no diagnostics', () => {
    const noise = [
      busEvent('server.connected', {}),
      busEvent('message.part.updated', { sessionID: SES, part: { id: 'prt_t', type: 'text', text: 'hi', sessionID: SES, messageID: MSG }, time: 1 }),
      busEvent('message.part.delta', { sessionID: SES, messageID: MSG, partID: 'prt_t', field: 'text', delta: 'h' }),
      busEvent('message.part.updated', { sessionID: SES, part: { id: 'prt_s', type: 'step-finish', reason: 'stop', sessionID: SES, messageID: MSG }, time: 1 }),
      busEvent('session.status', { sessionID: SES, status: { type: 'idle' } }),
      busEvent('session.error', { sessionID: SES, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } }),
      busEvent('server.heartbeat', {}),
    ];
    const r = run(sse(noise));
    expect(r.parts).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('says so for events that look like tool data it does not read (SDK v2 session.next.tool.*)', () => {
    const r = run(sse([busEvent('session.next.tool.called', { sessionID: SES, callID: 'c1', tool: 'bash', input: {} })]));
    expect(r.parts).toEqual([]);
    expect(r.diagnostics).toMatchObject([{ code: 'unknown_event', severity: 'warning' }]);
  });

  it('a tool part that cannot be read is a diagnostic, not a crash', () => {
    const r = run(sse([partUpdated(toolPart('prt_bad', 'bash', { status: 'exploded', input: {} }))]));
    expect(r.parts).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unreadable_tool_part']);
  });

  it('is deterministic: the same bytes give the same events', () => {
    expect(run(sse(call)).events).toEqual(run(sse(call)).events);
  });
});

describe('GET /global/event SSE', () => {
  const wrap = (e: Record<string, unknown>) => ({ directory: CWD, project: 'p1', payload: e });
  const sync = (e: Record<string, unknown>) => ({
    directory: CWD,
    project: 'p1',
    payload: { type: 'sync', syncEvent: { id: e.id, type: `${String(e.type)}.1`, seq: 0, aggregateID: SES, data: e.properties }, id: e.id },
  });

  it('unwraps payload and drops the sync duplicate of each durable event', () => {
    const global = call.flatMap((e) => [wrap(e), sync(e)]);
    const direct = run(sse(call));
    const r = run(sse(global));
    const noSource = (es: typeof r.events) => es.map(({ source: _source, ...e }) => e);
    expect(noSource(r.events)).toEqual(noSource(direct.events));
    expect(r.parts).toEqual(direct.parts);
    expect(r.diagnostics).toEqual([]);
  });

  it('reads a sync payload whose plain twin never came, as the event it wraps', () => {
    const r = run(sse(call.map(sync)));
    expect(r.parts).toMatchObject([{ id: 'prt_1', state: 'complete', title: 'Listing files' }]);
  });

  it('takes the envelope directory as the cwd when no session info says otherwise', () => {
    const r = run(sse([wrap(partUpdated(toolPart('prt_g', 'read', completed({ filePath: `${CWD}/x/y.md` }, 'z'))))]));
    expect(r.parts[0]).toMatchObject({ title: 'Reading x/y.md', metadata: { cwd: CWD } });
  });
});

describe('opencode run --format json', () => {
  const runLines = [
    { type: 'step_start', timestamp: 1, sessionID: SES, part: { id: 'prt_s', type: 'step-start', sessionID: SES, messageID: MSG } },
    { type: 'tool_use', timestamp: 2, sessionID: SES, part: toolPart('prt_r', 'bash', completed(BASH, 'out')) },
    { type: 'text', timestamp: 3, sessionID: SES, part: { id: 'prt_x', type: 'text', text: 'done', sessionID: SES, messageID: MSG } },
    { type: 'step_finish', timestamp: 4, sessionID: SES, part: { id: 'prt_f', type: 'step-finish', sessionID: SES, messageID: MSG } },
    { type: 'error', timestamp: 5, sessionID: SES, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } },
    { type: 'done', timestamp: 6, sessionID: SES, reason: 'idle', rejected: [] },
  ];

  it('reads tool_use lines and nothing else', () => {
    const r = run(runLines.map((l) => JSON.stringify(l)).join('\n'));
    expect(r.parts).toMatchObject([{ id: 'prt_r', state: 'complete', title: 'Listing files' }]);
    expect(r.diagnostics).toEqual([]);
  });

  it('reports a broken line and keeps going', () => {
    const text = ['{"type":"tool_use", broken', ...runLines.map((l) => JSON.stringify(l))].join('\n');
    const r = run(text);
    expect(r.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['malformed_line', 1]]);
    // The broken first line made it look like a document; the other lines are whole JSON, so it is read as lines.
    expect(r.parts).toHaveLength(1);
  });

  it('a broken line after the first is one malformed line', () => {
    const text = [JSON.stringify(runLines[0]), '{"type":"tool_use", broken', JSON.stringify(runLines[1])].join('\n');
    const r = run(text);
    expect(r.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['malformed_line', 2]]);
    expect(r.parts).toHaveLength(1);
  });

  it('JSON that is no OpenCode record is malformed; a record of an unknown type is skipped', () => {
    const r = run(['[1, 2]', '{"hello":"world"}', '{"type":"future_line","sessionID":"ses_x"}'].join('\n'));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['malformed_line', 'malformed_line', 'malformed_line']);
    const r2 = run([JSON.stringify(runLines[0]), '{"type":"future_line","sessionID":"ses_x"}'].join('\n'));
    expect(r2.diagnostics).toEqual([]);
  });
});

const messages = [
  { info: { id: MSG, sessionID: SES, role: 'assistant', path: { cwd: CWD, root: CWD } }, parts: [{ id: 'prt_s', type: 'step-start' }, toolPart('prt_e', 'read', completed({ filePath: `${CWD}/a.md` }, 'x'))] },
];
const exported = { info: { id: SES, directory: CWD, title: 'T' }, messages };

describe('exports and the messages API', () => {
  it('reads a pretty-printed export as one document, buffered to the end of the file', () => {
    const r = run([{ name: 'export.json', text: JSON.stringify(exported, null, 2) }]);
    expect(r.parts).toMatchObject([{ id: 'prt_e', title: 'Reading a.md', state: 'complete', metadata: { cwd: CWD } }]);
    expect(r.events[0]!.source).toMatchObject({ file: 'export.json', line: 1 });
  });

  it('reads the messages API array, on one line or pretty-printed', () => {
    for (const text of [JSON.stringify(messages), JSON.stringify(messages, null, 2)]) {
      const r = run(text);
      expect(r.parts).toMatchObject([{ id: 'prt_e', title: 'Reading a.md' }]);
      expect(r.diagnostics).toEqual([]);
    }
  });

  it('a truncated export is one malformed diagnostic naming the file as a document', () => {
    const text = JSON.stringify(exported, null, 2).slice(0, -20);
    const r = run(text);
    expect(r.parts).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'malformed_line', source: { line: 1 } });
    expect(r.diagnostics[0]!.message).toContain('JSON document');
  });

  it('each file has its own form: an SSE file and an export in one run', () => {
    const r = run([
      { name: 'events.sse', text: sse(call) },
      { name: 'export.json', text: JSON.stringify(exported, null, 2) },
    ]);
    expect(r.parts.map((p) => p.id)).toEqual(['prt_1', 'prt_e']);
  });

  it('parts with no session anywhere get a session id from the option, else from the file name', () => {
    const part = toolPart('prt_n', 'bash', completed(BASH, 'x'));
    delete part.sessionID;
    const line = JSON.stringify({ type: 'tool_use', timestamp: 1, part });
    expect(run([{ name: 'dir/run.jsonl', text: line }]).events[0]!.sessionId).toBe('opencode:run.jsonl');
    expect(run([{ name: 'dir/run.jsonl', text: line }], { sessionId: 'given' }).events[0]!.sessionId).toBe('given');
  });
});

describe('sniff', () => {
  const score = (lines: string[], file?: string) => opencodeAdapter.sniff({ lines, file });
  it('recognises every form from its first lines; OpenCode ids make it certain', () => {
    expect(score(sse(call).split('\n').filter(Boolean))).toBe(0.95);
    expect(score([`data: ${JSON.stringify({ directory: CWD, payload: call[0] })}`])).toBe(0.95);
    expect(score([JSON.stringify({ type: 'step_start', timestamp: 1, sessionID: SES, part: {} })])).toBe(0.95);
    expect(score([JSON.stringify({ type: 'step_start', timestamp: 1, sessionID: 'other-id', part: {} })])).toBe(0.9);
    expect(score(['data: {"type":"server.connected","properties":{}}'])).toBe(0.9);
    expect(score([JSON.stringify(messages)])).toBe(0.95);
    expect(score(JSON.stringify(exported, null, 2).split('\n').slice(0, 20))).toBe(0.9);
    expect(score(JSON.stringify(messages, null, 2).split('\n').slice(0, 20))).toBe(0.9);
  });

  it('wins the tie against a loosely matching shape (a run line typed "error")', () => {
    const lines = [JSON.stringify({ type: 'error', timestamp: 5, sessionID: SES, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } })];
    expect(score(lines)).toBeGreaterThan(0.9);
  });

  it('says 0 to other providers and to other SSE streams', () => {
    expect(score(['{"type":"system","subtype":"init","session_id":"x","tools":[]}'])).toBe(0);
    expect(score(['{"type":"thread.started","thread_id":"t"}'])).toBe(0);
    expect(score(['{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}'])).toBe(0);
    expect(score(['event: message_start', 'data: {"type":"message_start","message":{}}'])).toBe(0);
    expect(score(['{', '  "name": "x"'])).toBe(0);
    expect(score([])).toBe(0);
  });
});
