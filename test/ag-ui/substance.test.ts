// AG-UI events of typed substance (test/helpers/substance.ts: hand-built events through the real
// reducer and pipeline): a call's approval and the thread's plan are ACTIVITY_SNAPSHOTs, every
// event passes @ag-ui/core's schemas and the client's stream verifier.
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { agUiEncoder, agUiEventsOf, APPROVAL_ACTIVITY, PLAN_ACTIVITY } from '../../src/ag-ui/index.js';
import { encodeEvents } from '../helpers/encode.js';
import { SUBSTANCE, substanceParts } from '../helpers/substance.js';

type Ev = Record<string, unknown> & { type: string; toolCallId?: string; activityType?: string; messageId?: string; content?: Record<string, unknown> };

const checked = async (events: Ev[]) => {
  for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
  await lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()));
  return events;
};

describe('AG-UI activity of typed substance', () => {
  it('live: the approval is an activity when asked and again when answered; the plan follows the todo call\'s result', async () => {
    const events = await checked(encodeEvents(SUBSTANCE, agUiEncoder()) as Ev[]);
    const approvals = events.filter((e) => e.activityType === APPROVAL_ACTIVITY);
    expect(approvals.map((e) => [e.messageId, e.content!.state])).toEqual([
      ['a3:approval', 'pending'], ['a3:approval', 'approved'],
      ['a2:approval', 'pending'], ['a2:approval', 'denied'],
      ['a1:approval', 'pending'],
    ]);
    expect(approvals.at(-1)).toMatchObject({ replace: true, content: { toolCallId: 'a1', source: 'user', reason: 'rm outside the allow list' } });
    // The request goes out before the outcome of its call.
    const i = (pred: (e: Ev) => boolean) => events.findIndex(pred);
    expect(i((e) => e.messageId === 'a2:approval')).toBeLessThan(i((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 'a2'));
    const plans = events.filter((e) => e.activityType === PLAN_ACTIVITY);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ messageId: 's1:plan', replace: true, content: { toolCallId: 't1', entries: [{ content: 'Read the code', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress', priority: 'high' }, { content: 'Rewrite it all', status: 'cancelled' }] } });
    expect(i((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 't1')).toBeLessThan(i((e) => e.activityType === PLAN_ACTIVITY));
  });

  it('from finished parts: the final approval of each call and the plan, once each', async () => {
    const events = await checked(agUiEventsOf([['s1', substanceParts()]]) as Ev[]);
    expect(events.filter((e) => e.activityType === APPROVAL_ACTIVITY).map((e) => [e.messageId, e.content!.state])).toEqual([['a3:approval', 'approved'], ['a2:approval', 'denied'], ['a1:approval', 'pending']]);
    expect(events.filter((e) => e.activityType === PLAN_ACTIVITY)).toHaveLength(1);
  });

  it('control: without metadata.approval and metadata.plan (input untouched) there is no such activity', async () => {
    const bare = substanceParts().map((p) => ({ ...p, metadata: {} }));
    const events = await checked(agUiEventsOf([['s1', bare]]) as Ev[]);
    expect(events.some((e) => e.activityType === APPROVAL_ACTIVITY || e.activityType === PLAN_ACTIVITY)).toBe(false);
  });
});
