// Synthetic sessions for the viewer suites, as ToolEvent NDJSON (what `normalize --to events`
// prints and `view --from events` reads): a hostile one, a compressible one, and a large nested one.
import type { ToolEvent } from '../../src/contract/index.js';

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
