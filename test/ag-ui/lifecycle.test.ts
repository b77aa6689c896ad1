// The AG-UI mapping on hand-written lifecycles: the event order of a call, progress as activity,
// the subagent lane of a child call, errors in metadata, and calls still open at the end.
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';
import { agUiEventsOf } from '../../src/ag-ui/index.js';

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
});
