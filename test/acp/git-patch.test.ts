// The v2 diff's git_patch text, applied by the real `git apply` to the old text, gives the new text.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitPatch, gitPath } from '../../src/acp/git-patch.js';

function applied(oldText: string | null, newText: string, name = 'f.txt'): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-gitpatch-'));
  try {
    const file = join(dir, name);
    if (oldText !== null) writeFileSync(file, oldText);
    const patch = gitPatch(file, oldText, newText)!;
    writeFileSync(join(dir, 'p.diff'), patch);
    // -p0: the paths are absolute and unprefixed, as the v2 draft requires.
    execFileSync('git', ['apply', '-p0', '--unsafe-paths', join(dir, 'p.diff')], { cwd: '/', stdio: 'pipe' });
    return existsSync(file) ? readFileSync(file, 'utf8') : '<missing>';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('gitPatch', () => {
  it('git apply turns the old text into the new one (fast-check, line-shaped texts)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '', 'dd', 'é'), { maxLength: 12 }).chain((ls) => fc.boolean().map((eol) => ls.join('\n') + (eol && ls.length ? '\n' : '')));
    fc.assert(
      fc.property(fc.option(text, { nil: null }), text, (a, b) => {
        fc.pre(a !== b && !(a === null && b === ''));
        expect(applied(a, b)).toBe(b);
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it('a new file, a missing final newline and an odd file name', () => {
    expect(applied(null, 'one\ntwo')).toBe('one\ntwo');
    expect(applied('x', 'x\n')).toBe('x\n');
    expect(applied('a "q"\\b\n', 'c\n', 'we ird "q" ä.txt')).toBe('c\n');
    expect(gitPath('/w/ä "x"')).toBe('"/w/\\303\\244 \\"x\\""');
    expect(gitPatch('/w/a', 'same', 'same')).toBeUndefined();
  });

  it('the control: a patch with the a/ b/ prefixes git writes would not apply at -p0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-gitpatch-'));
    try {
      const file = join(dir, 'f');
      writeFileSync(file, 'a\n');
      const prefixed = gitPatch(file, 'a\n', 'b\n')!.replace(`--- ${file}`, `--- a${file}`).replace(`+++ ${file}`, `+++ b${file}`);
      writeFileSync(join(dir, 'p.diff'), prefixed);
      expect(() => execFileSync('git', ['apply', '-p0', '--unsafe-paths', join(dir, 'p.diff')], { cwd: '/', stdio: 'pipe' })).toThrow();
      expect(readFileSync(file, 'utf8')).toBe('a\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
