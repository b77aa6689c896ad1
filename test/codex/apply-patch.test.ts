// The apply_patch parser (src/substance/apply-patch.ts) on the 29 real patches of a public 0.40
// rollout (shell heredocs) and on the grammar's edges, and what the adapter makes of a patch:
// metadata.files on the part, or a malformed_patch diagnostic and no files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatchFiles, hunkTexts, parseApplyPatch } from '../../src/substance/index.js';
import { patchIn } from '../../src/adapters/codex/changes.js';
import { scriptOf } from '../../src/adapters/shared/shell.js';
import { CORPUS, corpusAvailable } from '../helpers/corpus.js';
import { part, run } from '../helpers/codex-lines.js';

const available = corpusAvailable();
const ROLLOUT = 'codex/public/rollout040-shell-plan-aborted.jsonl';

/** The shell calls of the rollout whose script is an apply_patch heredoc: patch text and workdir. */
function corpusPatches(): { callId: string; patch: string; workdir: string }[] {
  const out: { callId: string; patch: string; workdir: string }[] = [];
  let cwd = '';
  for (const line of readFileSync(join(CORPUS, ROLLOUT), 'utf8').split('\n')) {
    if (line.includes('"session_meta"') || line.includes('"turn_context"')) cwd = (JSON.parse(line) as { payload: { cwd?: string } }).payload.cwd ?? cwd;
    if (!line.includes('Begin Patch')) continue;
    const p = (JSON.parse(line) as { payload: { type: string; name?: string; arguments?: string; call_id: string } }).payload;
    if (p.type !== 'function_call' || p.name !== 'shell') continue;
    const args = JSON.parse(p.arguments!) as { command: string[]; workdir?: string };
    // The patch runs in the call's workdir, else the session's cwd.
    out.push({ callId: p.call_id, patch: patchIn(scriptOf(args.command)!)!, workdir: args.workdir ?? cwd });
  }
  return out;
}

/** An independent count of a patch's parts, by line prefixes only. */
function scan(patch: string) {
  const lines = patch.split('\n');
  const headers = lines.filter((l) => /^\*\*\* (Add|Update|Delete) File: /.test(l));
  let section = '';
  let added = 0;
  let removed = 0;
  let addedInAdds = 0;
  for (const l of lines) {
    const h = /^\*\*\* (Add|Update|Delete) File: /.exec(l);
    if (h) { section = h[1]!; continue; }
    if (section === 'Update' && l.startsWith('+')) added++;
    if (section === 'Update' && l.startsWith('-')) removed++;
    if (section === 'Add' && l.startsWith('+')) addedInAdds++;
  }
  return { files: headers.length, added, removed, addedInAdds };
}

describe.skipIf(!available)('apply_patch on the corpus', () => {
  it('all 29 patches of the public 0.40 rollout parse into one absolute FileChange per file, with every line of the patch', () => {
    const patches = corpusPatches();
    expect(patches).toHaveLength(29);
    const ops = new Map<string, number>();
    for (const { patch, workdir } of patches) {
      const { files, problem } = applyPatchFiles(patch, workdir);
      expect(problem).toBeUndefined();
      const s = scan(patch);
      expect(files).toHaveLength(s.files);
      let added = 0;
      let removed = 0;
      let created = 0;
      for (const f of files) {
        ops.set(f.operation, (ops.get(f.operation) ?? 0) + 1);
        expect(f.path.startsWith(`${workdir}/`), f.path).toBe(true);
        if (f.operation === 'create') created += f.stats!.added;
        else if (f.operation === 'modify') {
          expect(f.diff).toMatch(new RegExp(`^--- ${f.path.replace(/[[\]().*+?^$\\]/g, '\\$&')}\\n\\+\\+\\+ `));
          added += f.stats!.added;
          removed += f.stats!.removed;
          // What ACP shows is read back from the diff: the hunks' old and new text.
          expect(hunkTexts(f.diff!)).toBeDefined();
        }
      }
      expect({ added, removed, created }).toEqual({ added: s.added, removed: s.removed, created: s.addedInAdds });
    }
    expect(Object.fromEntries(ops)).toEqual({ modify: expect.any(Number), create: expect.any(Number) });
  });

  it('the adapter puts those files on the 29 parts, and reports no malformed patch', () => {
    const r = run(readFileSync(join(CORPUS, ROLLOUT), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as object), {}, 'rollout.jsonl');
    expect(r.diagnostics.filter((d) => d.code === 'malformed_patch')).toEqual([]);
    for (const { callId, patch, workdir } of corpusPatches()) {
      const p = part(r, callId);
      expect(p.kind).toMatch(/^file_(edit|write)$/);
      expect(p.metadata!.files).toEqual(applyPatchFiles(patch, workdir).files);
      expect(p.metadata!.command).toBeUndefined();
    }
  });
});

