// Link-count and open-boundary cases, one table: each row names the tool, the input, the policy
// and the expected decision with its reason. A hardlink inside the root to a file outside it
// must not be read (unless the policy says so) nor written by any built-in tool, on either end
// of file_copy; a file with two names inside the root is judged the same (its link count is all
// an open can see). The outside file is checked byte for byte after every row.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, ToolExecutor, ToolRegistry, type PolicyInput } from '../../src/executor/index.js';
import { checkResult, tempDir } from '../helpers/executor.js';

const base = tempDir('toolnorm-links-');
const root = join(base, 'root');
const outside = join(base, 'outside');
const SECRET = 'outside secret\n';

beforeEach(() => {
  execFileSync('rm', ['-rf', root, outside]);
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
  writeFileSync(join(root, 'twin-a.txt'), 'twin\n');
  linkSync(join(root, 'twin-a.txt'), join(root, 'twin-b.txt'));
  writeFileSync(join(root, 'plain.txt'), 'plain\n');
  execFileSync('mkfifo', [join(root, 'fifo')]);
});

type Row = [name: string, tool: string, input: Record<string, unknown>, policy: PolicyInput, expected: string, reason: RegExp];
const ROWS: Row[] = [
  ['file_read of a hardlink to an outside file', 'file_read', { path: 'hard.txt' }, {}, 'denied:hardlink', /hard\.txt has 2 links; another name of the file may lie outside the roots/],
  ['file_read of a hardlink, policy allows hardlink reads', 'file_read', { path: 'hard.txt' }, { files: { allowHardlinkReads: true } }, 'completed', /^outside secret$/],
  ['file_read of a file with two names, both inside', 'file_read', { path: 'twin-a.txt' }, {}, 'denied:hardlink', /twin-a\.txt has 2 links/],
  ['file_read of a single-link file', 'file_read', { path: 'plain.txt' }, {}, 'completed', /^plain$/],
  ['file_read of a FIFO (would block a plain open)', 'file_read', { path: 'fifo' }, {}, 'denied:not_regular', /fifo is not a regular file/],
  ['file_write over a hardlink', 'file_write', { path: 'hard.txt', content: 'x' }, {}, 'denied:hardlink', /hard\.txt has 2 links; writing it would change every other name/],
  ['file_write over a hardlink, hardlink reads allowed (writes never are)', 'file_write', { path: 'hard.txt', content: 'x' }, { files: { allowHardlinkReads: true } }, 'denied:hardlink', /has 2 links; writing it/],
  ['file_write over a two-name file inside', 'file_write', { path: 'twin-b.txt', content: 'x' }, {}, 'denied:hardlink', /twin-b\.txt has 2 links/],
  ['file_write over a FIFO', 'file_write', { path: 'fifo', content: 'x' }, {}, 'denied:not_regular', /fifo is not a regular file/],
  ['file_write of a single-link file', 'file_write', { path: 'plain.txt', content: 'new' }, {}, 'completed', /Updated plain\.txt/],
  ['file_edit of a hardlink', 'file_edit', { path: 'hard.txt', old: 'secret', new: 'public' }, {}, 'denied:hardlink', /has 2 links; writing it/],
  ['file_edit of a hardlink, hardlink reads allowed', 'file_edit', { path: 'hard.txt', old: 'secret', new: 'public' }, { files: { allowHardlinkReads: true } }, 'denied:hardlink', /has 2 links; writing it/],
  ['file_copy from a hardlink (source end)', 'file_copy', { source: 'hard.txt', path: 'copy.txt' }, {}, 'denied:hardlink', /hard\.txt has 2 links; another name/],
  ['file_copy from a hardlink, hardlink reads allowed', 'file_copy', { source: 'hard.txt', path: 'copy.txt' }, { files: { allowHardlinkReads: true } }, 'completed', /Copied hard\.txt to copy\.txt/],
  ['file_copy onto a hardlink (destination end)', 'file_copy', { source: 'plain.txt', path: 'hard.txt' }, {}, 'denied:hardlink', /hard\.txt has 2 links; writing it/],
  ['file_copy onto a hardlink, hardlink reads allowed', 'file_copy', { source: 'plain.txt', path: 'hard.txt' }, { files: { allowHardlinkReads: true } }, 'denied:hardlink', /hard\.txt has 2 links; writing it/],
  ['file_copy between two single-link files', 'file_copy', { source: 'plain.txt', path: 'copy.txt' }, {}, 'completed', /Copied plain\.txt to copy\.txt/],
];

describe('hardlink and open-boundary cases: decision and reason', () => {
  it.each(ROWS)('%s → %s', async (_name, tool, input, policy, expected, reason) => {
    const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: root, home: root, policy });
    const r = await ex.execute({ tool, input, timeoutMs: 5_000 });
    checkResult(r);
    if (expected === 'completed') {
      expect(r.part.state).toBe('complete');
      expect(r.part.state === 'complete' ? (r.part.output as { text?: string }).text : undefined).toMatch(reason);
    } else {
      expect(r.part.state).toBe('error');
      if (r.part.state !== 'error') return;
      const [code, why] = expected.split(':');
      expect(r.part.error.code).toBe(code);
      expect((r.part.error.details as { reason?: string }).reason).toBe(why);
      expect(r.part.error.message).toMatch(reason);
    }
    // Whatever the row, the outside file keeps its bytes (a write would have replaced them).
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('a denied write leaves no temporary file behind', async () => {
    const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: root, home: root });
    await ex.execute({ tool: 'file_write', input: { path: 'hard.txt', content: 'x' } });
    await ex.execute({ tool: 'file_write', input: { path: 'plain.txt', content: 'y' } });
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(root).filter((n) => n.includes('toolnorm-tmp'))).toEqual([]);
  });

  it('a replaced file keeps its mode (the temporary file takes it before the rename)', async () => {
    const { chmodSync, statSync } = await import('node:fs');
    chmodSync(join(root, 'plain.txt'), 0o751);
    const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: root, home: root });
    const r = await ex.execute({ tool: 'file_write', input: { path: 'plain.txt', content: 'z' } });
    expect(r.part.state).toBe('complete');
    expect(statSync(join(root, 'plain.txt')).mode & 0o7777).toBe(0o751);
    expect(readFileSync(join(root, 'plain.txt'), 'utf8')).toBe('z');
  });
});
