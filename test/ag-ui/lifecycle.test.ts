// The AG-UI mapping on hand-written lifecycles: the event order of a call, progress as activity,
// the subagent lane of a child call, errors in metadata, and calls still open at the end.
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';
import { agUiEncoder, agUiEventsOf } from '../../src/ag-ui/index.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { clientMessages, threadsOf } from '../helpers/ag-ui-client.js';
import { encodeEvents } from '../helpers/encode.js';
import { LIFECYCLES } from '../helpers/lifecycles.js';

type Ev = Record<string, unknown> & { type: string; toolCallId?: string; subagentRunId?: string };

describe('AG-UI mapping of each lifecycle', () => {
  it('sends each call start, args, end, result; progress as activity; a child in its parent\'s lane', async () => {
    const r = await cli(['normalize', '--from', 'events', '--to', 'ag-ui', '-'], { stdin: LIFECYCLES_NDJSON });
    expect(r.code).toBe(0);
    const events = r.lines as Ev[];
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    await lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()));
    const of = (id: string) => events.filter((e) => e.toolCallId === id || (e as { content?: { toolCallId?: string } }).content?.toolCallId === id).map((e) => e.type);
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 's1', runId: 's1', timestamp: 1000 });
    expect(of('p1')).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'ACTIVITY_SNAPSHOT', 'TOOL_CALL_RESULT']);
    const args = events.find((e) => e.type === 'TOOL_CALL_ARGS' && e.toolCallId === 'p1')!;
    expect(JSON.parse(args.delta as string)).toEqual({ command: 'ls' });
    expect(events.find((e) => e.type === 'ACTIVITY_SNAPSHOT')).toMatchObject({ activityType: 'toolnorm.progress', content: { toolCallId: 'p1', message: 'still running', elapsedMs: 100 } });
    // Failure has no field in TOOL_CALL_RESULT: the text is the message, the rest is metadata.
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 'p2')).toMatchObject({ messageId: 'p2:result', role: 'tool', content: 'The user denied the write', metadata: { toolnorm: { state: 'error', error: { code: 'denied' } } } });
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 't1')).toMatchObject({ content: 'one TODO' });
    // The subagent lane: opened by the first child, closed before the parent's result.
    const types = events.map((e) => `${e.type}:${e.toolCallId ?? e.subagentRunId ?? ''}`);
    const at = (t: string) => types.indexOf(t);
    expect(at('SUBAGENT_STARTED:t1')).toBeLessThan(at('TOOL_CALL_START:c1'));
    expect(at('SUBAGENT_FINISHED:t1')).toBeGreaterThan(at('TOOL_CALL_RESULT:c1'));
    expect(at('SUBAGENT_FINISHED:t1')).toBeLessThan(at('TOOL_CALL_RESULT:t1'));
    for (const e of events.filter((x) => x.toolCallId === 'c1')) expect(e.subagentRunId).toBe('t1');
    expect(events.find((e) => e.type === 'SUBAGENT_STARTED')).toMatchObject({ name: 'Research the code', parentToolCallId: 't1' });
    // Open at the end: arguments closed, no result, named pending in RUN_FINISHED.
    expect(of('p4')).toEqual(['TOOL_CALL_START', 'TOOL_CALL_END']);
    expect(events.at(-1)).toEqual({ type: 'RUN_FINISHED', threadId: 's1', runId: 's1', outcome: { type: 'success', pendingToolCallIds: ['p4', 'p5'] } });
  });

  it('a child whose parent is not running here names it in metadata instead of a lane', () => {
    const events = agUiEventsOf([['s', [{ id: 'c', name: 'Read', kind: 'file_read', title: 'Reading x', input: {}, state: 'complete', metadata: { parentId: 'elsewhere' } }]]]) as Ev[];
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'RUN_FINISHED']);
    expect(events[1]).toMatchObject({ metadata: { toolnorm: { parentId: 'elsewhere' } } });
    expect(events[1]!.subagentRunId).toBeUndefined();
  });

  it('a failed call\'s message carries AG-UI\'s ToolMessage.error: the run restates its messages before it ends', async () => {
    const events = encodeEvents(LIFECYCLES, agUiEncoder()) as Ev[];
    expect(events.map((e) => e.type).slice(-2)).toEqual(['MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const tools = (await clientMessages(events, 's1')).filter((m) => m.role === 'tool') as { toolCallId: string; error?: string; content: unknown }[];
    expect(Object.fromEntries(tools.map((m) => [m.toolCallId, m.error ?? null]))).toEqual({ p1: null, p2: 'The user denied the write', p3: 'no such file', c1: null, t1: null });
    // Control: without the snapshot the client has no error anywhere (TOOL_CALL_RESULT has no field for it).
    const plain = encodeEvents(LIFECYCLES, agUiEncoder({ toolMessageErrors: false })) as Ev[];
    expect(plain.some((e) => e.type === 'MESSAGES_SNAPSHOT')).toBe(false);
    expect((await clientMessages(plain, 's1')).some((m) => 'error' in m)).toBe(false);
  });

  it('interleaved sessions: one run at a time, a call and a lane open at a switch go on in their thread\'s next run', async () => {
    const env = (sessionId: string, partId: string, at: number) => ({ sessionId, partId, at, source: { provider: 'claude' as const } });
    const evs: ToolEvent[] = [
      { type: 'tool.started', ...env('s1', 't1', 1000), name: 'Task', kind: 'subagent', title: 'Research', input: { prompt: 'go' } },
      { type: 'tool.progress', ...env('s1', 't1', 1001) },
      { type: 'tool.started', ...env('s1', 'c1', 1002), name: 'Grep', kind: 'file_read', title: 'Searching', input: { pattern: 'x' }, metadata: { parentId: 't1' } },
      { type: 'tool.started', ...env('s1', 'q1', 1003), name: 'Bash', kind: 'bash', title: 'Running' },
      { type: 'tool.started', ...env('s2', 'x1', 1100), name: 'Read', kind: 'file_read', title: 'Reading a', input: { path: 'a' } },
      { type: 'tool.input.delta', ...env('s1', 'q1', 1200), delta: '{"command":"ls"}' },
      { type: 'tool.updated', ...env('s1', 'q1', 1201), input: { command: 'ls' } },
      { type: 'tool.completed', ...env('s1', 'c1', 1202), output: { text: 'found' } },
      { type: 'tool.completed', ...env('s1', 'q1', 1203), output: { text: 'a b' } },
      { type: 'tool.completed', ...env('s1', 't1', 1204), output: { text: 'done' } },
      { type: 'tool.failed', ...env('s2', 'x1', 1300), error: { message: 'no such file' } },
    ];
    const events = encodeEvents(evs, agUiEncoder()) as Ev[];
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    // The whole output is one valid AG-UI stream.
    expect((await lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()))).length).toBe(events.length);
    const line = (e: Ev) => [e.type, e.runId ?? e.toolCallId ?? e.subagentRunId ?? '', (e.outcome as { type?: string } | undefined)?.type ?? ''].filter(Boolean).join(' ');
    expect(events.map(line)).toEqual([
      'RUN_STARTED s1', 'TOOL_CALL_START t1', 'TOOL_CALL_ARGS t1', 'TOOL_CALL_END t1', 'SUBAGENT_STARTED t1', 'TOOL_CALL_START c1', 'TOOL_CALL_START q1',
      // s2's first event: s1's run ends, its open calls' arguments and its lane suspended.
      'TOOL_CALL_END c1', 'TOOL_CALL_END q1', 'SUBAGENT_FINISHED t1 suspended', 'RUN_FINISHED s1 success',
      'RUN_STARTED s2', 'TOOL_CALL_START x1', 'TOOL_CALL_END x1', 'RUN_FINISHED s2 success',
      // s1 again: its next run, the lane reopened, the calls started again before their arguments.
      'RUN_STARTED s1#2', 'SUBAGENT_STARTED t1', 'TOOL_CALL_START c1', 'TOOL_CALL_ARGS c1', 'TOOL_CALL_END c1', 'TOOL_CALL_RESULT c1',
      'TOOL_CALL_START q1', 'TOOL_CALL_ARGS q1', 'TOOL_CALL_END q1', 'TOOL_CALL_RESULT q1', 'SUBAGENT_FINISHED t1 success', 'TOOL_CALL_RESULT t1', 'RUN_FINISHED s1#2 success',
      'RUN_STARTED s2#2', 'TOOL_CALL_START x1', 'TOOL_CALL_ARGS x1', 'TOOL_CALL_END x1', 'TOOL_CALL_RESULT x1', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED s2#2 success',
    ]);
    expect(events.find((e) => e.type === 'RUN_FINISHED' && e.runId === 's1')).toMatchObject({ threadId: 's1', outcome: { pendingToolCallIds: ['t1', 'c1', 'q1'] } });
    for (const e of events.filter((x) => x.toolCallId === 'c1')) expect(e.subagentRunId).toBe('t1');
    // What a client of each thread holds: each call once, with its final arguments and its result.
    const threads = threadsOf(events);
    const s1 = await clientMessages(threads.get('s1')!, 's1');
    const calls = s1.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []));
    expect(calls.map((c) => [c.id, c.function.arguments])).toEqual([['t1', '{"prompt":"go"}'], ['c1', '{"pattern":"x"}'], ['q1', '{"command":"ls"}']]);
    expect(s1.filter((m) => m.role === 'tool').map((m) => [(m as { toolCallId: string }).toolCallId, m.content])).toEqual([['t1', 'done'], ['c1', 'found'], ['q1', 'a b']]);
    const s2 = await clientMessages(threads.get('s2')!, 's2');
    expect(s2.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 'x1', content: 'no such file', error: 'no such file' });
  });

  it('a result with content blocks is AG-UI content parts; text alone stays a string', () => {
    const events = agUiEventsOf([['s', [
      { id: 'm', name: 'mcp__x__shot', kind: 'mcp', title: 'Shot', input: {}, state: 'complete', output: { text: 'here', content: [{ type: 'image', mediaType: 'image/png', bytes: 73 }, { type: 'resource', uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' }, { type: 'text', text: 'more' }] } },
      { id: 't', name: 'Read', kind: 'file_read', title: 'Reading', input: {}, state: 'complete', output: { text: 'plain' } },
    ]]]) as Ev[];
    for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const content = (id: string) => (events.find((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === id) as unknown as { content: unknown }).content;
    expect(content('m')).toEqual([
      { type: 'text', text: 'here' },
      // No image data is kept in parts, and AG-UI's image part needs it: described in text, the block in metadata.
      { type: 'text', text: '[image image/png, 73 bytes]', metadata: { toolnorm: { block: { type: 'image', mediaType: 'image/png', bytes: 73 } } } },
      { type: 'document', source: { type: 'url', value: 'file:///a.md', mimeType: 'text/markdown' }, metadata: { toolnorm: { text: '# A' } } },
      { type: 'text', text: 'more' },
    ]);
    expect(content('t')).toBe('plain');
  });
});
