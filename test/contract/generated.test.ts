// AG-UI-style checks of the generator's output: generated/ stands alone (it imports only its own
// files), every schema $def reaches every output, every generated file says so in its header, and
// generating twice gives the same bytes. Plus the hand-written side: every entry point has its
// three guards in src/contract/.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { generateAll } from '../../codegen/main.js';
import { GENERATED_NOTE } from '../../codegen/header.js';
import * as contract from '../../src/contract/index.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const GENERATED = join(REPO_ROOT, 'generated');
const read = (rel: string) => readFileSync(join(REPO_ROOT, rel), 'utf8');

/** Every module specifier of a TS/JS file: static imports and re-exports, `import()` and `import type`. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

describe('generated/', () => {
  const files = readdirSync(GENERATED).filter((f) => /\.(ts|js)$/.test(f)).sort();

  it('finds the generated modules, and reads the imports the boundary check relies on', () => {
    expect(files).toEqual(['index.ts', 'types.ts', 'validators.d.ts', 'validators.js']);
    // The reader itself: an upward import in any of the three spellings is seen.
    expect(specifiers("import { a } from '../src/x.js';\nexport * from './y.js';\nconst m = await import('../z.js');")).toEqual(['../src/x.js', './y.js', '../z.js']);
  });

  it('imports nothing outside generated/ (only its siblings, or a package)', () => {
    const outside: string[] = [];
    for (const f of files) {
      for (const spec of specifiers(readFileSync(join(GENERATED, f), 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(GENERATED, spec);
        if (dirname(target) !== GENERATED) outside.push(`generated/${f} → ${relative(REPO_ROOT, target)}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('accounts for every schema $def in every output: TypeScript types, Go and Python clients', () => {
    const defs = Object.keys((JSON.parse(read('schema/toolnorm.schema.json')) as { $defs: object }).$defs);
    expect(defs.length).toBeGreaterThan(50);
    const ts = read('generated/types.ts');
    const go = read('clients/go/types_gen.go');
    const py = read('clients/python/toolnorm_client/models.py');
    const missing = defs.flatMap((d) => [
      ...(new RegExp(`^export (?:type|interface) ${d}\\b`, 'm').test(ts) ? [] : [`types.ts: ${d}`]),
      ...(new RegExp(`^type ${d}\\b`, 'm').test(go) ? [] : [`types_gen.go: ${d}`]),
      ...(new RegExp(`^(?:class ${d}\\b|${d} = )`, 'm').test(py) ? [] : [`models.py: ${d}`]),
    ]);
    expect(missing).toEqual([]);
  });

  it('has a validator for every entry point, and every entry point is a $def', () => {
    const defs = Object.keys((JSON.parse(read('schema/toolnorm.schema.json')) as { $defs: object }).$defs);
    const dts = read('generated/validators.d.ts');
    for (const e of contract.ENTRY_POINTS) {
      expect(defs, e).toContain(e);
      expect(dts, e).toMatch(new RegExp(`export declare const validate${e}: CompiledValidator;`));
      expect(typeof contract.validators[e], e).toBe('function');
    }
  });

  it('marks every file it writes with the generated header', async () => {
    const out = await generateAll();
    expect(out.size).toBeGreaterThanOrEqual(7);
    for (const [path, content] of out) {
      // JSON has no comments: the schema carries the note as its `$comment`. Go wants its own
      // `// Code generated … DO NOT EDIT.` line first, so the note may be the second line.
      if (path.endsWith('.json')) expect((JSON.parse(content) as { $comment?: string }).$comment, path).toBe(GENERATED_NOTE);
      else expect(content.split('\n').slice(0, 2).join('\n'), path).toContain(GENERATED_NOTE);
    }
    for (const f of files) expect(readFileSync(join(GENERATED, f), 'utf8').split('\n')[0], f).toContain(GENERATED_NOTE);
  });

  it('is deterministic: generating twice gives the same files, byte for byte', async () => {
    const [a, b] = [await generateAll(), await generateAll()];
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, content] of a) expect(b.get(path), path).toBe(content);
  });
});

describe('src/contract guards', () => {
  it('exports isX, assertX and issuesOfX for every entry point', () => {
    const missing = contract.ENTRY_POINTS.flatMap((e) => [`is${e}`, `assert${e}`, `issuesOf${e}`].filter((n) => typeof (contract as Record<string, unknown>)[n] !== 'function'));
    expect(missing).toEqual([]);
  });

  it('narrow, throw a ContractError naming the definition and rule, and list the issues', () => {
    const bad = { type: 'tool.started' };
    expect(contract.isToolEvent(bad)).toBe(false);
    expect(() => contract.assertToolEvent(bad)).toThrow(contract.ContractError);
    expect(() => contract.assertToolEvent(bad)).toThrow(/value is not a valid ToolEvent/);
    expect(contract.issuesOfToolEvent(bad).length).toBeGreaterThan(0);
    expect(contract.isToolOutput({ text: 'x' })).toBe(true);
    expect(contract.issuesOfToolOutput({ text: 'x' })).toEqual([]);
    expect(contract.assertToolOutput({ text: 'x' })).toEqual({ text: 'x' });
  });
});
