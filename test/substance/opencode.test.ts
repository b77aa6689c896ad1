// Issue 31 acceptance for OpenCode: on every OpenCode recording (the shared corpus one file at a
// time, and every golden case of fixtures/opencode with its inputs and options; every form: /event
// and /global/event SSE, run JSON, exports, the messages API), the parts carry their typed
// substance. Edit and write parts have metadata.files with an operation (edits a diff), bash parts
// metadata.command, todo parts metadata.plan, search parts metadata.search, and approvals are typed.
// What is expected of each part is read from the raw recording (its OpenCode tool id and input),
// not from the adapter. Parts and events validate against the contract.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { collect, type InputFile } from '../../src/pipeline/collect.js';
import { issuesOfNormalizedToolPart, issuesOfToolEvent, type NormalizedToolPart } from '../../src/contract/index.js';
import { CORPUS, REPO_ROOT, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

type Obj = Record<string, unknown>;

interface Recording { name: string; inputs: InputFile[]; options: Obj }

const FIXTURES = join(REPO_ROOT, 'fixtures', 'opencode');
const read = (path: string): InputFile => ({ name: path.split('/').pop()!, text: readFileSync(path, 'utf8') });

function fixtureRecordings(): Recording[] {
  const out: Recording[] = [];
  for (const dir of readdirSync(FIXTURES).sort()) {
    const casePath = join(FIXTURES, dir, 'case.json');
    if (!statSync(join(FIXTURES, dir)).isDirectory()) continue;
    const c = JSON.parse(readFileSync(casePath, 'utf8')) as { goldens: { name: string; inputs: string[]; options?: Obj }[] };
    for (const g of c.goldens) out.push({ name: `fixtures/opencode/${dir}: ${g.name}`, inputs: g.inputs.map((i) => read(join(FIXTURES, dir, i))), options: g.options ?? {} });
  }
  return out;
}

const available = corpusAvailable();
const recordings: Recording[] = [
  ...(available ? corpusFiles('opencode', (n) => !n.endsWith('.md')).map((rel) => ({ name: rel, inputs: [read(join(CORPUS, rel))], options: {} })) : []),
  ...fixtureRecordings(),
];

/** The last state of every raw tool part, by part id: what OpenCode itself recorded. */
function rawParts(inputs: InputFile[]): Map<string, Obj> {
  const found = new Map<string, Obj>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Obj;
    if (o.type === 'tool' && typeof o.id === 'string' && o.state && typeof o.state === 'object') {
      found.set(o.id, o);
      return;
    }
    Object.values(o).forEach(walk);
  };
  for (const { text } of inputs) {
    const lines = text.split('\n').filter((l) => l.trim());
    const values = lines[0]!.startsWith('data:') ? lines.filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)) as unknown) : (() => {
      try {
        return [JSON.parse(text) as unknown];
      } catch {
        return lines.map((l) => JSON.parse(l) as unknown);
      }
    })();
    values.forEach(walk);
  }
  return found;
}

const EDITS = new Set(['edit', 'multiedit']);
const WRITES = new Set(['write']);
const PATCHES = new Set(['apply_patch', 'patch']);
const SEARCHES = new Set(['glob', 'grep', 'list', 'websearch', 'codesearch', 'webfetch']);
const TODOS = new Set(['todowrite', 'todoread']);
const HUNKED = /^--- .*\n\+\+\+ .*\n@@ /;

const counts = { recordings: 0, parts: 0, files: 0, editDiffs: 0, writes: 0, patchFiles: 0, patchDiffs: 0, bash: 0, exitCodes: 0, descriptions: 0, plans: 0, searches: 0, approvals: 0, approvalEvents: 0 };

