// The built-in tools against a real filesystem and a real shell.
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolExecutor, ToolRegistry, builtinTools, replaceExact, unifiedDiff, type BuiltinOptions, type Hunk } from '../../src/executor/index.js';
import { checkResult, sleep, tempDir } from '../helpers/executor.js';

const ws = tempDir();
mkdirSync(join(ws, 'dir'));

const run = (tool: string, input: unknown, options: BuiltinOptions = {}, timeoutMs?: number) =>
  new ToolExecutor({ registry: new ToolRegistry(builtinTools(options)), cwd: ws, home: ws, abortGraceMs: 3000 }).execute({ tool, input, ...(timeoutMs ? { timeoutMs } : {}) });

describe('bash', () => {
  it('runs in the session cwd, streams progress, and returns the combined output', async () => {
    const r = await run('bash', { command: 'pwd; echo to-stderr >&2; for i in 1 2 3; do echo line $i; sleep 0.02; done' });
    const types = checkResult(r);
    expect(r.part).toMatchObject({ state: 'complete', kind: 'bash', title: 'Running pwd; echo to-stderr >&2; for i in 1 2 3; do echo line $i; sleep 0.02; done', metadata: { exitCode: 0 } });
    const output = (r.part as { output: { text: string; structured: Record<string, unknown> } }).output;
    // stdout and stderr are separate pipes, so only stdout's own order is certain.
    expect(output.text.split('\n').sort()).toEqual(['', ws, 'line 1', 'line 2', 'line 3', 'to-stderr'].sort());
    expect(output.text.replace('to-stderr\n', '')).toBe(`${ws}\nline 1\nline 2\nline 3\n`);
    expect(output.structured).toEqual({ exitCode: 0, outputBytes: Buffer.byteLength(output.text) });
    // Streamed fragments add up to the output (nothing was capped).
    const streamed = r.events.filter((e) => e.type === 'tool.progress' && e.outputDelta).map((e) => (e as { outputDelta: string }).outputDelta).join('');
    expect(streamed).toBe(output.text);
    expect(types.filter((t) => t === 'tool.progress').length).toBeGreaterThan(1);
  });

  it('a non-zero exit is a failure with code exit_nonzero, the exit code and the output', async () => {
    const r = await run('bash', { command: 'echo oops; exit 3' });
    expect(r.part).toMatchObject({ state: 'error', metadata: { exitCode: 3 }, error: { code: 'exit_nonzero', message: 'Exit code 3\noops\n', details: { exitCode: 3, output: { text: 'oops\n' } } } });
  });

  it('caps the output it keeps (head and tail) and stops streaming past the cap', async () => {
    const r = await run('bash', { command: 'echo START; head -c 200000 /dev/zero | tr "\\0" x; echo; echo END' }, { bash: { maxOutputBytes: 2000 } });
    const output = (r.part as { output: { text: string; structured: Record<string, number | boolean> } }).output;
    expect(output.text.startsWith('START\nxxx')).toBe(true);
    expect(output.text.endsWith('xxx\nEND\n')).toBe(true);
    expect(output.structured).toMatchObject({ outputBytes: 200011, truncated: true, omittedBytes: 200011 - 2000 });
    expect(output.text).toContain(`[${200011 - 2000} bytes of output omitted]`);
    const streamedBytes = r.events.reduce((n, e) => n + (e.type === 'tool.progress' && e.outputDelta ? Buffer.byteLength(e.outputDelta) : 0), 0);
    expect(streamedBytes).toBeLessThanOrEqual(2000);
    expect(r.events.some((e) => e.type === 'tool.progress' && /streaming stopped/.test(e.message ?? ''))).toBe(true);
  });

  it('its timeout param times the call out and kills the whole process group', async () => {
    // The command runs in the sandbox's own PID namespace, so `$!` is not a host pid: the
    // background sleep is found on the host by its unique argument instead.
    const marker = `30.${process.pid}${Date.now() % 100000}`;
    const r = await run('bash', { command: `sleep ${marker} & wait`, timeout: 300 });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'timeout', message: 'timed out after 300 ms' } });
    // Gone, or a zombie waiting for a reaper (containers often have none): either way not running.
    const running = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${marker}\0` && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${p}/stat`, 'utf8'));
      } catch {
        return false;
      }
    });
    for (let i = 0; i < 40 && running(); i++) await sleep(50);
    expect(running()).toBe(false);
  });

  it('a failing shell binary is reported, not thrown', async () => {
    const r = await run('bash', { command: 'true' }, { bash: { shell: join(ws, 'no-such-shell') } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'spawn_failed', message: /could not start/ } });
  });
});

