// Every recording in ../shared/corpus/opencode, one file at a time (through the shared corpus runner)
// and all together. Expected counts and states come from a plain scan of the raw JSON (a deep walk
// for objects with type "tool"), not from the adapter.
import { describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart, type NormalizedToolPart } from '../../src/contract/index.js';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { ERROR_RULES } from '../../src/adapters/opencode/errors.js';
import { collect } from '../../src/pipeline/collect.js';
import { corpusAvailable } from '../helpers/corpus.js';
import { corpusSuite, readCorpus as read } from '../helpers/corpus-suite.js';

type Obj = Record<string, unknown>;
interface Scanned {
  id: string;
  tool: string;
  sessionID: string;
  status: string;
  state: Obj;
}

const DOCUMENTED = ['question', 'bash', 'read', 'glob', 'grep', 'edit', 'write', 'task', 'webfetch', 'todowrite', 'websearch', 'skill', 'apply_patch', 'execute', 'lsp', 'plan_exit', 'list', 'multiedit', 'patch', 'todoread', 'codesearch', 'batch'];

/** JSON values of a raw file: SSE data lines, JSON lines, or one document. */
function rawValues(text: string): unknown[] {
  const lines = text.split('\n').filter((l) => l.trim());
  if (lines[0]!.startsWith('data:')) return lines.filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)));
  try {
    return [JSON.parse(text)];
  } catch {
    return lines.map((l) => JSON.parse(l));
  }
}

/** The last-seen state of every tool part (by part.id), in document order. */
function scan(text: string): Map<string, Scanned> {
  const found = new Map<string, Scanned>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Obj;
    if (o.type === 'tool' && typeof o.id === 'string' && o.state && typeof o.state === 'object') {
      const state = o.state as Obj;
      found.set(o.id, { id: o.id, tool: String(o.tool), sessionID: String(o.sessionID), status: String(state.status), state });
      return;
    }
    Object.values(o).forEach(walk);
  };
  rawValues(text).forEach(walk);
  return found;
}

/** Our expectation for one recorded part, stated from OpenCode's own fields. */
function expected(s: Scanned): { state: NormalizedToolPart['state']; code?: string } {
  if (s.status === 'pending') return { state: 'started' };
  if (s.status === 'running') return { state: 'running' };
  if (s.status === 'error') return { state: 'error' };
  if (s.tool === 'invalid') return { state: 'error', code: 'unknown_tool' };
  const meta = (s.state.metadata ?? {}) as Obj;
  if (s.tool === 'bash' && meta.exit === null && /<shell_metadata>\s*User aborted the command/.test(String(s.state.output))) return { state: 'error', code: 'cancelled' };
  // The rule: a command that exited non-zero did not do what was asked, whatever status OpenCode stored.
  if (s.tool === 'bash' && typeof meta.exit === 'number' && meta.exit !== 0) return { state: 'error', code: 'exit_nonzero' };
  return { state: 'complete' };
}

const scans = new Map<string, Map<string, Scanned>>();
const scanOf = (rel: string, text: string) => scans.get(rel) ?? scans.set(rel, scan(text)).get(rel)!;