describe('opencode substance on every recording', () => {
  it('has recordings of every kind', () => expect(recordings.length).toBeGreaterThan(10));

  it.each(recordings.map((r) => [r.name, r] as const))('%s', (_name, rec) => {
    const r = collect(opencodeAdapter, rec.inputs, rec.options);
    const raw = rawParts(rec.inputs);
    counts.recordings++;
    for (const e of r.events) {
      expect(issuesOfToolEvent(e), `${e.type} ${e.partId}`).toEqual([]);
      if (e.type === 'tool.approval.requested' || e.type === 'tool.approval.resolved') counts.approvalEvents++;
    }
    for (const p of r.parts as NormalizedToolPart[]) {
      counts.parts++;
      expect(issuesOfNormalizedToolPart(p), p.id).toEqual([]);
      const m = p.metadata ?? {};
      const part = raw.get(p.id);
      expect(part, `${p.id} is a part of the recording`).toBeDefined();
      const tool = String(part!.tool);
      const state = part!.state as Obj;
      const input = (state.input ?? {}) as Obj;
      const absolute = (path: string) => !m.cwd || path.startsWith('/');
      if (EDITS.has(tool) || WRITES.has(tool) || PATCHES.has(tool)) {
        expect(m.files?.length, `${p.id} (${tool}) has metadata.files`).toBeGreaterThan(0);
        for (const f of m.files ?? []) {
          counts.files++;
          expect(f.operation, `${p.id} ${f.path}`).toBeTruthy();
          expect(absolute(f.path), `${p.id} ${f.path} is absolute`).toBe(true);
          if (EDITS.has(tool)) {
            expect(f.diff, `${p.id} ${f.path} has a diff`).toMatch(HUNKED);
            expect(f.stats!.added + f.stats!.removed, `${p.id} stats`).toBeGreaterThan(0);
            counts.editDiffs++;
          }
          if (WRITES.has(tool)) {
            counts.writes++;
            expect(f.newText, `${p.id} keeps the written text`).toBe(input.content);
            // OpenCode says whether the file existed: a new file is a create, with its whole text as the diff.
            const exists = (state.metadata as Obj | undefined)?.exists;
            if (exists === false) expect(f).toMatchObject({ operation: 'create', oldText: null });
            if (exists === true) expect(f.operation).toBe('modify');
          }
          if (PATCHES.has(tool)) {
            counts.patchFiles++;
            if (f.diff) {
              expect(f.diff).toMatch(HUNKED);
              counts.patchDiffs++;
            }
          }
        }
        if (EDITS.has(tool) && typeof input.oldString === 'string') expect(m.files![0]).toMatchObject({ oldText: input.oldString, newText: input.newString });
      }
      if (tool === 'bash') {
        counts.bash++;
        expect(m.command?.command, `${p.id} has metadata.command`).toBe(String(input.command).trim());
        // The title is the command's (the shared rule), never the model's description.
        if (typeof input.description === 'string') {
          expect(m.command?.description).toBe(input.description);
          if (!String(input.command).includes(input.description)) expect(p.title).not.toBe(input.description);
          counts.descriptions++;
        }
        const meta = (state.metadata ?? {}) as Obj;
        if (state.status === 'completed' && 'exit' in meta) {
          expect(m.command?.exitCode, `${p.id} exit code`).toBe(meta.exit);
          counts.exitCodes++;
        }
      }
      if (TODOS.has(tool) && (tool === 'todowrite' || state.status === 'completed')) {
        const todos = (tool === 'todowrite' ? input.todos : (state.metadata as Obj).todos) as Obj[];
        expect(m.plan?.entries.map((e) => [e.content, e.status, e.priority]), `${p.id} has metadata.plan`).toEqual(todos.map((t) => [t.content, t.status, t.priority]));
        counts.plans++;
      }
      // A call failed straight from pending has no input: nothing says what it looked for.
      if (SEARCHES.has(tool) && Object.keys(input).length) {
        expect(m.search, `${p.id} (${tool}) has metadata.search`).toBeDefined();
        const what = input.pattern ?? input.query ?? input.url ?? input.path;
        if (what !== undefined) expect(Object.values(m.search!)).toContain(tool === 'list' ? m.search!.path : what);
        for (const path of m.search!.paths ?? []) expect(absolute(path), path).toBe(true);
        expect((m.search!.paths ?? []).length).toBeLessThanOrEqual(100);
        counts.searches++;
      }
      if (m.approval) {
        counts.approvals++;
        expect(['pending', 'approved', 'denied', 'expired']).toContain(m.approval.state);
        if (m.approval.state === 'denied') expect(p.state === 'error' && p.error.code, `${p.id} denied approval → denied error`).toBe('denied');
      }
      // A refusal always says who refused: the person or a rule.
      if (p.state === 'error' && p.error.code === 'denied') expect(m.approval?.state, `${p.id} denied has a typed approval`).toBe('denied');
    }
  });

  it.skipIf(!available)('run1 /event: the child session\'s call carries the task part as parentId, the task the child session', () => {
    const r = collect(opencodeAdapter, [read(join(CORPUS, 'opencode/captured/run1/events.sse'))]);
    const task = r.parts.find((p) => p.name === 'task')!;
    expect(task).toMatchObject({ id: 'prt_22b6eeccf0017oeUOqR3JidUn4', metadata: { childSessionId: 'ses_dd4911317ffe1eASlzLxiaBCwg' } });
    const child = r.sessions.get('ses_dd4911317ffe1eASlzLxiaBCwg')!;
    expect(child.map((p) => [p.id, p.name, p.metadata?.parentId])).toEqual([['prt_22b6eee4e001XgbPTYNCM9kGnl', 'glob', task.id]]);
  });

  it('prints the counts', () => {
    expect(counts.recordings).toBe(recordings.length);
    // Patches OpenCode recorded no unified diff for (hand-written fixtures) keep their files and
    // operations; their diff needs the shared apply_patch parser (docs/providers/opencode.md#substance).
    console.log(`opencode: ${counts.parts} parts in ${counts.recordings} recordings: ${counts.files} file changes (${counts.editDiffs} edit diffs, ${counts.writes} writes, ${counts.patchFiles} patch files of which ${counts.patchDiffs} with a diff), ${counts.bash} bash parts with command (${counts.exitCodes} exit codes, ${counts.descriptions} descriptions), ${counts.plans} todo parts with plan, ${counts.searches} with search, ${counts.approvals} typed approvals (${counts.approvalEvents} approval events)`);
    expect(counts.editDiffs).toBeGreaterThan(0);
    expect(counts.bash).toBeGreaterThan(0);
    expect(counts.plans).toBeGreaterThan(0);
    expect(counts.approvals).toBeGreaterThan(0);
  });
});