describe('file_read', () => {
  writeFileSync(join(ws, 'lines.txt'), Array.from({ length: 10 }, (_, i) => `L${i + 1}`).join('\n') + '\n');
  writeFileSync(join(ws, 'bin.dat'), Buffer.from([1, 2, 0, 3]));

  it.each([
    [{ path: 'lines.txt' }, 'L1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10', { startLine: 1, numLines: 10, totalLines: 10 }],
    [{ path: 'lines.txt', offset: 3, limit: 2 }, 'L3\nL4', { startLine: 3, numLines: 2, totalLines: 10, truncated: true }],
    [{ path: 'lines.txt', offset: 10 }, 'L10', { startLine: 10, numLines: 1 }],
    [{ path: 'lines.txt', offset: 50 }, '', { startLine: 50, numLines: 0 }],
  ])('%j', async (input, text, structured) => {
    const r = await run('file_read', input);
    expect(r.part).toMatchObject({ state: 'complete', title: 'Reading lines.txt', output: { text, structured: { type: 'text', filePath: join(ws, 'lines.txt'), ...structured } } });
  });

  it('describes a binary file instead of dumping it', async () => {
    const r = await run('file_read', { path: 'bin.dat' });
    expect(r.part).toMatchObject({ state: 'complete', output: { text: 'Binary file, 4 bytes', structured: { type: 'binary', size: 4 } } });
  });

  it.each([
    [{ path: 'missing.txt' }, 'not_found', 'missing.txt does not exist'],
    [{ path: 'dir' }, 'is_directory', 'dir is a directory'],
    [{ path: 'lines.txt', offset: 0 }, 'invalid_input', /\/offset/],
  ])('%j fails with %s', async (input, code, message) => {
    const r = await run('file_read', input);
    expect(r.part).toMatchObject({ state: 'error', error: { code, message: expect.stringMatching(message) } });
  });

  it('refuses a file over the size limit', async () => {
    const r = await run('file_read', { path: 'lines.txt' }, { fileRead: { maxFileBytes: 10 } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'too_large' } });
  });
});

describe('file_write, file_edit, file_copy', () => {
  it('file_write creates then updates, and never creates directories', async () => {
    const a = await run('file_write', { path: 'w.txt', content: 'one' });
    expect(a.part).toMatchObject({ state: 'complete', title: 'Writing w.txt', output: { text: 'Created w.txt (3 bytes)', structured: { type: 'create', bytes: 3 } } });
    const b = await run('file_write', { path: 'w.txt', content: 'two!' });
    expect(b.part).toMatchObject({ output: { text: 'Updated w.txt (4 bytes)', structured: { type: 'update' } } });
    expect(readFileSync(join(ws, 'w.txt'), 'utf8')).toBe('two!');
    const c = await run('file_write', { path: 'no/such/dir.txt', content: '' });
    expect(c.part).toMatchObject({ state: 'error', error: { code: 'not_found', message: 'the directory of no/such/dir.txt does not exist' } });
    expect(existsSync(join(ws, 'no'))).toBe(false);
    expect(c.invocation.mutations).toMatchObject([{ operation: 'unchanged', before: null, after: null }]);
  });

  it('file_edit replaces once, refuses ambiguity, honours replaceAll, and reports a diff', async () => {
    writeFileSync(join(ws, 'e.txt'), 'a\nfoo\nb\nfoo\nc\n');
    const amb = await run('file_edit', { path: 'e.txt', old: 'foo', new: 'bar' });
    expect(amb.part).toMatchObject({ state: 'error', error: { code: 'ambiguous_match', details: { occurrences: 2 } } });
    const one = await run('file_edit', { path: 'e.txt', old: 'b\nfoo', new: 'B\nFOO' });
    expect(one.part).toMatchObject({
      state: 'complete', title: 'Editing e.txt',
      output: { text: '--- a/e.txt\n+++ b/e.txt\n@@ -1,5 +1,5 @@\n a\n foo\n-b\n-foo\n+B\n+FOO\n c', structured: { replacements: 1, linesAdded: 2, linesRemoved: 2 } },
    });
    const all = await run('file_edit', { path: 'e.txt', old: 'o', new: '0', replaceAll: true });
    expect(all.part).toMatchObject({ state: 'complete', output: { structured: { replacements: 2 } } });
    expect(readFileSync(join(ws, 'e.txt'), 'utf8')).toBe('a\nf00\nB\nFOO\nc\n');
  });

  it('file_copy copies and records only the target', async () => {
    writeFileSync(join(ws, 'src.txt'), 'payload');
    const r = await run('file_copy', { source: 'src.txt', path: 'dst.txt' });
    expect(r.part).toMatchObject({ state: 'complete', kind: 'file_write', title: 'Copying src.txt to dst.txt', output: { text: 'Copied src.txt to dst.txt (7 bytes)', structured: { type: 'create' } } });
    expect(readFileSync(join(ws, 'dst.txt'), 'utf8')).toBe('payload');
    expect(r.invocation.mutations.map((m) => [m.path, m.operation])).toEqual([[join(ws, 'dst.txt'), 'create']]);
    const same = await run('file_copy', { source: 'src.txt', path: './src.txt' });
    expect(same.part).toMatchObject({ state: 'error', error: { message: /the same file/ } });
    const dir = await run('file_copy', { source: 'dir', path: 'x.txt' });
    expect(dir.part).toMatchObject({ state: 'error', error: { code: 'is_directory' } });
  });
});

