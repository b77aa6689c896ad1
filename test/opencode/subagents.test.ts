import { describe, expect, it } from 'vitest';
import { CHILD, completed, CWD, failed, run, partUpdated, pending, running, SES, sessionCreated, sse, toolPart } from '../helpers/opencode-lines.js';

const TASK_INPUT = { description: 'Find txt files', prompt: 'list them', subagent_type: 'general' };
const childPart = (id: string, state: Record<string, unknown>) => toolPart(id, 'glob', state, { sessionID: CHILD, messageID: 'msg_000000000009CCCCCCCCCCCCCC' });
const childSession = (more: Record<string, unknown> = {}) => sessionCreated(CHILD, { parentID: SES, title: 'Find txt files (@general subagent)', ...more });

describe('subagents: task parts and their child sessions', () => {
  it('SSE: the task gets metadata.childSessionId from metadata.sessionId; child calls get the task part as parent', () => {
    const meta = { parentSessionId: SES, sessionId: CHILD, model: { modelID: 'm', providerID: 'p' } };
    const seq = [
      sessionCreated(SES),
      partUpdated(toolPart('prt_task', 'task', pending())),
      childSession(),
      partUpdated(toolPart('prt_task', 'task', running(TASK_INPUT, { title: 'Find txt files', metadata: meta }))),
      partUpdated(childPart('prt_c1', pending())),
      partUpdated(childPart('prt_c1', failed({ pattern: '*.txt' }, 'ripgrep execution failed'))),
      partUpdated(toolPart('prt_task', 'task', completed(TASK_INPUT, `<task id="${CHILD}" state="completed">\n<task_result>\nok\n</task_result>\n</task>`, { metadata: meta }))),
    ];
    const r = run(sse(seq));
    const task = r.sessions.get(SES)![0]!;
    const child = r.sessions.get(CHILD)![0]!;
    expect(task).toMatchObject({ id: 'prt_task', kind: 'subagent', title: 'Find txt files', state: 'complete', metadata: { childSessionId: CHILD, task: { agent: 'general', model: { modelID: 'm', providerID: 'p' } } } });
    expect(child).toMatchObject({ id: 'prt_c1', state: 'error', metadata: { parentId: 'prt_task', cwd: CWD } });
    // The child's parent is known before its first event: no later patch-up was needed.
    const childEvents = r.events.filter((e) => e.partId === 'prt_c1');
    expect(childEvents.map((e) => e.type)).toEqual(['tool.started', 'tool.failed']);
    expect(childEvents[0]).toMatchObject({ metadata: { parentId: 'prt_task' } });
    expect(r.diagnostics).toEqual([]);
  });

  it('older output: the child id printed in the task output links a child export read earlier', () => {
    const childExport = { info: { id: CHILD, parentID: SES, title: 'Something else', directory: CWD }, messages: [{ info: { sessionID: CHILD }, parts: [childPart('prt_c2', completed({ pattern: '*' }, 'a.txt'))] }] };
    const runLine = { type: 'tool_use', timestamp: 5, sessionID: SES, part: toolPart('prt_t2', 'task', completed(TASK_INPUT, `done\n\n<task_metadata>\nsession_id: ${CHILD}\n</task_metadata>`, { metadata: { summary: [] } })) };
    const r = run([
      { name: 'child.json', text: JSON.stringify(childExport, null, 2) },
      { name: 'run.jsonl', text: JSON.stringify(runLine) },
    ]);
    expect(r.sessions.get(CHILD)![0]!.metadata?.parentId).toBe('prt_t2');
    expect(r.sessions.get(SES)![0]!.metadata?.childSessionId).toBe(CHILD);
    expect(r.events.filter((e) => e.partId === 'prt_c2').map((e) => e.type)).toEqual(['tool.started', 'tool.completed', 'tool.updated']);
  });

  it('no link in the task at all: the child session\'s parentID and title pick the task among parallel ones', () => {
    const taskA = toolPart('prt_ta', 'task', completed({ ...TASK_INPUT, description: 'Audit deps' }, 'ok'));
    const taskB = toolPart('prt_tb', 'task', completed(TASK_INPUT, 'ok'));
    const seq = [sessionCreated(SES), partUpdated(taskA), partUpdated(taskB), childSession(), partUpdated(childPart('prt_c3', completed({ pattern: '*' }, 'x')))];
    const r = run(sse(seq));
    expect(r.sessions.get(CHILD)![0]!.metadata?.parentId).toBe('prt_tb');
    const tasks = r.sessions.get(SES)!;
    expect(tasks.map((t) => [t.id, t.metadata?.childSessionId])).toEqual([['prt_ta', undefined], ['prt_tb', CHILD]]);
  });

  it('an ambiguous parentID fallback links nothing rather than guessing', () => {
    const taskA = toolPart('prt_ta', 'task', completed({ ...TASK_INPUT, description: 'One' }, 'ok'));
    const taskB = toolPart('prt_tb', 'task', completed({ ...TASK_INPUT, description: 'Two' }, 'ok'));
    const seq = [sessionCreated(SES), partUpdated(taskA), partUpdated(taskB), childSession({ title: 'Unrelated' }), partUpdated(childPart('prt_c4', completed({ pattern: '*' }, 'x')))];
    const r = run(sse(seq));
    expect(r.sessions.get(CHILD)![0]!.metadata?.parentId).toBeUndefined();
  });

  it('root sessions never get a parent', () => {
    const r = run(sse([sessionCreated(SES), partUpdated(toolPart('prt_root', 'bash', completed({ command: 'ls' }, '')))]));
    expect(r.parts[0]!.metadata?.parentId).toBeUndefined();
    expect(r.events.map((e) => e.type)).toEqual(['tool.started', 'tool.completed']);
  });
});