const { recordings: files } = corpusSuite({
  provider: 'opencode',
  adapter: opencodeAdapter,
  isRecording: (n) => !n.endsWith('.md'),
  // The collector lists parts session by session; the frames follow the stream, child sessions interleaved.
  acpOrder: 'id',
  checks: {
    'normalizes without an error diagnostic and without invalid events': ({ r }) => {
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(r.diagnostics.filter((d) => d.code === 'invalid_event' || d.code === 'malformed_line')).toEqual([]);
    },
    'gives one part per distinct tool part.id, and every part validates': ({ rel, text, r }) => {
      const scanned = scanOf(rel, text);
      expect(scanned.size).toBeGreaterThan(0);
      expect(r.parts.length).toBe(scanned.size);
      expect(new Set(r.parts.map((p) => p.id))).toEqual(new Set(scanned.keys()));
      for (const p of r.parts) expect(issuesOfNormalizedToolPart(p), p.id).toEqual([]);
    },
    'states match the recording (aborted, denied and invalid calls included)': ({ rel, text, r }) => {
      const byId = new Map(r.parts.map((p) => [p.id, p]));
      for (const s of scanOf(rel, text).values()) {
        const p = byId.get(s.id)!;
        const want = expected(s);
        expect(p.state, `${s.id} ${s.tool} ${s.status}`).toBe(want.state);
        if (want.code) expect(p.state === 'error' && p.error.code, s.id).toBe(want.code);
        if (s.status === 'error' && /user has specified a rule|rejected permission/.test(String(s.state.error))) expect(p.state === 'error' && p.error.code).toBe('denied');
        if (s.status === 'error') expect(p.state === 'error' && p.error.message).toBe(s.state.error);
        if (want.state === 'complete') expect((p as { output?: { text?: string } }).output?.text).toBe(s.state.output);
      }
    },
    'no documented tool has kind unknown; no title is empty, multi-line or the bare tool name': ({ r }) => {
      for (const p of r.parts) {
        const raw = String(p.metadata?.rawType);
        if (DOCUMENTED.includes(raw)) expect(p.kind, p.id).not.toBe('unknown');
        // A call to a missing tool takes the kind of the tool it asked for.
        const asked = String(p.metadata?.requestedTool);
        if (raw === 'invalid' && DOCUMENTED.includes(asked)) expect(p.kind, p.id).not.toBe('unknown');
        expect(p.title.trim(), p.id).not.toBe('');
        expect(p.title, p.id).not.toContain('\n');
        expect(p.title, p.id).not.toBe(raw);
      }
    },
    'child-session calls carry the task part that spawned them as parent': ({ rel, text, r }) => {
      const scanned = scanOf(rel, text);
      const byId = new Map(r.parts.map((p) => [p.id, p]));
      const taskOf = new Map<string, string>();
      for (const s of scanned.values()) {
        const child = (s.state.metadata as Obj | undefined)?.sessionId;
        if (s.tool === 'task' && typeof child === 'string') taskOf.set(child, s.id);
      }
      for (const s of scanned.values()) {
        const parent = taskOf.get(s.sessionID);
        if (parent) expect(byId.get(s.id)!.metadata?.parentId, s.id).toBe(parent);
        else expect(byId.get(s.id)!.metadata?.parentId, s.id).toBeUndefined();
      }
      for (const [child, task] of taskOf) expect(byId.get(task)!.metadata?.childSessionId).toBe(child);
    },
    'the error parts are exactly the calls that failed by the rule, by id': ({ rel, text, r }) => {
      const failed = [...scanOf(rel, text).values()].filter((x) => expected(x).state === 'error').map((x) => x.id);
      expect(r.parts.filter((p) => p.state === 'error').map((p) => p.id).sort()).toEqual(failed.sort());
    },
  },
});
const asInput = (rel: string) => ({ name: rel, text: read(rel) });

describe.skipIf(!corpusAvailable())('OpenCode corpus', () => {
  it('has the recordings the issue names (run JSON, both SSE streams, exports, messages API)', () => {
    const names = files.map((f) => f.split('/').pop());
    for (const n of ['run.jsonl', 'events.sse', 'global-events.sse', 'export.json', 'export-child.json', 'messages-api.json']) expect(names).toContain(n);
    expect(files.filter((f) => f.includes('/public/')).length).toBeGreaterThanOrEqual(2);
  });

  it('the recorded edge cases come out as the notes describe them', () => {
    const run1 = collect(opencodeAdapter, [asInput('opencode/captured/run1/events.sse')]).parts;
    const run2 = collect(opencodeAdapter, [asInput('opencode/captured/run2/events.sse')]).parts;
    const find = (parts: NormalizedToolPart[], f: (p: NormalizedToolPart) => boolean) => parts.find(f)!;
    expect(find(run1, (p) => p.metadata?.rawType === 'invalid')).toMatchObject({ name: 'no_such_tool', kind: 'unknown', state: 'error', error: { code: 'unknown_tool' } });
    expect(find(run1, (p) => p.name === 'task')).toMatchObject({ title: 'Find txt files', kind: 'subagent', state: 'complete' });
    expect(find(run1, (p) => p.name === 'read' && p.state === 'error')).toMatchObject({ error: { code: 'not_found' } });
    // A deny rule (`rm *`): denied, and the approval says a policy decided.
    expect(find(run2, (p) => p.metadata?.command?.description === 'Remove notes')).toMatchObject({
      title: 'rm -f notes.txt', state: 'error', error: { code: 'denied' },
      metadata: { command: { command: 'rm -f notes.txt' }, approval: { state: 'denied', source: 'policy' } },
    });
    expect(find(run2, (p) => p.metadata?.command?.description === 'Slow command')).toMatchObject({
      title: 'sleep 8 && echo late', state: 'error', error: { code: 'cancelled', message: 'User aborted the command' },
      metadata: { exitCode: null, command: { command: 'sleep 8 && echo late', exitCode: null } },
    });
    // run2's run.jsonl stops at idle, before the aborted bash's final update: that call is absent there.
    expect(collect(opencodeAdapter, [asInput('opencode/captured/run2/run.jsonl')]).parts.map((p) => p.title)).toEqual(['Reading pixel.png', 'rm -f notes.txt']);
  });

  it('the /global/event stream gives exactly the parts of the /event stream', () => {
    const direct = collect(opencodeAdapter, [asInput('opencode/captured/run1/events.sse')]);
    const global = collect(opencodeAdapter, [asInput('opencode/captured/run1/global-events.sse')]);
    expect(global.parts).toEqual(direct.parts);
  });

  it('an export and the child export, in either order, link the child call to the task part', () => {
    const parent = asInput('opencode/captured/run1/export.json');
    const child = asInput('opencode/captured/run1/export-child.json');
    for (const order of [[parent, child], [child, parent]]) {
      const r = collect(opencodeAdapter, order);
      const task = r.parts.find((p) => p.name === 'task')!;
      const childParts = r.sessions.get(String(task.metadata?.childSessionId))!;
      expect(childParts.length).toBe(1);
      expect(childParts[0]!.metadata?.parentId).toBe(task.id);
    }
  });

  it('a whole run directory at once: one part per distinct id across every form', () => {
    const run1 = files.filter((f) => f.includes('/run1/'));
    const distinct = new Set(run1.flatMap((f) => [...scan(read(f)).keys()]));
    const r = collect(opencodeAdapter, run1.map(asInput));
    expect(r.parts.length).toBe(distinct.size);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.parts.filter((p) => p.metadata?.parentId)).toHaveLength(1);
  });
});

