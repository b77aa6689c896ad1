// ACP `locations` and `diff` content come from the part's typed substance (metadata.files and
// metadata.search), whatever the provider's input says. The parts here are built by hand: these
// are the encoder's rules on each shape of FileChange, independent of any adapter.
import { describe, expect, it } from 'vitest';
import type { FileChange, NormalizedToolPart, SearchInfo } from '../../src/contract/index.js';
import { contentOf, diffOfChange, locationsOf } from '../../src/acp/content.js';
import { acpKindOf } from '../../src/acp/kinds.js';
import { fileChange, unifiedDiff } from '../../src/substance/index.js';

const edit = (files: FileChange[], input: unknown = {}, extra: Partial<NormalizedToolPart> = {}): NormalizedToolPart =>
  ({ id: 'e', name: 'Edit', kind: 'file_edit', title: 'Editing a', input, state: 'running', metadata: { files }, ...extra }) as NormalizedToolPart;
const search = (s: SearchInfo, cwd?: string): NormalizedToolPart => ({ id: 's', name: 'Glob', kind: 'file_read', title: 'Finding *.ts', input: {}, state: 'complete', output: { text: '' }, metadata: { search: s, ...(cwd ? { cwd } : {}) } });

describe('ACP locations', () => {
  it('are every FileChange path (and where a rename came from), absolute as recorded, POSIX or Windows', () => {
    const p = edit([{ path: '/repo/a.ts', operation: 'modify' }, { path: 'c:\\P\\b.ts', operation: 'rename', from: 'c:\\P\\old.ts' }]);
    expect(locationsOf(p)).toEqual([{ path: '/repo/a.ts' }, { path: 'c:\\P\\b.ts' }, { path: 'c:\\P\\old.ts' }]);
  });

  it('anchor a relative path only on an absolute cwd, never on this machine, and never a ~ path', () => {
    const rel = edit([{ path: 'src/a.ts', operation: 'modify' }]);
    expect(locationsOf(rel)).toBeUndefined();
    expect(locationsOf(rel, '/repo')).toEqual([{ path: '/repo/src/a.ts' }]);
    expect(locationsOf(edit([{ path: 'src\\a.ts', operation: 'modify' }]), 'c:\\Projects')).toEqual([{ path: 'c:\\Projects\\src\\a.ts' }]);
    expect(locationsOf(edit([{ path: '~/a.ts', operation: 'modify' }]), '/repo')).toBeUndefined();
    expect(locationsOf(rel, 'relative/cwd')).toBeUndefined();
  });

  it('of a search are the paths it matched, else the directory it searched; a URL is no location', () => {
    expect(locationsOf(search({ pattern: '*.ts', path: '/repo', paths: ['/repo/a.ts', 'b.ts'] }, '/repo'), '/repo')).toEqual([{ path: '/repo/a.ts' }, { path: '/repo/b.ts' }]);
    expect(locationsOf(search({ pattern: 'x', path: '/repo/src' }))).toEqual([{ path: '/repo/src' }]);
    expect(locationsOf(search({ query: 'q', path: 'https://example.com/a' }), '/repo')).toBeUndefined();
  });

  it('never come from the input: provider path keys without metadata.files give none (control: the same path in metadata.files gives one)', () => {
    const raw: NormalizedToolPart = { id: 'r', name: 'Read', kind: 'file_read', title: 'Reading a', input: { file_path: '/repo/a.ts', path: '/repo/a.ts', filePath: '/repo/a.ts' }, state: 'started' };
    expect(locationsOf(raw)).toBeUndefined();
    expect(contentOf({ ...raw, name: 'Edit', kind: 'file_edit', input: { file_path: '/r/a', old_string: 'x', new_string: 'y' } } as NormalizedToolPart, undefined)).toBeUndefined();
    expect(locationsOf(edit([{ path: '/repo/a.ts', operation: 'modify' }], raw.input))).toEqual([{ path: '/repo/a.ts' }]);
  });
});

