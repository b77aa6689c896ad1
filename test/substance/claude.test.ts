// Typed substance over every Claude Code recording: the corpus (captured and public) and the
// repository's own Claude fixtures. Each check is stated against the raw input of the part (its
// `input` and structured output), not against what the adapter computed elsewhere.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { isNormalizedToolPart, isToolEvent, type FileChange, type NormalizedToolPart, type ToolApproval } from '../../src/contract/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { hunkTexts, isAbsolutePath } from '../../src/substance/index.js';
import { CORPUS, REPO_ROOT, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

type Obj = Record<string, unknown>;

const FILE_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit']);
const OPERATIONS = new Set(['create', 'modify', 'delete', 'rename', 'unchanged']);
const APPROVAL_STATES = new Set(['pending', 'approved', 'denied', 'expired']);

function fixtureFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(join(REPO_ROOT, 'fixtures', 'claude'));
  for (const name of readdirSync(join(REPO_ROOT, 'fixtures', 'demo')).sort()) if (name.startsWith('claude-') && name.endsWith('.jsonl')) out.push(join(REPO_ROOT, 'fixtures', 'demo', name));
  return out;
}

const available = corpusAvailable();
const recordings = [
  ...(available ? corpusFiles('claude', (n) => n.endsWith('.jsonl') || n.endsWith('.json')).map((rel) => join(CORPUS, rel)) : []),
  ...fixtureFiles(),
];

const meta = (p: NormalizedToolPart) => (p.metadata ?? {}) as Obj;
const input = (p: NormalizedToolPart) => (p.input ?? {}) as Obj;
const structured = (p: NormalizedToolPart) => ((p as { output?: { structured?: unknown } }).output?.structured ?? undefined) as Obj | undefined;
const errorCode = (p: NormalizedToolPart) => (p as { error?: { code?: string } }).error?.code;

const counts = { files: 0, diffs: 0, bash: 0, plans: 0, approvals: 0, recordings: 0 };

