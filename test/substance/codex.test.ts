// Issue 31 acceptance for Codex: on every Codex recording (the shared corpus and fixtures/codex,
// every form: exec JSONL, app-server, rollouts), the parts carry their typed substance. Every
// edit/write part has metadata.files with an operation, and a diff for each modified file whose
// recording holds the change's text; every bash part has metadata.command; every todo part has
// metadata.plan; approvals are typed. Parts and events validate against the contract.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { validateNormalizedToolPart, validateToolEvent, type NormalizedToolPart } from '../../src/contract/index.js';
import { CORPUS, REPO_ROOT, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

function fixtureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...fixtureFiles(p));
    else if (name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

const available = corpusAvailable();
const files = [
  ...(available ? corpusFiles('codex', (n) => n.endsWith('.jsonl')).map((rel) => join(CORPUS, rel)) : []),
  ...fixtureFiles(join(REPO_ROOT, 'fixtures', 'codex')),
];

/**
 * Bash parts that run no command of their own: `write_stdin` writes to (or, with no chars, polls)
 * a command an earlier `exec_command` started, named by its session id.
 */
const NO_COMMAND = new Set(['write_stdin']);
const EDIT_KINDS = new Set(['file_edit', 'file_write']);

interface Counts { edits: number; withFiles: number; diffs: number; modified: number; bash: number; commands: number; exitCodes: number; todo: number; plans: number; searches: number; approvals: number; approvalEvents: number }

describe('codex substance on every recording', () => {
  const counts: Counts = { edits: 0, withFiles: 0, diffs: 0, modified: 0, bash: 0, commands: 0, exitCodes: 0, todo: 0, plans: 0, searches: 0, approvals: 0, approvalEvents: 0 };
  const seen: string[] = [];

  it.each(files.map((f) => [relative(REPO_ROOT, f).startsWith('..') ? relative(CORPUS, f) : relative(REPO_ROOT, f), f]))('%s', (_name, file) => {
    const r = collect(codexAdapter, [{ name: file.split('/').pop()!, text: readFileSync(file, 'utf8') }]);
    seen.push(file);
    for (const e of r.events) expect(validateToolEvent(e), `${e.type} ${e.partId} validates`).toBe(true);
    for (const e of r.events) if (e.type === 'tool.approval.requested' || e.type === 'tool.approval.resolved') counts.approvalEvents++;
    for (const p of r.parts as NormalizedToolPart[]) {
      expect(validateNormalizedToolPart(p), `${p.id} validates`).toBe(true);
      const m = p.metadata ?? {};
      if (EDIT_KINDS.has(p.kind)) {
        counts.edits++;
        expect(m.files?.length, `${p.id} (${p.kind}) has metadata.files`).toBeGreaterThan(0);
        counts.withFiles++;
        for (const f of m.files ?? []) {
          expect(f.operation, `${p.id} ${f.path}`).toBeTruthy();
          expect(f.path.startsWith('/'), `${p.id} ${f.path} is absolute`).toBe(true);
          // Every form that reports an edit carries its text (exec reports only an added file's path).
          if (f.operation === 'modify' || f.operation === 'rename') {
            counts.modified++;
            expect(f.diff, `${p.id} ${f.path} has a diff`).toMatch(/^--- .*\n\+\+\+ .*\n@@ /);
            expect(f.stats, `${p.id} ${f.path} stats`).toBeDefined();
          }
          if (f.diff) counts.diffs++;
        }
      }
      if (p.kind === 'bash' && !NO_COMMAND.has(p.name)) {
        counts.bash++;
        expect(m.command?.command, `${p.id} (${p.name}) has metadata.command`).toBeTruthy();
        counts.commands++;
        if (p.state !== 'running' && m.exitCode !== undefined) {
          expect(m.command?.exitCode, `${p.id} exit code`).toBe(m.exitCode);
          counts.exitCodes++;
        }
      }
      if (p.kind === 'todo') {
        counts.todo++;
        expect(m.plan, `${p.id} (${p.name}) has metadata.plan`).toBeDefined();
        counts.plans++;
      }
      if (m.search) counts.searches++;
      if (m.approval) {
        counts.approvals++;
        expect(['pending', 'approved', 'denied', 'expired']).toContain(m.approval.state);
        if (m.approval.state === 'denied') expect((p as { error?: { code: string } }).error?.code, `${p.id} denied approval → denied error`).toBe('denied');
      }
    }
  });

  it('prints the counts', () => {
    expect(seen.length).toBe(files.length);
    console.log(`codex: ${counts.withFiles} edit parts with files (${counts.diffs} diffs, ${counts.modified} modified files), ${counts.commands} bash parts with command (${counts.exitCodes} exit codes), ${counts.plans} todo parts with plan, ${counts.searches} with search, ${counts.approvals} typed approvals (${counts.approvalEvents} approval events), ${files.length} recordings`);
  });
});
