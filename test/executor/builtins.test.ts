// The built-in tools against a real filesystem and a real shell.
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolExecutor, ToolRegistry, builtinTools, replaceExact, unifiedDiff, type BuiltinOptions, type Hunk } from '../../src/executor/index.js';
import { cutMarker, editDiff } from '../../src/executor/builtins/diff.js';
import { countOccurrences, replacedBytes, replaceIntoBuffer } from '../../src/executor/builtins/replace.js';
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

describe('size limits of file_write, file_edit and file_copy', () => {
  const tmpLeft = () => readdirSync(ws).filter((n) => n.endsWith('.toolnorm-tmp'));

  it('file_write refuses content over maxFileBytes (too_large, size and limit named), writes at the limit', async () => {
    const over = await run('file_write', { path: 'cap-w.txt', content: 'x'.repeat(11) }, { fileWrite: { maxFileBytes: 10 } });
    expect(over.part).toMatchObject({ state: 'error', error: { code: 'too_large', message: 'the content for cap-w.txt is 11 bytes; files over 10 bytes are not written (fileWrite.maxFileBytes)', details: { size: 11, limit: 10 } } });
    expect(existsSync(join(ws, 'cap-w.txt'))).toBe(false);
    // Bytes, not characters: four two-byte characters are 8 bytes.
    const at = await run('file_write', { path: 'cap-w.txt', content: 'éééé' }, { fileWrite: { maxFileBytes: 8 } });
    expect(at.part).toMatchObject({ state: 'complete', output: { structured: { bytes: 8 } } });
    expect(readFileSync(join(ws, 'cap-w.txt'), 'utf8')).toBe('éééé');
  });

  it('file_edit refuses a file over maxFileBytes before reading it, and the file is unchanged', async () => {
    writeFileSync(join(ws, 'cap-e.txt'), 'abcdefghij\n');
    const r = await run('file_edit', { path: 'cap-e.txt', old: 'a', new: 'b' }, { fileEdit: { maxFileBytes: 10 } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'too_large', message: 'cap-e.txt is 11 bytes; files over 10 bytes are not read (fileEdit.maxFileBytes)', details: { size: 11, limit: 10 } } });
    expect(readFileSync(join(ws, 'cap-e.txt'), 'utf8')).toBe('abcdefghij\n');
  });

  it('file_edit refuses a replaceAll whose result would pass maxResultBytes (matches × growth), before writing; control: a larger cap lets it through', async () => {
    writeFileSync(join(ws, 'cap-g.txt'), 'a a a a\n');
    const input = { path: 'cap-g.txt', old: 'a', new: 'aaaa', replaceAll: true };
    const r = await run('file_edit', input, { fileEdit: { maxResultBytes: 19 } });
    expect(r.part).toMatchObject({
      state: 'error',
      error: { code: 'too_large', message: 'the edit would make cap-g.txt 20 bytes (4 replacements); edits whose result is over 19 bytes are not made (fileEdit.maxResultBytes)', details: { size: 20, limit: 19, replacements: 4 } },
    });
    expect(readFileSync(join(ws, 'cap-g.txt'), 'utf8')).toBe('a a a a\n');
    const ok = await run('file_edit', input, { fileEdit: { maxResultBytes: 20 } });
    expect(ok.part).toMatchObject({ state: 'complete', output: { structured: { replacements: 4 } } });
    expect(readFileSync(join(ws, 'cap-g.txt'), 'utf8')).toBe('aaaa aaaa aaaa aaaa\n');
    expect(tmpLeft()).toEqual([]);
  });

  it('file_edit cuts a diff over maxDiffBytes with a marker; the part shown is the start of the whole diff and the counts cover the whole edit', async () => {
    const body = Array.from({ length: 400 }, (_, i) => `row ${i} ${i % 10 ? 'plain' : 'target'}`).join('\n') + '\n';
    const input = { path: 'cap-d.txt', old: 'target', new: 'TARGET', replaceAll: true };
    writeFileSync(join(ws, 'cap-d.txt'), body);
    const full = await run('file_edit', input, { fileEdit: { maxDiffBytes: 1 << 30 } });
    writeFileSync(join(ws, 'cap-d.txt'), body);
    const cut = await run('file_edit', input, { fileEdit: { maxDiffBytes: 3000 } });
    const f = (full.part as { output: { text: string; structured: { structuredPatch: Hunk[]; linesAdded: number; diffTruncated?: boolean } } }).output;
    const c = (cut.part as { output: { text: string; structured: { structuredPatch: Hunk[]; linesAdded: number; linesRemoved: number; diffTruncated?: boolean; totalHunks?: number } } }).output;
    expect(f.structured.diffTruncated).toBeUndefined();
    expect(f.structured.structuredPatch.length).toBe(40);
    expect(c.structured).toMatchObject({ replacements: 40, linesAdded: 40, linesRemoved: 40, diffTruncated: true, totalHunks: 40 });
    const shown = c.structured.structuredPatch;
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(40);
    // Whole hunks are the full diff's; the last one may stop early, its header counting what it shows.
    expect(shown.slice(0, -1)).toEqual(f.structured.structuredPatch.slice(0, shown.length - 1));
    const last = shown.at(-1)!;
    const fullLast = f.structured.structuredPatch[shown.length - 1]!;
    expect(fullLast.lines.slice(0, last.lines.length)).toEqual(last.lines);
    expect(last.oldLines).toBe(last.lines.filter((l) => l[0] !== '+').length);
    expect(last.newLines).toBe(last.lines.filter((l) => l[0] !== '-').length);
    expect(c.text.startsWith(unifiedDiff('cap-d.txt', shown.slice(0, -1)))).toBe(true);
    expect(c.text.endsWith(`\n… [diff cut at 3000 bytes: ${shown.length} of 40 hunks shown, the last may be partial; linesAdded and linesRemoved count the whole edit] …`)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(c.text)) + Buffer.byteLength(JSON.stringify(shown))).toBeLessThanOrEqual(3000);
    // The file itself is edited in full.
    expect(readFileSync(join(ws, 'cap-d.txt'), 'utf8')).toBe(body.replaceAll('target', 'TARGET'));
  });

  it('file_edit omits a diff whose first line alone is over maxDiffBytes, and says so', async () => {
    writeFileSync(join(ws, 'cap-l.txt'), `${'q'.repeat(5000)}\n`);
    const r = await run('file_edit', { path: 'cap-l.txt', old: 'q', new: 'Q', replaceAll: true }, { fileEdit: { maxDiffBytes: 4000 } });
    expect(r.part).toMatchObject({
      state: 'complete',
      output: {
        text: '[diff omitted: its 1 hunks do not fit in 4000 bytes; linesAdded and linesRemoved count the whole edit]',
        structured: { replacements: 5000, linesAdded: 1, linesRemoved: 1, structuredPatch: [], diffTruncated: true, totalHunks: 1 },
      },
    });
    expect(readFileSync(join(ws, 'cap-l.txt'), 'utf8')).toBe(`${'Q'.repeat(5000)}\n`);
  });

  it('file_copy streams in chunks (7-byte chunks here) to the same bytes, keeping the mode it replaces', async () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    writeFileSync(join(ws, 'cp-src.bin'), data);
    writeFileSync(join(ws, 'cp-dst.bin'), 'old', { mode: 0o640 });
    const r = await run('file_copy', { source: 'cp-src.bin', path: 'cp-dst.bin' }, { fileCopy: { chunkBytes: 7 } });
    expect(r.part).toMatchObject({ state: 'complete', output: { text: 'Copied cp-src.bin to cp-dst.bin (1000 bytes)', structured: { type: 'update', bytes: 1000 } } });
    expect(readFileSync(join(ws, 'cp-dst.bin')).equals(data)).toBe(true);
    expect(statSync(join(ws, 'cp-dst.bin')).mode & 0o777).toBe(0o640);
    expect(tmpLeft()).toEqual([]);
  });

  it('file_copy refuses a source over its maxFileBytes, leaving the destination as it was', async () => {
    writeFileSync(join(ws, 'cp-big.txt'), 'x'.repeat(100));
    writeFileSync(join(ws, 'cp-keep.txt'), 'kept');
    const r = await run('file_copy', { source: 'cp-big.txt', path: 'cp-keep.txt' }, { fileCopy: { maxFileBytes: 99 } });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'too_large', message: 'cp-big.txt is 100 bytes; files over 99 bytes are not copied (fileCopy.maxFileBytes)', details: { size: 100, limit: 99 } } });
    expect(readFileSync(join(ws, 'cp-keep.txt'), 'utf8')).toBe('kept');
    expect(tmpLeft()).toEqual([]);
  });

  it('file_edit refuses a lone surrogate in old or new (it could match half a character; no UTF-8 holds it)', async () => {
    writeFileSync(join(ws, 'sur.txt'), 'a😀b\n');
    const r = await run('file_edit', { path: 'sur.txt', old: '\uDE00', new: 'x' });
    expect(r.part).toMatchObject({ state: 'error', error: { code: 'invalid_input', details: { issues: [{ path: '/old', message: '/old: contains a lone surrogate (half of a UTF-16 pair), which is not text a file can hold' }] } } });
    expect(readFileSync(join(ws, 'sur.txt'), 'utf8')).toBe('a😀b\n');
    // The whole character is fine.
    const ok = await run('file_edit', { path: 'sur.txt', old: '😀', new: '\uD83D\uDE01' });
    expect(ok.part).toMatchObject({ state: 'complete' });
    expect(readFileSync(join(ws, 'sur.txt'), 'utf8')).toBe('a😁b\n');
  });

  it('a limit that is not a non-negative integer is refused when the tools are made', () => {
    expect(() => builtinTools({ fileEdit: { maxDiffBytes: -1 } })).toThrow('fileEdit.maxDiffBytes must be a non-negative integer number of bytes, got -1');
    expect(() => builtinTools({ fileWrite: { maxFileBytes: 1.5 } })).toThrow(/fileWrite\.maxFileBytes/);
  });
});

