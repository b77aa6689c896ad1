// A ToolEvent stream carrying every kind of typed substance (metadata.files / command / search /
// plan / approval) for the output encoders' tests. Built by hand with the real builders of
// src/substance, because the adapters that fill these keys from recordings are changed in
// parallel; the events go through the real reducer and pipeline in every test that uses them.
import type { ToolEvent } from '../../src/contract/index.js';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { fileChange, toolPlan, unifiedDiff } from '../../src/substance/index.js';

export const CWD = '/work/repo';
const env = (partId: string, at: number) => ({ sessionId: 's1', partId, at, source: { provider: 'claude' as const } });
const done = (partId: string, at: number, text = 'ok'): ToolEvent => ({ type: 'tool.completed', ...env(partId, at), output: { text } });

export const SUBSTANCE: ToolEvent[] = [
  // An exact-string edit with a relative path: the builder anchors it on the cwd.
  { type: 'tool.started', ...env('e1', 1000), name: 'Edit', kind: 'file_edit', title: 'Editing a.ts', input: { any: 'provider input' }, metadata: { cwd: CWD, files: [fileChange({ path: 'a.ts', cwd: CWD, operation: 'modify', oldText: 'one\n', newText: 'two\n' })] } },
  done('e1', 1010),
  { type: 'tool.started', ...env('w1', 1100), name: 'Write', kind: 'file_write', title: 'Writing new.txt', input: {}, metadata: { files: [fileChange({ path: `${CWD}/new.txt`, operation: 'create', newText: 'hi\n' })] } },
  done('w1', 1110),
  // A patch (Codex apply_patch): a diff only, a deletion and a rename.
  { type: 'tool.started', ...env('x1', 1200), name: 'apply_patch', kind: 'file_edit', title: 'Patching 3 files', input: {}, metadata: { files: [
    fileChange({ path: `${CWD}/b.ts`, operation: 'modify', diff: unifiedDiff(`${CWD}/b.ts`, 'a\nb\nc\n', 'a\nB\nc\n')!.diff }),
    fileChange({ path: `${CWD}/gone.ts`, operation: 'delete', oldText: 'x\n' }),
    fileChange({ path: `${CWD}/c2.ts`, from: `${CWD}/c.ts`, operation: 'rename' }),
  ] } },
  done('x1', 1210),
  { type: 'tool.started', ...env('b1', 1300), name: 'Bash', kind: 'bash', title: 'Reading README.md', input: {}, metadata: { command: { command: 'cat README.md', cwd: CWD, description: 'Show the readme' } } },
  { type: 'tool.completed', ...env('b1', 1310), output: { text: '# readme' }, metadata: { command: { command: 'cat README.md', cwd: CWD, description: 'Show the readme', exitCode: 0 } } },
  { type: 'tool.started', ...env('g1', 1400), name: 'Glob', kind: 'file_read', title: 'Finding **/*.ts', input: {}, metadata: { search: { pattern: '**/*.ts', path: CWD, paths: [`${CWD}/a.ts`, `${CWD}/b.ts`], matches: 2 } } },
  done('g1', 1410, 'a.ts\nb.ts'),
  { type: 'tool.started', ...env('t1', 1500), name: 'TodoWrite', kind: 'todo', title: 'Updating the plan', input: {}, metadata: { plan: toolPlan([{ content: 'Read the code', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress', priority: 'high' }, { content: 'Rewrite it all', status: 'cancelled' }]) } },
  done('t1', 1510),
  // Approvals: one answered yes, one answered no (then denied), one still waiting at the end.
  { type: 'tool.started', ...env('a3', 1600), name: 'Bash', kind: 'bash', title: 'Listing files', input: {}, metadata: { command: { command: 'ls' } } },
  { type: 'tool.approval.requested', ...env('a3', 1601), approval: { state: 'pending', source: 'user' } },
  { type: 'tool.approval.resolved', ...env('a3', 1602), approval: { state: 'approved', source: 'user', optionId: 'allow_once' } },
  done('a3', 1610, 'a.ts'),
  { type: 'tool.started', ...env('a2', 1700), name: 'Write', kind: 'file_write', title: 'Writing secret.txt', input: {}, metadata: { files: [fileChange({ path: `${CWD}/secret.txt`, operation: 'create', newText: 's\n' })] } },
  { type: 'tool.approval.requested', ...env('a2', 1701), approval: { state: 'pending', source: 'user' } },
  { type: 'tool.approval.resolved', ...env('a2', 1702), approval: { state: 'denied', source: 'user', reason: 'not that file' } },
  { type: 'tool.failed', ...env('a2', 1703), error: { message: 'The user denied the write', code: 'denied' } },
  { type: 'tool.started', ...env('a1', 1800), name: 'Bash', kind: 'bash', title: 'Removing build/', input: {}, metadata: { command: { command: 'rm -rf build/' } } },
  { type: 'tool.approval.requested', ...env('a1', 1801), approval: { state: 'pending', source: 'user', reason: 'rm outside the allow list', options: [{ id: 'allow_once', name: 'Allow', kind: 'allow_once' }, { id: 'reject_once', name: 'Reject', kind: 'reject_once' }] } },
];

export const SUBSTANCE_NDJSON = `${SUBSTANCE.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** The parts of SUBSTANCE, through the real reducer. */
export const substanceParts = () => collect(eventsAdapter, [{ name: 'events', text: SUBSTANCE_NDJSON }], {}).parts;
