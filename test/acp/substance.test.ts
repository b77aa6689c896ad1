// Every kind of typed substance through the real pipeline (`normalize --to acp`, v1 and v2): each
// frame validates against the official SDK schema, diffs and locations come from metadata.files /
// search, a plan is a `plan` (v2 `plan_update`) update, and a call waiting for its approval is
// `pending`. The events are hand-built (test/helpers/substance.ts says why).
import { describe, expect, it } from 'vitest';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { splitLines } from '../../src/pipeline/collect.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { encodeParts } from '../../src/acp/encoder.js';
import { issuesOfAcpSessionUpdateParams, type Diagnostic } from '../../src/contract/index.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { officialAcpV2Errors } from '../helpers/acp-schema-v2.js';
import { mergeV2, v1Snapshot } from '../helpers/acp-v2-client.js';
import { CWD, SUBSTANCE_NDJSON, substanceParts } from '../helpers/substance.js';

type Update = Record<string, unknown> & { sessionUpdate: string; toolCallId?: string };
type Frame = { sessionId: string; update: Update };

function framesOf(acpVersion: 1 | 2, ndjson = SUBSTANCE_NDJSON): Frame[] {
  const out: Frame[] = [];
  const diagnostics: Diagnostic[] = [];
  const p = new NormalizePipeline(eventsAdapter, { to: 'acp', acpVersion, jsonRpc: false }, { output: (f) => out.push(JSON.parse(JSON.stringify(f)) as Frame), diagnostic: (d) => diagnostics.push(d) });
  p.beginFile('events');
  for (const [i, l] of splitLines(ndjson).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: 'events' });
  p.endFile('events');
  p.end();
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return out;
}

const ofCall = (frames: Frame[], id: string) => frames.filter((f) => f.update.toolCallId === id).map((f) => f.update);
/** What a v1 client holds for a call: later frames replace the fields they carry. */
const held = (frames: Frame[], id: string) => Object.assign({}, ...ofCall(frames, id)) as Update;

