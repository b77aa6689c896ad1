import { describe, expect, it } from 'vitest';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { contentOf, locationsOf } from '../../src/acp/content.js';

const read = (input: unknown, metadata?: Record<string, unknown>): NormalizedToolPart => ({ id: 't', name: 'Read', kind: 'file_read', title: 'Reading a', input, state: 'started', ...(metadata ? { metadata } : {}) });

describe('ACP locations and diffs', () => {
  it('keeps absolute POSIX and Windows paths as recorded, and never invents one from this machine', () => {
    expect(locationsOf(read({ file_path: '/repo/a.ts', offset: 0 }))).toEqual([{ path: '/repo/a.ts', line: 1 }]);
    expect(locationsOf(read({ file_path: 'c:\\Projects\\a.ts' }))).toEqual([{ path: 'c:\\Projects\\a.ts' }]);
    expect(locationsOf(read({ file_path: 'src/a.ts' }))).toBeUndefined();
    expect(locationsOf(read({ file_path: 'src/a.ts' }), '/repo')).toEqual([{ path: '/repo/src/a.ts' }]);
    expect(locationsOf(read({ file_path: 'src\\a.ts' }), 'c:\\Projects')).toEqual([{ path: 'c:\\Projects\\src\\a.ts' }]);
    expect(locationsOf(read({ file_path: '~/a.ts' }), '/repo')).toBeUndefined();
    expect(locationsOf(read({ file_path: 'a.ts' }), 'relative/cwd')).toBeUndefined();
  });

  it('sends a diff for an exact-string edit, and oldText null only for a known creation', () => {
    const edit: NormalizedToolPart = { id: 'e', name: 'Edit', kind: 'file_edit', title: 'Editing a', input: { file_path: '/r/a', old_string: 'x', new_string: 'y' }, state: 'running' };
    expect(contentOf(edit, undefined)).toEqual([{ type: 'diff', path: '/r/a', oldText: 'x', newText: 'y' }]);
    const write = (structuredType: string): NormalizedToolPart => ({ id: 'w', name: 'Write', kind: 'file_write', title: 'Writing a', input: { file_path: '/r/a', content: 'new' }, state: 'complete', output: { text: 'ok', structured: { type: structuredType } } });
    expect(contentOf(write('create'), undefined)?.[0]).toEqual({ type: 'diff', path: '/r/a', oldText: null, newText: 'new' });
    expect(contentOf(write('update'), undefined)).toEqual([{ type: 'content', content: { type: 'text', text: 'ok' } }]);
  });
});