describe.skipIf(!corpusAvailable())('OpenCode corpus: the failing calls by id', () => {
  const failing = (rel: string) => collect(opencodeAdapter, [asInput(rel)]).parts.filter((p) => p.state === 'error').map((p) => `${p.id}:${p.state === 'error' ? p.error.code : ''}`).sort();
  it('run1 and run2, every form', () => {
    const run1 = ['prt_22b6ee962001GMwavhfcKQVgrt:not_found', 'prt_22b6ee98f001jPK67VktMcH3UJ:tool_error', 'prt_22b6ee9bd001xcvfSh53cAAQZS:tool_error', 'prt_22b6eea2100135lWUvjO5jV3ti:unknown_tool', 'prt_22b6eed12001T3kPXizWaBiw3n:tool_error'];
    for (const f of ['run.jsonl', 'export.json', 'messages-api.json']) expect(failing(`opencode/captured/run1/${f}`), f).toEqual(run1);
    expect(failing('opencode/captured/run1/events.sse')).toEqual([...run1, 'prt_22b6eee4e001XgbPTYNCM9kGnl:tool_error'].sort());
    const run2 = ['prt_22b6f9924001p7JMm7zq51cP8e:denied', 'prt_22b6f992f001aE31ikF2qjCFhU:cancelled'];
    for (const f of ['events.sse', 'export.json']) expect(failing(`opencode/captured/run2/${f}`), f).toEqual(run2);
    // run.jsonl ends before the aborted bash's final update (corpus README).
    expect(failing('opencode/captured/run2/run.jsonl')).toEqual([run2[0]]);
  });
});

describe.skipIf(!corpusAvailable())('OpenCode error table', () => {
  // Rows whose source is a capture (CAP) are matched by a recorded error of the corpus, and that
  // call comes out with the row's code; the others name the binary or source they were read from.
  const errors = files.flatMap((rel) => [...scan(read(rel)).values()].filter((x) => x.status === 'error').map((x) => ({ rel, id: x.id, text: String(x.state.error) })));
  const recorded = ERROR_RULES.map((row, i) => ({ i, row })).filter(({ row }) => row.source.startsWith('CAP'));
  it('has recorded rows', () => expect(recorded.length).toBeGreaterThanOrEqual(2));
  it.each(recorded)('row $i ($row.code, $row.source) is matched by a recorded error with that code', ({ row }) => {
    const hits = errors.filter((e) => ERROR_RULES.find((r) => r.pattern.test(e.text)) === row);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      const p = collect(opencodeAdapter, [asInput(h.rel)]).parts.find((x) => x.id === h.id)!;
      expect(p.state === 'error' && p.error.code, `${h.rel} ${h.id}`).toBe(row.code);
    }
  });
});
