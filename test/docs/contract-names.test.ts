// The table in docs/contract.md from every name of the two spec documents to the symbol that
// implements it: each file named must exist and export each symbol named, and a row without a
// symbol must say why. With the spec documents beside the clone (../shared/spec), every
// identifier they use must have a row, so the table cannot fall behind them either.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC_DIR = join(ROOT, '..', 'shared', 'spec');

interface Row {
  spec: string;
  symbols: string[];
  files: string[];
  note: string;
}

const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function specRows(): Row[] {
  const text = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Spec names'));
  const end = section.indexOf('\n## ', 1);
  const rows: Row[] = [];
  for (const line of (end < 0 ? section : section.slice(0, end)).split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| spec name') || line.startsWith('|---')) continue;
    const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
    expect(cells, line).toHaveLength(4);
    rows.push({ spec: cells[0]!, symbols: cells[1] === '—' ? [] : ticks(cells[1]!), files: ticks(cells[2]!), note: cells[3]! });
  }
  return rows;
}

const exportsName = (source: string, name: string) =>
  new RegExp(`export\\s+(declare\\s+)?(async\\s+)?(interface|type|class|const|function|let|enum|abstract\\s+class)\\s+${name}\\b`).test(source) ||
  new RegExp(`export\\s*(type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}`).test(source);

describe('docs/contract.md, spec names', () => {
  const rows = specRows();

  it('has a row for each name of the spec documents this project follows', () => {
    expect(rows.length).toBeGreaterThan(30);
    for (const name of ['DefaultToolReducer', 'ToolProjector', 'DefaultToolRepository', 'ToolInvocationStatus', 'ToolExecutedEvent', 'ParamRole'])
      expect(rows.some((r) => r.spec.includes(`\`${name}`)), name).toBe(true);
  });

  it('every named file exists and exports every named symbol', () => {
    const problems: string[] = [];
    for (const r of rows) {
      if (r.symbols.length === 0) continue;
      expect(r.files.length, r.spec).toBeGreaterThan(0);
      const sources = r.files.map((f) => {
        if (!existsSync(join(ROOT, f))) problems.push(`${r.spec}: no file ${f}`);
        return existsSync(join(ROOT, f)) ? readFileSync(join(ROOT, f), 'utf8') : '';
      });
      for (const s of r.symbols) if (!sources.some((src) => exportsName(src, s))) problems.push(`${r.spec}: ${s} is not exported by ${r.files.join(' or ')}`);
    }
    expect(problems.join('\n')).toBe('');
  });

  it('a row without a symbol gives the reason', () => {
    for (const r of rows.filter((x) => x.symbols.length === 0)) expect(r.note.length, r.spec).toBeGreaterThan(20);
  });

  it.runIf(existsSync(SPEC_DIR))('every identifier in ../shared/spec has a row', () => {
    const names = new Set<string>();
    for (const f of readdirSync(SPEC_DIR).filter((n) => n.endsWith('.md')))
      for (const m of readFileSync(join(SPEC_DIR, f), 'utf8').matchAll(/\b[A-Z][a-z]+(?:[A-Z][a-zA-Z0-9]*)+\b/g)) names.add(m[0]);
    names.delete('OpenCode'); // a product name, not an identifier
    const specCells = rows.map((r) => r.spec).join('\n');
    const missing = [...names].filter((n) => !new RegExp(`\\b${n}\\b`).test(specCells));
    expect(missing).toEqual([]);
  });
});
