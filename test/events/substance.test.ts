// The reducer and the metadata budget on the typed substance keys: approvals live through their
// two events, files merge by path, and the budget never breaks a typed shape to fit.
import { describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart, type ToolEvent } from '../../src/contract/index.js';
import { createReducer, reduceAll } from '../../src/events/reducer.js';
import { projectParts } from '../../src/events/projector.js';
import { emptySessionState } from '../../src/events/state.js';
import { applyMetadataBudget } from '../../src/events/budget.js';

const env = (at: number) => ({ sessionId: 's', partId: 'p', at, source: { provider: 'claude' as const } });
const started: ToolEvent = { type: 'tool.started', ...env(1), name: 'Edit', kind: 'file_edit', title: 'Editing a.ts', input: {} };

describe('approvals', () => {
  it('requested shows pending live (the state stays started); resolved keeps the request time and options; then the denial fails the part', () => {
    const events: ToolEvent[] = [
      started,
      { type: 'tool.approval.requested', ...env(5), approval: { state: 'pending', source: 'user', reason: 'writes outside the project', options: [{ id: 'allow', kind: 'allow_once' }, { id: 'reject', kind: 'reject_once' }] } },
    ];
    let [p] = projectParts(reduceAll(events, emptySessionState()));
    expect(p!.state).toBe('started');
    expect(p!.metadata?.approval).toEqual({ state: 'pending', source: 'user', reason: 'writes outside the project', at: 5, options: [{ id: 'allow', kind: 'allow_once' }, { id: 'reject', kind: 'reject_once' }] });
    events.push(
      { type: 'tool.approval.resolved', ...env(9), approval: { state: 'denied', source: 'user', optionId: 'reject' } },
      { type: 'tool.failed', ...env(9), error: { message: 'The user denied it', code: 'denied' } },
    );
    [p] = projectParts(reduceAll(events, emptySessionState()));
    expect(p!.state).toBe('error');
    expect(p!.metadata?.approval).toEqual({ state: 'denied', source: 'user', optionId: 'reject', at: 9, requestedAt: 5, reason: 'writes outside the project', options: [{ id: 'allow', kind: 'allow_once' }, { id: 'reject', kind: 'reject_once' }] });
    expect(issuesOfNormalizedToolPart(p!)).toEqual([]);
  });

  it('a request after the end is late (a warning, the part unchanged); an answer after the end is kept', () => {
    const done: ToolEvent[] = [started, { type: 'tool.completed', ...env(2) }];
    const late = reduceAll([...done, { type: 'tool.approval.requested', ...env(3), approval: { state: 'pending', source: 'user' } }], emptySessionState());
    expect(projectParts(late)[0]!.metadata?.approval).toBeUndefined();
    expect(late.diagnosticCount).toBe(1);
    const answered = reduceAll([...done, { type: 'tool.approval.resolved', ...env(3), approval: { state: 'approved', source: 'policy' } }], emptySessionState());
    expect(projectParts(answered)[0]!.metadata?.approval).toEqual({ state: 'approved', source: 'policy', at: 3 });
  });
});

describe('files', () => {
  it('entries merge by path across events: a later entry refines an earlier one, a new path is appended', () => {
    const parts = projectParts(reduceAll([
      { ...started, metadata: { files: [{ path: '/w/a', operation: 'modify', diff: '--- /w/a\n+++ /w/a\n@@ -1 +1 @@\n-x\n+y\n' }] } },
      { type: 'tool.completed', ...env(2), metadata: { files: [{ path: '/w/a', operation: 'modify', stats: { added: 1, removed: 1 } }, { path: '/w/b', operation: 'create' }] } },
    ], emptySessionState()));
    expect(parts[0]!.metadata?.files).toEqual([
      { path: '/w/a', operation: 'modify', diff: '--- /w/a\n+++ /w/a\n@@ -1 +1 @@\n-x\n+y\n', stats: { added: 1, removed: 1 } },
      { path: '/w/b', operation: 'create' },
    ]);
  });
});

describe('the budget on typed keys', () => {
  const big = 'x'.repeat(3000);
  it('open keys go first; then a diff whose texts are whole; then the longest text; every step leaves a valid part', () => {
    const metadata = {
      provider: 'claude' as const,
      blob: { raw: big },
      files: [{ path: '/w/a', operation: 'modify' as const, oldText: big, newText: `${big}y`, diff: `--- /w/a\n+++ /w/a\n@@ -1 +1 @@\n-${big}\n+${big}y\n` }],
    };
    const r = applyMetadataBudget(metadata, 8000);
    expect(r.truncated.map((t) => t.path)).toEqual(['/metadata/blob', '/metadata/files/0/diff']);
    expect(r.metadata.files![0]!.newText).toBe(`${big}y`);
    const tight = applyMetadataBudget(metadata, 4000);
    expect(tight.truncated.map((t) => t.path)).toEqual(['/metadata/blob', '/metadata/files/0/diff', '/metadata/files/0/newText']);
    expect(tight.metadata.files![0]).toMatchObject({ path: '/w/a', operation: 'modify', oldText: big });
    expect(tight.metadata.files![0]!.newText).toMatch(/^\[omitted by toolnorm: \d+ bytes\]$/);
    for (const m of [r.metadata, tight.metadata]) {
      expect(issuesOfNormalizedToolPart({ id: 'p', name: 'Edit', kind: 'file_edit', title: 't', input: {}, state: 'started', metadata: m })).toEqual([]);
    }
  });

  it('many small entries: the last entries of the longest list go, each noted, and the list keeps its shape', () => {
    const files = Array.from({ length: 400 }, (_, i) => ({ path: `/w/file-${i}.txt`, operation: 'create' as const }));
    const reducer = createReducer({ metadataLimitBytes: 4096 });
    const [p] = projectParts(reduceAll([{ ...started, metadata: { files } }], emptySessionState(), reducer));
    const kept = p!.metadata!.files!;
    expect(kept.length).toBeLessThan(400);
    expect(kept).toEqual(files.slice(0, kept.length));
    expect(Buffer.byteLength(JSON.stringify(p!.metadata))).toBeLessThanOrEqual(4096);
    const notes = p!.metadata!.truncated!;
    expect(notes).toHaveLength(1);
    expect(notes[0]!.path).toBe(`/metadata/files/${kept.length}`);
    expect(notes[0]!.reason).toContain(`${400 - kept.length} entries removed from the list`);
    expect(notes[0]!.originalBytes).toBe(files.slice(kept.length).reduce((n, f) => n + Buffer.byteLength(JSON.stringify(f)), 0));
    expect(issuesOfNormalizedToolPart(p!)).toEqual([]);
  });
});