function checkFiles(p: NormalizedToolPart, where: string): void {
  const args = input(p);
  const path = (args.file_path ?? args.notebook_path) as string | undefined;
  // A call whose input names no file (a malformed or unfinished one) has nothing to say.
  if (typeof path !== 'string' || path === '') return;
  const files = meta(p).files as FileChange[] | undefined;
  expect(files, `${where}: ${p.name} has metadata.files`).toBeDefined();
  expect(files, `${where}: one entry for its one path`).toHaveLength(1);
  const f = files![0]!;
  counts.files++;
  expect(OPERATIONS.has(f.operation), `${where}: operation ${f.operation}`).toBe(true);
  expect(isAbsolutePath(f.path) || !meta(p).cwd, `${where}: ${f.path} is absolute (the cwd is known)`).toBe(true);
  expect(f.path.endsWith(path.replace(/^\.\//, '')), `${where}: ${f.path} is the input's ${path}`).toBe(true);
  if (f.diff) counts.diffs++;
  if (EDIT_TOOLS.has(p.name)) {
    expect(f.diff, `${where}: an edit has a diff`).toBeDefined();
    const texts = hunkTexts(f.diff!)!;
    const patch = structured(p)?.structuredPatch;
    if (p.state === 'complete' && Array.isArray(patch) && patch.length) {
      // The provider's patch, with the file's line numbers, is the diff's body.
      const body = f.diff!.split('\n').filter((l) => !l.startsWith('--- ') && !l.startsWith('+++ ') && !l.startsWith('@@') && l !== '');
      expect(body, `${where}: the diff is the structuredPatch`).toEqual((patch as { lines: string[] }[]).flatMap((h) => h.lines).filter((l) => l !== ''));
      return;
    }
    // Otherwise the diff shows every edit of the input: its old snippet removed (or kept as context) and its new one added.
    const edits = (p.name === 'Edit' ? [args] : (args.edits as Obj[])) ?? [];
    for (const e of edits) {
      expect(texts.oldText, `${where}: the diff holds the old snippet`).toContain(String(e.old_string).split('\n')[0]);
      expect(texts.newText, `${where}: the diff holds the new snippet`).toContain(String(e.new_string).split('\n')[0]);
    }
  }
  if (p.name === 'Write') {
    const result = structured(p);
    if (p.state === 'complete' && result?.type === 'create') {
      expect(f.operation, `${where}: Write that created its file`).toBe('create');
      expect(f.newText).toBe(args.content);
      expect(f.diff, `${where}: a created file has a diff`).toMatch(/^--- \/dev\/null\n/);
    } else {
      expect(f.operation, where).toBe('modify');
    }
  }
}

function checkCommand(p: NormalizedToolPart, where: string): void {
  const args = input(p);
  if (typeof args.command !== 'string' || args.command.trim() === '') return;
  const command = meta(p).command as Obj | undefined;
  expect(command, `${where}: Bash has metadata.command`).toBeDefined();
  counts.bash++;
  expect(command!.command).toBe(args.command);
  if (typeof args.description === 'string' && args.description.trim()) {
    expect(command!.description).toBe(args.description);
    // The title comes from the command; the description alone would only match by accident.
    if (args.description !== args.command) expect(p.title, `${where}: the description is not the title`).not.toBe(args.description);
  }
  if (args.run_in_background === true) expect(command!.background).toBe(true);
  if (errorCode(p) === 'exit_nonzero') expect(command!.exitCode, where).toBe(meta(p).exitCode);
}

function checkPlan(p: NormalizedToolPart, where: string): void {
  const todos = input(p).todos;
  if (!Array.isArray(todos)) return;
  const plan = meta(p).plan as { entries: Obj[] } | undefined;
  expect(plan, `${where}: TodoWrite has metadata.plan`).toBeDefined();
  counts.plans++;
  const shown = todos.filter((t) => typeof (t as Obj)?.content === 'string' && String((t as Obj).content).trim() !== '');
  expect(plan!.entries.map((e) => e.content)).toEqual(shown.map((t) => (t as Obj).content));
}

function checkApproval(p: NormalizedToolPart, where: string): void {
  const a = meta(p).approval as ToolApproval | undefined;
  if (errorCode(p) === 'denied') expect(a?.state, `${where}: a denied call has a denied approval`).toBe('denied');
  if (!a) return;
  counts.approvals++;
  expect(APPROVAL_STATES.has(a.state), where).toBe(true);
  if (a.state === 'denied') expect(errorCode(p), `${where}: a denied approval ends denied`).toBe('denied');
}

describe('claude: typed substance on every recording', () => {
  it('has recordings to check', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(available ? 20 : 8);
  });

  it.each(recordings.map((f) => [relative(REPO_ROOT, f).replace(/^\.\.\/shared\//, ''), f]))('%s', (_name, file) => {
    const r = collect(claudeAdapter, [{ name: file.split('/').pop()!, text: readFileSync(file, 'utf8') }]);
    counts.recordings++;
    for (const e of r.events) if (e.type.startsWith('tool.approval.')) expect(isToolEvent(e), `${file}: ${e.type} validates`).toBe(true);
    for (const p of r.parts) {
      const where = `${file.split('/').pop()} ${p.id}`;
      expect(isNormalizedToolPart(p), `${where} validates`).toBe(true);
      if (FILE_TOOLS.has(p.name)) checkFiles(p, where);
      if (p.name === 'Bash' || p.name === 'PowerShell') checkCommand(p, where);
      if (p.name === 'TodoWrite') checkPlan(p, where);
      checkApproval(p, where);
    }
  });

  it('prints the counts, and they are not vacuous', () => {
    console.log(`claude: ${counts.files} edit/write parts with files (${counts.diffs} diffs), ${counts.bash} bash with command, ${counts.plans} todo with plan, ${counts.approvals} approvals (${counts.recordings} recordings)`);
    expect(counts.recordings).toBe(recordings.length);
    expect(counts.files).toBeGreaterThan(0);
    expect(counts.diffs).toBeGreaterThan(0);
    expect(counts.bash).toBeGreaterThan(0);
    expect(counts.approvals).toBeGreaterThan(0);
    if (available) expect(counts.plans).toBeGreaterThan(0);
  });
});
