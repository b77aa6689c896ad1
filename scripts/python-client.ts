// Runs the Python client check (scripts/validate_fixtures.py) with ajv's verdict for every schema
// fixture. Skipped with a visible message when no Python with `jsonschema` is found, except under
// CI, where it must run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validators, type EntryPoint } from '../src/contract/index.js';
import { listSchemaFixtures } from '../test/helpers/schema-fixtures.js';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const candidates = ['python3', '/usr/bin/python3'];
const python = candidates.find((p) => spawnSync(p, ['-c', 'import jsonschema'], { stdio: 'ignore' }).status === 0);
if (!python) {
  const msg = 'python client check: no python3 with the jsonschema module (Debian: apt-get install python3-jsonschema)';
  if (process.env.CI) {
    console.error(`${msg}; it must run under CI`);
    process.exit(1);
  }
  console.warn(`${msg}: SKIPPED (it runs under CI)`);
  process.exit(0);
}
const fixtures = listSchemaFixtures(repo);
const verdicts = fixtures.map((f) => ({ definition: f.definition, file: f.file, expectValid: f.expectValid, ajv: validators[f.definition as EntryPoint](f.value) }));
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-py-'));
try {
  const file = join(dir, 'verdicts.json');
  writeFileSync(file, JSON.stringify(verdicts));
  const r = spawnSync(python, [join(repo, 'scripts', 'validate_fixtures.py'), file], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
