// The one set of builders every adapter and the executor describe a call's substance with.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { absolutePath, diffStats, fileChange, hunkTexts, planStatus, toolPlan, unifiedDiff } from '../../src/substance/index.js';

describe('unifiedDiff', () => {
  it('one hunk with three lines of context, /dev/null for a side that does not exist, and the lines counted', () => {
    const d = unifiedDiff('/w/a.txt', '1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\nfive\n6\n7\n8\n')!;
    expect(d.diff).toBe('--- /w/a.txt\n+++ /w/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n');
    expect(d.stats).toEqual({ added: 1, removed: 1 });
    expect(unifiedDiff('/w/n', null, 'x\n')!.diff).toBe('--- /dev/null\n+++ /w/n\n@@ -0,0 +1 @@\n+x\n');
    expect(unifiedDiff('/w/n', 'x', null)!.diff).toBe('--- /w/n\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n');
    expect(unifiedDiff('/w/n', 'same', 'same')).toBeUndefined();
  });

  it('what it writes is what `patch` applies (real GNU patch, random texts), and hunkTexts gives back the texts it was made from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-diff-'));
    const line = fc.constantFrom('a', 'b', 'c', '', ' x', '\\ y');
    const text = fc.array(line, { maxLength: 12 }).chain((ls) => fc.boolean().map((nl) => (ls.length ? ls.join('\n') + (nl ? '\n' : '') : '')));
    fc.assert(fc.property(text, text, (before, after) => {
      const d = unifiedDiff(join(dir, 'f'), before, after);
      if (!d) return before === after;
      writeFileSync(join(dir, 'f'), before);
      writeFileSync(join(dir, 'f.diff'), d.diff);
      execFileSync('patch', ['-s', '-u', join(dir, 'f'), join(dir, 'f.diff')], { stdio: 'pipe' });
      expect(readFileSync(join(dir, 'f'), 'utf8')).toBe(after);
      expect(diffStats(d.diff)).toEqual(d.stats);
      const t = hunkTexts(d.diff)!;
      // The hunk shows the changed span with its context: a slice of each text, in place.
      expect(before.includes(t.oldText) || t.oldText === '').toBe(true);
      expect(after.includes(t.newText) || t.newText === '').toBe(true);
      return true;
    }), { numRuns: 300 });
  });
});

describe('fileChange', () => {
  it('a relative path is made absolute against the cwd (POSIX or Windows); without a cwd it is kept as written', () => {
    expect(fileChange({ path: 'src/a.ts', cwd: '/repo', operation: 'modify', oldText: 'a', newText: 'b' }).path).toBe('/repo/src/a.ts');
    expect(fileChange({ path: 'src\\a.ts', cwd: 'C:\\repo', operation: 'modify' }).path).toBe('C:\\repo\\src\\a.ts');
    expect(fileChange({ path: 'src/a.ts', operation: 'modify' }).path).toBe('src/a.ts');
    expect(absolutePath('~/x', '/repo')).toBeUndefined();
  });

  it('a create has oldText null and a diff that adds every line; a provider patch is kept when the texts are not known', () => {
    expect(fileChange({ path: '/w/n', operation: 'create', newText: 'a\nb\n' })).toEqual({
      path: '/w/n', operation: 'create', oldText: null, newText: 'a\nb\n', stats: { added: 2, removed: 0 },
      diff: '--- /dev/null\n+++ /w/n\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    });
    const patch = '--- /w/a\n+++ /w/a\n@@ -1 +1 @@\n-x\n+y';
    expect(fileChange({ path: '/w/a', operation: 'modify', diff: patch })).toEqual({ path: '/w/a', operation: 'modify', diff: `${patch}\n`, stats: { added: 1, removed: 1 } });
    expect(fileChange({ path: 'b', from: 'a', cwd: '/w', operation: 'rename' })).toEqual({ path: '/w/b', from: '/w/a', operation: 'rename' });
  });
});

describe('plans', () => {
  it('every provider spelling of a status maps to the contract; an unknown one reads as pending', () => {
    expect(['pending', 'in_progress', 'inProgress', 'in-progress', 'completed', 'done', 'cancelled', 'canceled'].map(planStatus)).toEqual(['pending', 'in_progress', 'in_progress', 'in_progress', 'completed', 'completed', 'cancelled', 'cancelled']);
    expect(planStatus('weird')).toBeUndefined();
    // A word that names a property of every object is still an unknown word (a fuzz case found it).
    expect(['constructor', '__proto__', 'toString', 'hasOwnProperty'].map(planStatus)).toEqual([undefined, undefined, undefined, undefined]);
    expect(toolPlan([{ content: 'a', status: 'constructor', priority: 'valueOf' }])).toEqual({ entries: [{ content: 'a', status: 'pending' }] });
    expect(toolPlan([{ content: 'a', status: 'weird', priority: 'HIGH' }, { content: '  ' }, { content: 'b', status: 'done', id: 3 }], { explanation: 'why' })).toEqual({
      entries: [{ content: 'a', status: 'pending', priority: 'high' }, { content: 'b', status: 'completed', id: '3' }], explanation: 'why',
    });
  });
});
