// Synthetic sessions for the viewer suites, as ToolEvent NDJSON (what `normalize --to events`
// prints and `view --from events` reads): a hostile one, a compressible one, and a large nested one.
import { issuesOfToolEvent, type ToolEvent } from '../../src/contract/index.js';
import { fileChange, toolPlan } from '../../src/substance/index.js';

const src = (line: number) => ({ provider: 'claude' as const, line });

/** Strings that would run script or break out of the page if they were ever treated as markup. */
export const HOSTILE = {
  title: '<img src=x onerror="window.__pwned=1">Reading </script><script>window.__pwned=2</script>',
  output: '</script><script>window.__pwned=3</script><!-- <svg onload="window.__pwned=4"> \u2028\u2029 & &amp; "\'`${x}`',
  error: '<b onmouseover="window.__pwned=5">boom</b></textarea></style></title>',
  input: { command: '"><iframe src="https://example.com/"></iframe>', path: 'javascript:window.__pwned=6' },
  parentId: '"><script>window.__pwned=7</script>',
};

export function hostileEvents(): ToolEvent[] {
  const s = { sessionId: 'sess-<script>x</script>' };
  return [
    { type: 'tool.started', ...s, partId: 'p1<script>', at: 1000, source: src(1), name: 'Bash<i>', kind: 'bash', title: HOSTILE.title, input: HOSTILE.input, metadata: { provider: 'claude', rawType: '<script>alert(1)</script>' } },
    { type: 'tool.completed', ...s, partId: 'p1<script>', at: 2000, source: src(2), output: { text: HOSTILE.output } },
    { type: 'tool.started', ...s, partId: 'p2', at: 1500, source: src(3), name: 'Read', kind: 'file_read', title: 'child of a hostile parent', input: {}, metadata: { provider: 'claude', parentId: 'p1<script>' } },
    { type: 'tool.failed', ...s, partId: 'p2', at: 1800, source: src(4), error: { message: HOSTILE.error, code: '<code>' } },
    { type: 'tool.started', ...s, partId: 'p3', at: 1600, source: src(5), name: 'Read', kind: 'file_read', title: 'orphan', input: {}, metadata: { provider: 'claude', parentId: HOSTILE.parentId } },
  ] as ToolEvent[];
}

/** A Claude Bash part whose output is over the 30,000-byte default budget, and a small one. */
export function compressibleEvents(lines = 5000): { events: ToolEvent[]; fullText: string } {
  const fullText = Array.from({ length: lines }, (_, i) => `line ${i} of the build log: compiling module ${i % 97}`).join('\n');
  const s = { sessionId: 'sess-big' };
  const events = [
    { type: 'tool.started', ...s, partId: 'big', at: 1000, source: src(1), name: 'Bash', kind: 'bash', title: 'Build everything', input: { command: 'make' }, metadata: { provider: 'claude' } },
    { type: 'tool.completed', ...s, partId: 'big', at: 5000, source: src(2), output: { text: fullText } },
    { type: 'tool.started', ...s, partId: 'small', at: 1200, source: src(3), name: 'Bash', kind: 'bash', title: 'Say hi', input: { command: 'echo hi' }, metadata: { provider: 'claude' } },
    { type: 'tool.completed', ...s, partId: 'small', at: 1300, source: src(4), output: { text: 'hi\n' } },
  ] as ToolEvent[];
  return { events, fullText };
}

const KINDS = ['bash', 'file_read', 'file_edit', 'web_search', 'mcp'] as const;

/**
 * `count` parts in pre-order: every 50th part is a subagent whose next 20 parts are its children;
 * every 13th part fails. Ids are `part-<index>` so a test can name the row at any position.
 */
export function largeSessionEvents(count: number): ToolEvent[] {
  const out: ToolEvent[] = [];
  let parent: string | undefined;
  let childrenLeft = 0;
  for (let i = 0; i < count; i++) {
    const id = `part-${i}`;
    const isSub = i % 50 === 0;
    const kind = isSub ? 'subagent' : KINDS[i % KINDS.length]!;
    const at = 1_764_489_600_000 + i * 40;
    const metadata: Record<string, unknown> = { provider: 'claude' };
    if (!isSub && childrenLeft > 0 && parent) {
      metadata.parentId = parent;
      childrenLeft--;
    }
    const env = { sessionId: 'sess-large', partId: id, source: src(i * 2 + 1) };
    out.push({ type: 'tool.started', ...env, at, name: kind, kind, title: `Step ${i} ${kind}`, input: { n: i }, metadata } as ToolEvent);
    out.push(i % 13 === 0 && !isSub
      ? ({ type: 'tool.failed', ...env, at: at + 120, error: { message: `failure ${i}`, code: 'exit_nonzero' } } as ToolEvent)
      : ({ type: 'tool.completed', ...env, at: at + (isSub ? 900 : 120), output: { text: `output of ${i}` } } as ToolEvent));
    if (isSub) {
      parent = id;
      childrenLeft = 20;
    }
  }
  return out;
}