describe('apply_patch grammar', () => {
  it('several files: add, delete, update with two chunks, and a move; relative paths against the cwd', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: guide/new.md',
      '+# Title',
      '+',
      '+text',
      '*** Delete File: old.txt',
      '*** Update File: src/a.ts',
      '@@ function one() {',
      ' const a = 1;',
      '-return a;',
      '+return a + 1;',
      '@@',
      ' x',
      '+y',
      '*** Update File: src/b.ts',
      '*** Move to: src/c.ts',
      '@@',
      '-old',
      '+new',
      '*** End Patch',
      '',
    ].join('\n');
    const { files, problem } = applyPatchFiles(patch, '/repo');
    expect(problem).toBeUndefined();
    expect(files).toEqual([
      { path: '/repo/guide/new.md', operation: 'create', oldText: null, newText: '# Title\n\ntext\n', diff: '--- /dev/null\n+++ /repo/guide/new.md\n@@ -0,0 +1,3 @@\n+# Title\n+\n+text\n', stats: { added: 3, removed: 0 } },
      { path: '/repo/old.txt', operation: 'delete' },
      {
        path: '/repo/src/a.ts', operation: 'modify', stats: { added: 2, removed: 1 },
        // Numbers run from the first chunk (the patch has none); the @@ context is the section heading.
        diff: '--- /repo/src/a.ts\n+++ /repo/src/a.ts\n@@ -1,2 +1,2 @@ function one() {\n const a = 1;\n-return a;\n+return a + 1;\n@@ -3 +3,2 @@\n x\n+y\n',
      },
      { path: '/repo/src/c.ts', from: '/repo/src/b.ts', operation: 'rename', diff: '--- /repo/src/b.ts\n+++ /repo/src/c.ts\n@@ -1 +1 @@\n-old\n+new\n', stats: { added: 1, removed: 1 } },
    ]);
    expect(hunkTexts(files[2]!.diff!)).toEqual({ oldText: 'const a = 1;\nreturn a;\nx\n', newText: 'const a = 1;\nreturn a + 1;\nx\ny\n' });
  });

  it('*** End of File ends a chunk (it anchors the chunk at the end of the file) and is not a diff line; a first chunk may omit @@; an empty line is empty context', () => {
    const parsed = parseApplyPatch('*** Begin Patch\n*** Update File: /abs/f.txt\n a\n\n-b\n+c\n*** End of File\n*** End Patch');
    expect(parsed).toEqual({ ok: true, hunks: [{ op: 'update', path: '/abs/f.txt', chunks: [{ lines: [' a', ' ', '-b', '+c'], endOfFile: true }] }] });
    const { files } = applyPatchFiles('*** Begin Patch\n*** Update File: /abs/f.txt\n a\n\n-b\n+c\n*** End of File\n*** End Patch');
    expect(files[0]!.diff).toBe('--- /abs/f.txt\n+++ /abs/f.txt\n@@ -1,3 +1,3 @@\n a\n \n-b\n+c\n');
    // Absolute paths stay; without a cwd a relative path is kept as written (never this process's cwd).
    expect(applyPatchFiles('*** Begin Patch\n*** Delete File: rel.txt\n*** End Patch').files).toEqual([{ path: 'rel.txt', operation: 'delete' }]);
    // CRLF patches and blank lines around the envelope read the same.
    expect(applyPatchFiles('\r\n*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n\r\n', '/w').files[0]).toMatchObject({ path: '/w/a', newText: 'x\n' });
  });

  const MALFORMED: [string, string, number, RegExp][] = [
    ['no Begin Patch', '*** Add File: a\n+x\n*** End Patch', 1, /does not start with/],
    ['no End Patch (cut off)', '*** Begin Patch\n*** Add File: a\n+x\n', 3, /does not end with/],
    ['an unknown header', '*** Begin Patch\n*** Rename File: a\n*** End Patch', 2, /not a file header/],
    ['a header without a path', '*** Begin Patch\n*** Delete File: \n*** End Patch', 2, /without a path/],
    ['an Add File line without +', '*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch', 4, /not a file header/],
    ['an update without chunks', '*** Begin Patch\n*** Update File: a\n*** End Patch', 2, /has no chunk/],
    ['an update line with no mark', '*** Begin Patch\n*** Update File: a\n@@\n x\nnot a diff line\n*** End Patch', 5, /does not start with/],
    ['an empty chunk', '*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch', 3, /empty chunk/],
    ['a Move to without a path', '*** Begin Patch\n*** Update File: a\n*** Move to: \n@@\n-x\n*** End Patch', 3, /Move to line without a path/],
  ];

  it.each(MALFORMED)('malformed (%s): a problem with its line, no files, no throw', (_what, patch, line, message) => {
    const r = applyPatchFiles(patch, '/w');
    expect(r.files).toEqual([]);
    expect(r.problem).toMatchObject({ line });
    expect(r.problem!.message).toMatch(message);
  });

  it('the adapter: a malformed custom_tool_call patch keeps its part (title from the headers) with no files and one malformed_patch diagnostic; a good one gets files', () => {
    const meta = { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 's1', cwd: '/w' } };
    const call = (id: string, input: string) => ({ timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'custom_tool_call', call_id: id, name: 'apply_patch', input } });
    const output = (id: string) => ({ timestamp: '2026-01-01T00:00:02.000Z', type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: id, output: 'Success.' } });
    const r = run([
      meta,
      call('bad', '*** Begin Patch\n*** Update File: a.ts\n@@\n x\noops\n*** End Patch\n'),
      output('bad'),
      call('good', '*** Begin Patch\n*** Update File: a.ts\n@@\n x\n-y\n+z\n*** End Patch\n'),
      output('good'),
    ]);
    expect(part(r, 'bad')).toMatchObject({ kind: 'file_edit', title: 'Editing a.ts', state: 'complete' });
    expect(part(r, 'bad').metadata!.files).toBeUndefined();
    const diags = r.diagnostics.filter((d) => d.code === 'malformed_patch');
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ partId: 'bad', source: { line: 2 } });
    expect(diags[0]!.message).toMatch(/line 5 of the patch/);
    expect(part(r, 'good').metadata!.files).toEqual([{ path: '/w/a.ts', operation: 'modify', diff: '--- /w/a.ts\n+++ /w/a.ts\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n', stats: { added: 1, removed: 1 } }]);
  });
});
