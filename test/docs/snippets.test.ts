// Every TypeScript snippet of README.md and docs/ type-checks (strict) against this checkout's
// sources, the way a user would paste it: an undefined name or a wrong import fails here, not in a
// reader's editor. One tsc run checks them all, plus a control snippet that must fail.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedSource, markdownSources, snippetsOf, sourcePaths, type Snippet } from './snippets.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-snippets-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const SNIPPETS: Snippet[] = markdownSources(ROOT).flatMap((f) => snippetsOf(f, readFileSync(join(ROOT, f), 'utf8')));
/** Uses a name nobody declares: the check must report it, or it checks nothing. */
const CONTROL: Snippet = { file: 'control.md', line: 1, code: "import { collect, adapterById } from 'toolnorm';\nconst { parts } = collect(adapterById('codex')!, undeclaredText);\nconsole.log(parts);" };

function typeCheck(snippets: Snippet[]): Map<number, string[]> {
  const dir = join(TMP, 'check');
  mkdirSync(dir, { recursive: true });
  // Third-party imports (the agent SDKs, @types/node) resolve through the checkout's node_modules.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  snippets.forEach((s, i) => writeFileSync(join(dir, `snippet${i}.ts`), checkedSource(s.code)));
  const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { ...base.compilerOptions, noEmit: true, noUnusedLocals: false, paths: sourcePaths(ROOT) },
    files: snippets.map((_, i) => `snippet${i}.ts`),
  }));
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  const errors = new Map<number, string[]>();
  for (const line of r.stdout.split('\n')) {
    const m = /^snippet(\d+)\.ts\((\d+),\d+\): (error .*)$/.exec(line);
    if (m) {
      const s = snippets[Number(m[1])]!;
      errors.set(Number(m[1]), [...(errors.get(Number(m[1])) ?? []), `${s.file}:${s.line + Number(m[2]) - 1}: ${m[3]}`]);
    } else if (line.trim() && !/^\s/.test(line)) {
      // An error outside the snippets (a source file, the config) is the check failing, not a pass.
      errors.set(-1, [...(errors.get(-1) ?? []), line]);
    }
  }
  return errors;
}

describe('README and docs TypeScript snippets', () => {
  it('are found: the README tour and the library pages', () => {
    const files = new Set(SNIPPETS.map((s) => s.file));
    for (const f of ['README.md', 'docs/library.md', 'docs/stores.md', 'docs/compression.md', 'docs/executor.md']) expect(files).toContain(f);
    expect(SNIPPETS.length).toBeGreaterThanOrEqual(8);
  });

  it('type-check with strict settings; a snippet using an undeclared name fails (control)', () => {
    const errors = typeCheck([...SNIPPETS, CONTROL]);
    const control = errors.get(SNIPPETS.length) ?? [];
    errors.delete(SNIPPETS.length);
    expect(control).toEqual([expect.stringMatching(/^control\.md:2: error TS2304: Cannot find name 'undeclaredText'/)]);
    expect([...errors.values()].flat()).toEqual([]);
  }, 300_000);
});