export const ndjson = (events: readonly unknown[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

/** Three parts whose parentIds form a loop (bad input), and one outside it. */
export function loopEvents(): ToolEvent[] {
  const s = { sessionId: 'sess-loop' };
  const part = (id: string, parentId: string | undefined, at: number): ToolEvent[] => [
    { type: 'tool.started', ...s, partId: id, at, source: src(at), name: 'Task', kind: 'subagent', title: `Part ${id}`, input: {}, metadata: { provider: 'claude', ...(parentId ? { parentId } : {}) } },
    { type: 'tool.completed', ...s, partId: id, at: at + 1, source: src(at + 1), output: { text: id } },
  ] as ToolEvent[];
  return [...part('a', 'c', 10), ...part('b', 'a', 20), ...part('c', 'b', 30), ...part('d', undefined, 40)];
}

/**
 * Calls with the contract's typed substance (metadata.command, files, plan, approval), built by
 * hand with the library's own builders: main's adapters do not fill metadata.files yet, and the
 * corpus holds no unanswered approval. Every event is checked against the contract's validator
 * (`issuesOfToolEvent`) before a test uses it.
 */
export const SUBSTANCE = {
  session: 'sess-substance',
  cwd: '/work/proj',
  /** The edit's text: markup in a diff must show as text. */
  hostileNew: 'const x = "<script>window.__pwned=8</script>";\n<img src=x onerror="window.__pwned=9">\n',
  /** Over the 16 KiB metadata budget, so the reducer replaces this diff by its size marker. */
  hugeLines: 2000,
};

export function substanceEvents(): ToolEvent[] {
  const s = { sessionId: SUBSTANCE.session };
  const meta = (extra: Record<string, unknown>) => ({ provider: 'claude', cwd: SUBSTANCE.cwd, ...extra });
  const edit = fileChange({ path: 'src/app.ts', cwd: SUBSTANCE.cwd, operation: 'modify', oldText: 'const x = 1;\nkeep();\n', newText: `${SUBSTANCE.hostileNew}keep();\n` });
  const created = fileChange({ path: 'README.md', cwd: SUBSTANCE.cwd, operation: 'create', newText: 'hello\nworld\n' });
  const huge = fileChange({
    path: 'big.txt', cwd: SUBSTANCE.cwd, operation: 'modify',
    diff: ['--- /work/proj/big.txt', '+++ /work/proj/big.txt', `@@ -1,0 +1,${SUBSTANCE.hugeLines} @@`, ...Array.from({ length: SUBSTANCE.hugeLines }, (_, i) => `+added line ${i} of a long generated file`)].join('\n'),
  });
  const plan = toolPlan([
    { content: 'Read the spec', status: 'completed' },
    { content: 'Write the <b>parser</b>', status: 'in_progress', priority: 'high' },
    { content: 'Ship it', status: 'pending', priority: 'low' },
    { content: 'Old idea', status: 'cancelled' },
  ]);
  const started = (partId: string, at: number, name: string, kind: string, title: string, input: unknown, metadata: Record<string, unknown>): ToolEvent =>
    ({ type: 'tool.started', ...s, partId, at, source: src(at), name, kind, title, input, metadata: meta(metadata) } as ToolEvent);
  const done = (partId: string, at: number, text: string): ToolEvent => ({ type: 'tool.completed', ...s, partId, at, source: src(at), output: { text } } as ToolEvent);
  const approval = (type: 'tool.approval.requested' | 'tool.approval.resolved', partId: string, at: number, a: Record<string, unknown>): ToolEvent =>
    ({ type, ...s, partId, at, source: src(at), approval: a } as unknown as ToolEvent);
  const options = [{ id: 'allow', name: 'Allow once', kind: 'allow_once' }, { id: 'reject', name: 'Reject', kind: 'reject_once' }];
  const events: ToolEvent[] = [
    started('cmd', 1000, 'Bash', 'bash', 'Reading README.md', { command: 'ignored: the viewer reads metadata.command' }, { command: { command: 'cat README.md', description: 'Show the readme', exitCode: 0 } }),
    done('cmd', 1100, 'hello\n'),
    started('edit', 1200, 'Edit', 'file_edit', 'Edit src/app.ts', {}, { files: [edit] }),
    done('edit', 1300, 'ok'),
    started('write', 1400, 'Write', 'file_write', 'Write README.md', {}, { files: [created] }),
    done('write', 1450, 'ok'),
    started('huge', 1460, 'Edit', 'file_edit', 'Edit big.txt', {}, { files: [huge] }),
    done('huge', 1500, 'ok'),
    started('plan', 1600, 'TodoWrite', 'todo', 'Update the plan', {}, { plan }),
    done('plan', 1610, 'ok'),
    started('wait', 1700, 'Bash', 'bash', 'rm -rf build', {}, { command: { command: 'rm -rf build' } }),
    approval('tool.approval.requested', 'wait', 1710, { state: 'pending', source: 'user', reason: 'deletes files', options }),
    started('ok', 1800, 'Bash', 'bash', 'make', {}, { command: { command: 'make' } }),
    approval('tool.approval.requested', 'ok', 1810, { state: 'pending', source: 'user', options }),
    approval('tool.approval.resolved', 'ok', 1820, { state: 'approved', source: 'user', optionId: 'allow' }),
    done('ok', 1900, 'built'),
    started('no', 2000, 'Bash', 'bash', 'curl evil.test', {}, { command: { command: 'curl evil.test' } }),
    approval('tool.approval.requested', 'no', 2010, { state: 'pending', source: 'user', options }),
    approval('tool.approval.resolved', 'no', 2020, { state: 'denied', source: 'user', optionId: 'reject' }),
    { type: 'tool.failed', ...s, partId: 'no', at: 2030, source: src(2030), error: { code: 'denied', message: 'The user denied the call' } } as ToolEvent,
    started('late', 2100, 'Bash', 'bash', 'sleep 1', {}, { command: { command: 'sleep 1' } }),
    approval('tool.approval.requested', 'late', 2110, { state: 'pending', source: 'policy' }),
    approval('tool.approval.resolved', 'late', 2120, { state: 'expired', source: 'policy', reason: 'the turn ended' }),
  ];
  for (const e of events) {
    const issues = issuesOfToolEvent(e);
    if (issues.length) throw new Error(`substanceEvents: ${e.type} ${e.partId} breaks the contract: ${JSON.stringify(issues)}`);
  }
  return events;
}
