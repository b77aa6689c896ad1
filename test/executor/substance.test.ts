// The executor's own parts carry the typed substance every output reads (docs/contract.md#substance):
// metadata.files for its file tools (merged with the measured FileMutationRecord of the same path),
// metadata.command for bash, from the start, so a denied command still says what it would have run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolExecutor, ToolRegistry, builtinTools } from '../../src/executor/index.js';
import { issuesOfNormalizedToolPart, type FileChange, type NormalizedToolPart } from '../../src/contract/index.js';
import { tempDir } from '../helpers/executor.js';

const ws = tempDir();
const run = (tool: string, input: unknown, policy?: Record<string, unknown>) =>
  new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: ws, home: ws, abortGraceMs: 3000, ...(policy ? { policy } : {}) } as ConstructorParameters<typeof ToolExecutor>[0]).execute({ tool, input });
const filesOf = (p: NormalizedToolPart) => (p.metadata?.files ?? []) as FileChange[];

describe('executor substance', () => {
  it('file_edit: one FileChange with the diff under the absolute path, its line stats, and the digests the executor measured', async () => {
    const path = join(ws, 'edit.txt');
    writeFileSync(path, 'one\ntwo\nthree\n');
    const r = await run('file_edit', { path: 'edit.txt', old: 'two\n', new: 'TWO\nand a half\n' });
    expect(r.part.state).toBe('complete');
    expect(issuesOfNormalizedToolPart(r.part)).toEqual([]);
    const files = filesOf(r.part);
    expect(files).toHaveLength(1);
    const [f] = files;
    expect(f).toMatchObject({ path, operation: 'modify', stats: { added: 2, removed: 1 } });
    expect(f!.diff).toBe(`--- ${path}\n+++ ${path}\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+and a half\n three\n`);
    // The mutation record of the same path is merged in: before and after digests differ.
    expect(f!.before?.sha256).toBeDefined();
    expect(f!.after?.sha256).toBeDefined();
    expect(f!.before!.sha256).not.toBe(f!.after!.sha256);
    expect(readFileSync(path, 'utf8')).toBe('one\nTWO\nand a half\nthree\n');
  });

  it('file_write: a new file is a create whose diff adds every line; an overwrite is a modify without a made-up old text', async () => {
    const created = await run('file_write', { path: 'new.txt', content: 'a\nb\n' });
    const [c] = filesOf(created.part);
    expect(c).toMatchObject({ path: join(ws, 'new.txt'), operation: 'create', oldText: null, newText: 'a\nb\n', stats: { added: 2, removed: 0 } });
    expect(c!.diff).toContain('--- /dev/null\n');
    const over = await run('file_write', { path: 'new.txt', content: 'c\n' });
    const [o] = filesOf(over.part);
    expect(o).toMatchObject({ path: join(ws, 'new.txt'), operation: 'modify', newText: 'c\n' });
    expect(o!.oldText).toBeUndefined();
    expect(o!.diff).toBeUndefined();
  });

  it('bash: metadata.command is the command as run, its cwd and exit code; the title comes from the same command', async () => {
    const r = await run('bash', { command: 'echo hi; exit 4' });
    expect(r.part.state).toBe('error');
    expect(r.part.metadata?.command).toEqual({ command: 'echo hi; exit 4', cwd: ws, exitCode: 4 });
    const ok = await run('bash', { command: 'true' });
    expect(ok.part.metadata?.command).toEqual({ command: 'true', cwd: ws, exitCode: 0 });
  });

  it('a denied bash call still says the command it would have run (from its EXEC_COMMAND parameter), with no exit code', async () => {
    const r = await run('bash', { command: 'echo never' }, { maxTier: 'workspace' });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'denied' } });
    expect(r.part.metadata?.command).toEqual({ command: 'echo never', cwd: ws });
  });
});
