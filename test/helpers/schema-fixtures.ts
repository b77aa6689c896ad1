// Lists the schema fixtures (fixtures/schema/<Def>/{valid,invalid}/*.json): the folder name is the
// definition, and every invalid fixture has a sibling .expect.json naming the rule it breaks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SchemaFixture {
  definition: string;
  expectValid: boolean;
  /** Path relative to the repo root. */
  file: string;
  value: unknown;
  expect?: { keyword: string; instancePath: string; rule: string };
}

export function listSchemaFixtures(repoRoot: string): SchemaFixture[] {
  const root = join(repoRoot, 'fixtures', 'schema');
  if (!existsSync(root)) return [];
  const out: SchemaFixture[] = [];
  for (const definition of readdirSync(root).sort()) {
    for (const kind of ['valid', 'invalid'] as const) {
      const dir = join(root, definition, kind);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).sort()) {
        if (!name.endsWith('.json') || name.endsWith('.expect.json')) continue;
        const file = join('fixtures', 'schema', definition, kind, name);
        const expectPath = join(dir, name.replace(/\.json$/, '.expect.json'));
        out.push({
          definition,
          expectValid: kind === 'valid',
          file,
          value: JSON.parse(readFileSync(join(repoRoot, file), 'utf8')),
          expect: existsSync(expectPath) ? JSON.parse(readFileSync(expectPath, 'utf8')) : undefined,
        });
      }
    }
  }
  return out;
}
