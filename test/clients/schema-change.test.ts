// The Go and Python clients follow the schema: on a scratch copy, removing a field from
// schema/src and regenerating makes the clients' own fixture tests fail, because the fixtures
// still carry the field and both clients reject keys their closed objects do not declare.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/corpus.js';

const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const go = has('go', ['version']);
const python = has('python3', ['-c', 'import jsonschema']);
if (!go || !python) {
  const what = `${go ? '' : 'go '}${python ? '' : 'python3 with jsonschema'}`.trim();
  if (process.env.CI) throw new Error(`test/clients: ${what} missing; CI must run these tests`);
  console.warn(`[toolnorm tests] ${what} not found: the client schema-change tests are SKIPPED (they run under CI)`);
}

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-clients-'));
  for (const p of ['schema', 'codegen', 'generated', 'clients', 'fixtures', 'src', 'package.json', 'tsconfig.json']) cpSync(join(REPO_ROOT, p), join(dir, p), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

describe.skipIf(!go || !python)('clients follow the schema', () => {
  it('removing EventSource.offset from schema/src and regenerating breaks the Go and Python fixture tests', () => {
    const dir = scratchCopy();
    try {
      const goTest = () => spawnSync('go', ['test', '-count=1', '-run', 'TestSchemaFixturesRoundTrip', './...'], { cwd: join(dir, 'clients/go'), encoding: 'utf8' });
      const pyTest = () => spawnSync('python3', [join(dir, 'clients/python/test_roundtrip.py'), 'FixtureRoundTrip'], { encoding: 'utf8' });
      // Control: the copy passes before the change.
      const before = goTest();
      expect(before.status, before.stdout + before.stderr).toBe(0);
      expect(pyTest().status).toBe(0);

      const file = join(dir, 'schema/src/event.ts');
      const source = readFileSync(file, 'utf8');
      const line = "  offset: Type.Optional(Count('Byte offset of that line in the input.')),\n";
      expect(source).toContain(line);
      writeFileSync(file, source.replace(line, ''));
      const gen = spawnSync(tsx, ['codegen/main.ts'], { cwd: dir, encoding: 'utf8' });
      expect(gen.status, gen.stderr).toBe(0);
      expect(readFileSync(join(dir, 'clients/go/types_gen.go'), 'utf8')).not.toContain('`json:"offset,omitempty"`');

      const after = goTest();
      expect(after.status).not.toBe(0);
      expect(after.stdout).toMatch(/fixtures\/schema\/\w+\/valid\/[\w.-]+\.json: toolnorm: \w+ > EventSource: unknown key "offset"/);
      const py = pyTest();
      expect(py.status).not.toBe(0);
      expect(py.stderr).toContain("ToolEvent.source: unknown key 'offset'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