describe('ACP v1 frames of typed substance', () => {
  const frames = framesOf(1);

  it('every frame validates against the official v1 schema and ours', () => {
    expect(frames.length).toBeGreaterThan(10);
    for (const f of frames) {
      expect(officialAcpErrors(f), JSON.stringify(f).slice(0, 300)).toEqual([]);
      expect(issuesOfAcpSessionUpdateParams(f)).toEqual([]);
    }
  });

  it('file calls: absolute locations for every FileChange; edits have diff content (patch-only ones from the hunks)', () => {
    expect(held(frames, 'e1')).toMatchObject({ kind: 'edit', locations: [{ path: `${CWD}/a.ts` }], content: [{ type: 'diff', path: `${CWD}/a.ts`, oldText: 'one\n', newText: 'two\n' }, { type: 'content' }] });
    expect(held(frames, 'w1').content).toContainEqual({ type: 'diff', path: `${CWD}/new.txt`, oldText: null, newText: 'hi\n' });
    const x1 = held(frames, 'x1');
    expect(x1.locations).toEqual([{ path: `${CWD}/b.ts` }, { path: `${CWD}/gone.ts` }, { path: `${CWD}/c2.ts` }, { path: `${CWD}/c.ts` }]);
    expect((x1.content as Update[]).filter((c) => c.type === 'diff')).toEqual([{ type: 'diff', path: `${CWD}/b.ts`, oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n' }]);
  });

  it('a search is kind search with the matched paths as locations; a command is titled by the command', () => {
    expect(held(frames, 'g1')).toMatchObject({ kind: 'search', locations: [{ path: `${CWD}/a.ts` }, { path: `${CWD}/b.ts` }] });
    expect(held(frames, 'b1')).toMatchObject({ kind: 'execute', title: 'Reading README.md' });
    expect(held(frames, 'b1').locations).toBeUndefined();
  });

  it('a todo call is followed by a plan update: priority medium by default, cancelled shown completed', () => {
    const plans = frames.filter((f) => f.update.sessionUpdate === 'plan');
    expect(plans).toEqual([{ sessionId: 's1', update: { sessionUpdate: 'plan', entries: [
      { content: 'Read the code', priority: 'medium', status: 'completed' },
      { content: 'Fix the bug', priority: 'high', status: 'in_progress' },
      { content: 'Rewrite it all', priority: 'medium', status: 'completed', _meta: { toolnorm: { status: 'cancelled' } } },
    ], _meta: { toolnorm: { partId: 't1' } } } }]);
    // Right after the todo call's own frames.
    const i = frames.findIndex((f) => f.update.sessionUpdate === 'plan');
    expect(frames[i - 1]!.update.toolCallId).toBe('t1');
  });

  it('a call waiting for its approval is pending, the approval in _meta; answered, it moves on', () => {
    const a1 = ofCall(frames, 'a1');
    expect(a1.map((u) => u.status).filter(Boolean)).toEqual(['pending']);
    const meta = Object.assign({}, ...a1.map((u) => (u._meta as { toolnorm?: { metadata?: object } } | undefined)?.toolnorm?.metadata ?? {})) as { approval?: { state: string; options?: unknown[] } };
    expect(meta.approval).toMatchObject({ state: 'pending', source: 'user', reason: 'rm outside the allow list' });
    expect(meta.approval!.options).toHaveLength(2);
    expect(held(frames, 'a3').status).toBe('completed');
    expect(held(frames, 'a2').status).toBe('failed');
  });

  it('decodes back to the parts (plan frames are not tool calls)', () => {
    const d = decodeFrames(frames);
    expect(d.diagnostics).toEqual([]);
    expect(d.parts).toEqual(JSON.parse(JSON.stringify(substanceParts())));
  });

  it('control: the same parts with their substance removed send no diff, no locations, no plan, and no pending for a waiting call', () => {
    const bare = substanceParts().map((p) => ({ ...p, metadata: {} }));
    const f = JSON.parse(JSON.stringify(encodeParts('s1', bare))) as Frame[];
    expect(f.some((x) => x.update.sessionUpdate === 'plan')).toBe(false);
    expect(JSON.stringify(f)).not.toMatch(/"diff"|"locations"/);
    expect(held(f, 'g1').kind).toBe('read');
    // a1 is still `started`: without the approval it is pending only as every started call is…
    expect(held(f, 'a1').status).toBe('pending');
    // …so the real control is a running call: it shows in_progress unless it waits for an approval.
    const running = { ...substanceParts().find((p) => p.id === 'a1')!, state: 'running' as const };
    expect(held(JSON.parse(JSON.stringify(encodeParts('s', [running]))) as Frame[], 'a1').status).toBe('pending');
    expect(held(JSON.parse(JSON.stringify(encodeParts('s', [{ ...running, metadata: {} }]))) as Frame[], 'a1').status).toBe('in_progress');
  });
});

describe('ACP plans over several todo calls', () => {
  // By hand: a whole plan, then a partial one (Claude's TaskUpdate/TaskCreate shape) seen on the
  // call's start and again on its completion, as a live stream shows it.
  const env = (partId: string, at: number) => ({ sessionId: 's1', partId, at, source: { provider: 'claude' } });
  const whole = { entries: [{ id: '1', content: 'Read the code', status: 'completed' }, { id: '2', content: 'Fix the bug', status: 'in_progress' }] };
  const partial = { entries: [{ id: '2', content: 'Fix the bug', status: 'completed' }, { content: 'Ship it', status: 'pending' }], partial: true };
  const events = [
    { type: 'tool.started', ...env('t1', 1), name: 'TodoWrite', kind: 'todo', title: 'Plan', input: {}, metadata: { plan: whole } },
    { type: 'tool.completed', ...env('t1', 2), output: { text: 'ok' } },
    { type: 'tool.started', ...env('t2', 3), name: 'TaskUpdate', kind: 'todo', title: 'Plan', input: {}, metadata: { plan: partial } },
    { type: 'tool.progress', ...env('t2', 4), message: 'working' },
    { type: 'tool.completed', ...env('t2', 5), output: { text: 'ok' } },
  ];
  const ndjson = events.map((e) => JSON.stringify(e)).join('\n') + '\n';

  it('a partial plan merges into the session plan by entry id, once however often its call is seen', () => {
    const plans = framesOf(1, ndjson).filter((f) => f.update.sessionUpdate === 'plan').map((f) => (f.update.entries as { content: string; status: string }[]).map((e) => `${e.content}:${e.status}`));
    expect(plans).toEqual([
      ['Read the code:completed', 'Fix the bug:in_progress'],
      ['Read the code:completed', 'Fix the bug:completed', 'Ship it:pending'],
    ]);
    // v2: the same plan id, so the second replaces the first.
    const v2 = framesOf(2, ndjson);
    expect(mergeV2(v2).plans.get('s1')).toHaveLength(3);
    for (const f of v2) expect(officialAcpV2Errors(f)).toEqual([]);
  });
});

describe('ACP v2 frames of typed substance', () => {
  const frames = framesOf(2);

  it('every frame validates against the official v2 schema; the plan is a plan_update that keeps cancelled', () => {
    for (const f of frames) expect(officialAcpV2Errors(f), JSON.stringify(f).slice(0, 300)).toEqual([]);
    const plan = frames.find((f) => f.update.sessionUpdate === 'plan_update')!;
    expect(plan.update.plan).toEqual({ type: 'items', planId: 's1', entries: [
      { content: 'Read the code', priority: 'medium', status: 'completed' },
      { content: 'Fix the bug', priority: 'high', status: 'in_progress' },
      { content: 'Rewrite it all', priority: 'medium', status: 'cancelled' },
    ] });
  });

  it('diffs are v2 {changes, patch} from metadata.files, and a v2 client\'s state decodes back to the parts', () => {
    const c = mergeV2(frames);
    expect(c.calls.get('e1')!.fields.content).toContainEqual(expect.objectContaining({ type: 'diff', changes: [{ operation: 'modify', path: `${CWD}/a.ts` }] }));
    expect(c.calls.get('a1')!.fields.status).toBe('pending');
    const d = decodeFrames(v1Snapshot(c));
    expect(d.diagnostics).toEqual([]);
    expect(d.parts).toEqual(JSON.parse(JSON.stringify(substanceParts())));
  });
});