describe('ACP diffs', () => {
  it('use the FileChange texts when both are real text; a creation has oldText null', () => {
    expect(contentOf(edit([fileChange({ path: '/r/a', operation: 'modify', oldText: 'x', newText: 'y' })]), undefined)).toEqual([{ type: 'diff', path: '/r/a', oldText: 'x', newText: 'y' }]);
    expect(diffOfChange(fileChange({ path: '/r/n', operation: 'create', newText: 'new\n' }))).toEqual({ type: 'diff', path: '/r/n', oldText: null, newText: 'new\n' });
  });

  it('fall back to the texts the unified diff shows when a text is a budget marker or missing', () => {
    const d = unifiedDiff('/r/a', 'a\nb\nc\n', 'a\nB\nc\n')!.diff;
    const marked: FileChange = { path: '/r/a', operation: 'modify', oldText: '[omitted by toolnorm: 90000 bytes]', newText: 'a\nB\nc\n', diff: d };
    expect(diffOfChange(marked)).toEqual({ type: 'diff', path: '/r/a', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n' });
    // A patch-only change (Codex apply_patch): the hunk texts.
    expect(diffOfChange({ path: '/r/a', operation: 'modify', diff: d })).toEqual({ type: 'diff', path: '/r/a', oldText: 'a\nb\nc\n', newText: 'a\nB\nc\n' });
    expect(diffOfChange({ path: '/r/n', operation: 'create', diff: unifiedDiff('/r/n', null, 'hi\n')!.diff })).toEqual({ type: 'diff', path: '/r/n', oldText: null, newText: 'hi\n' });
    // Control: the marker itself is never shown as the file's text.
    expect(JSON.stringify(contentOf(edit([marked]), undefined))).not.toContain('omitted by toolnorm');
  });

  it('are left out when nothing says what changed, or the file is gone (ACP cannot show a deletion as a diff)', () => {
    expect(diffOfChange({ path: '/r/a', operation: 'modify', newText: 'whole new file' })).toBeUndefined();
    expect(diffOfChange({ path: '/r/a', operation: 'modify', diff: '[omitted by toolnorm: 5 bytes]' })).toBeUndefined();
    expect(diffOfChange(fileChange({ path: '/r/a', operation: 'delete', oldText: 'x' }))).toBeUndefined();
    expect(diffOfChange({ path: 'rel/a', operation: 'modify', oldText: 'x', newText: 'y' })).toBeUndefined();
  });

  it('come before the output text, one per file', () => {
    const p = { ...edit([fileChange({ path: '/r/a', operation: 'modify', oldText: 'x', newText: 'y' }), fileChange({ path: '/r/b', operation: 'create', newText: 'z' })]), state: 'complete', output: { text: 'ok' } } as NormalizedToolPart;
    expect(contentOf(p, undefined)!.map((c) => c.type === 'diff' ? c.path : c.type)).toEqual(['/r/a', '/r/b', 'content']);
  });
});

describe('ACP kinds from substance', () => {
  it('a read with metadata.search is a search; by name alone it is not (control)', () => {
    expect(acpKindOf(search({ pattern: '*.ts' }))).toBe('search');
    expect(acpKindOf({ kind: 'file_read', metadata: {} })).toBe('read');
    expect(acpKindOf({ kind: 'file_read' })).toBe('read');
  });

  it('a file call that only deletes is delete, only renames is move, a mix is edit', () => {
    expect(acpKindOf(edit([{ path: '/a', operation: 'delete' }]))).toBe('delete');
    expect(acpKindOf(edit([{ path: '/a', operation: 'rename', from: '/b' }]))).toBe('move');
    expect(acpKindOf(edit([{ path: '/a', operation: 'delete' }, { path: '/b', operation: 'modify' }]))).toBe('edit');
    expect(acpKindOf({ kind: 'bash', metadata: { files: [{ path: '/a', operation: 'delete' }] } })).toBe('execute');
  });
});