describe('replaceExact diff', () => {
  /** Applies unified hunks to the old lines; the result must be the new lines. */
  function apply(oldText: string, hunks: Hunk[]): string[] {
    const lines = oldText.split('\n');
    let shift = 0;
    for (const h of hunks) {
      const start = (h.oldLines ? h.oldStart - 1 : h.oldStart) + shift;
      const olds = h.lines.filter((l) => l[0] !== '+').map((l) => l.slice(1));
      const news = h.lines.filter((l) => l[0] !== '-').map((l) => l.slice(1));
      expect(lines.slice(start, start + olds.length)).toEqual(olds);
      lines.splice(start, olds.length, ...news);
      shift += news.length - olds.length;
    }
    return lines;
  }

  it('the hunks turn the old text into the new text (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', 'x');
    const text = fc.array(alphabet, { maxLength: 60 }).map((a) => a.join(''));
    fc.assert(fc.property(text, text.filter((s) => s.length > 0), text, (original, old, replacement) => {
      fc.pre(old !== replacement);
      const r = replaceExact(original, old, replacement, 1);
      if (r.count === 0) { expect(r.hunks).toEqual([]); return; }
      expect(r.content).toBe(original.split(old).join(replacement));
      const linesOf = (t: string) => t.split('\n');
      const patched = apply(original, r.hunks);
      expect(patched).toEqual(linesOf(r.content));
      for (const h of r.hunks) {
        expect(h.oldLines).toBe(h.lines.filter((l) => l[0] !== '+').length);
        expect(h.newLines).toBe(h.lines.filter((l) => l[0] !== '-').length);
      }
    }), { numRuns: 2000 });
  });

  it('a change after the final newline reads no line beyond the file (fast-check counterexample "\\n" → "\\n\\n")', () => {
    const r = replaceExact('\n', '\n', '\n\n', 1);
    expect(r.hunks).toEqual([{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 2, lines: [' ', '+'] }]);
    expect(apply('\n', r.hunks)).toEqual(['', '', '']);
    // Ordinary edits keep no phantom context line after the final newline.
    expect(replaceExact('a\nb\n', 'b', 'c').hunks[0]!.lines).toEqual([' a', '-b', '+c']);
  });

  it('far-apart replacements give separate hunks; unifiedDiff formats them', () => {
    const original = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const r = replaceExact(original.replace('line 2\n', 'X\n').replace('line 18\n', 'X\n'), 'X', 'Y');
    expect(r.count).toBe(2);
    expect(r.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([[1, 5, 1, 5], [15, 6, 15, 6]]);
    expect(unifiedDiff('f', r.hunks).split('\n').slice(0, 3)).toEqual(['--- a/f', '+++ b/f', '@@ -1,5 +1,5 @@']);
  });
});