describe('replaceIntoBuffer', () => {
  it('gives the bytes of split/join, for any text, including multi-byte characters (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', 'é', '😀', '$&');
    const text = fc.array(alphabet, { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(fc.property(text, text.filter((s) => s.length > 0), text, (original, old, replacement) => {
      const count = countOccurrences(original, old);
      const size = replacedBytes(Buffer.byteLength(original), count, old, replacement);
      expect(replaceIntoBuffer(original, old, replacement, size).equals(Buffer.from(original.split(old).join(replacement)))).toBe(true);
    }), { numRuns: 2000 });
  });
});

describe('editDiff under a byte budget', () => {
  it('shows a prefix of the whole diff, within the budget, with the whole edit counted (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', 'x', '"');
    const text = fc.array(alphabet, { maxLength: 200 }).map((a) => a.join(''));
    fc.assert(fc.property(text, text.filter((s) => s.length > 0), text, fc.integer({ min: 0, max: 3000 }), (original, old, replacement, maxBytes) => {
      fc.pre(old !== replacement && countOccurrences(original, old) > 0);
      const whole = editDiff(original, old, replacement, { context: 1 });
      const d = editDiff(original, old, replacement, { context: 1, maxBytes, name: 'f' });
      expect([d.added, d.removed, d.totalHunks]).toEqual([whole.added, whole.removed, whole.totalHunks]);
      expect(whole.cut).toBe(false);
      const text = unifiedDiff('f', d.hunks, d.cut ? cutMarker(d.hunks.length, d.totalHunks, maxBytes) : undefined);
      // The marker is always there, so a budget under its 256 bytes still carries it.
      expect(Buffer.byteLength(JSON.stringify(text)) + Buffer.byteLength(JSON.stringify(d.hunks))).toBeLessThanOrEqual(Math.max(maxBytes, 256));
      if (!d.cut) { expect(d.hunks).toEqual(whole.hunks); return; }
      const n = d.hunks.length;
      expect(d.hunks.slice(0, -1)).toEqual(whole.hunks.slice(0, Math.max(0, n - 1)));
      if (n) expect(whole.hunks[n - 1]!.lines.slice(0, d.hunks[n - 1]!.lines.length)).toEqual(d.hunks[n - 1]!.lines);
    }), { numRuns: 1000 });
  });
});
