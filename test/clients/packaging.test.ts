// The clients used the way a user gets them, outside this repository: the Python package
// installed by pip (offline, from a copy of clients/python) and imported from an unrelated
// folder, and the Go package required by a new module in a fresh folder (offline, through a
// `replace` to a copy). Both then read parts through the accessors every variant shares.
import { describe, expect, it } from 'vitest';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/corpus.js';
import { listSchemaFixtures } from '../helpers/schema-fixtures.js';

const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
// Building the package needs setuptools (>= 61, for [project] in pyproject.toml) and wheel, with
// no index to fetch them from: Debian's python3-setuptools and python3-wheel (.ci/run).
const BUILD_CHECK = 'import setuptools, wheel, jsonschema, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 61)';
const python = ['python3', '/usr/bin/python3'].find((p) => ok(p, ['-c', BUILD_CHECK]));
const go = ['go', '/usr/lib/go/bin/go'].find((g) => ok(g, ['version']));
for (const [what, found] of [['a python3 with setuptools>=61, wheel and jsonschema (Debian: python3-setuptools python3-wheel python3-jsonschema)', python], ['go (Debian: golang-go)', go]] as const) {
  if (found) continue;
  if (process.env.CI) throw new Error(`test/clients/packaging: no ${what}; CI must run these tests`);
  console.warn(`[toolnorm tests] no ${what}: its packaging test is SKIPPED (it runs under CI)`);
}

const parts = listSchemaFixtures(REPO_ROOT).filter((f) => f.definition === 'NormalizedToolPart' && f.expectValid).map((f) => f.value as Record<string, unknown>);
/** A part from a newer schema: a key this schema's closed part object does not declare. */
const newer: Record<string, unknown> = { ...parts.find((p) => p.state === 'complete')!, attempt: 2 };

/** The environment without the caller's pip or Go settings, so the run is the same on every machine. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PIP_|PYTHON|GO|VIRTUAL_ENV)/.test(k)));
  return { ...env, ...extra };
}

function run(cmd: string, args: string[], options: SpawnSyncOptions) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  return { status: r.status, out: String(r.stdout), err: String(r.stderr) };
}

const copyClient = (from: string, to: string) => cpSync(join(REPO_ROOT, from), to, { recursive: true, filter: (src) => !/__pycache__|\.egg-info|[\\/]build$/.test(src) });

describe.skipIf(!python)('the Python client outside the repository', () => {
  const reader = [
    'import json, sys, toolnorm_client as t',
    'parts = [t.from_json("NormalizedToolPart", json.loads(line)) for line in sys.stdin]',
    'print(json.dumps({',
    '  "file": t.__file__,',
    '  "schema": t.load_schema()["$id"],',
    '  "read": [[p.id, p.state, p.kind, p.title, type(p).__name__] for p in parts],',
    '  "errors": [t.validation_errors("NormalizedToolPart", p) for p in parts],',
    '}))',
  ].join('\n');
  const expected = parts.map((p) => [p.id, p.state, p.kind, p.title]);
  const schemaId = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/toolnorm.schema.json'), 'utf8')).$id as string;

  it('pip installs a copy of clients/python offline, and the installed package reads and validates parts from an unrelated folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-pip-'));
    try {
      copyClient('clients/python', join(dir, 'src'));
      const env = cleanEnv({ PIP_CONFIG_FILE: devNull, PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' });
      const install = run(python!, ['-m', 'pip', 'install', '--no-index', '--no-build-isolation', '--target', join(dir, 'site'), join(dir, 'src')], { env });
      expect(install.status, install.out + install.err).toBe(0);
      // The source copy goes away: only the installed files remain.
      rmSync(join(dir, 'src'), { recursive: true, force: true });
      const elsewhere = join(dir, 'elsewhere');
      mkdirSync(elsewhere);
      const r = run(python!, ['-c', reader], { cwd: elsewhere, env: { ...env, PYTHONPATH: join(dir, 'site') }, input: parts.map((p) => JSON.stringify(p)).join('\n') });
      expect(r.status, r.err).toBe(0);
      const got = JSON.parse(r.out) as { file: string; schema: string; read: string[][]; errors: string[][] };
      expect(got.file.startsWith(join(dir, 'site'))).toBe(true);
      expect(got.schema).toBe(schemaId);
      expect(got.read.map((row) => row.slice(0, 4))).toEqual(expected);
      expect(new Set(got.read.map((row) => row[4]))).toEqual(new Set(['StartedToolPart', 'RunningToolPart', 'CompleteToolPart', 'ErrorToolPart']));
      expect(got.errors.every((e) => e.length === 0), JSON.stringify(got.errors)).toBe(true);
      // The installed schema is the repository's, byte for byte.
      expect(readFileSync(join(dir, 'site/toolnorm_client/toolnorm.schema.json'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'schema/toolnorm.schema.json'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a plain copy of the package folder finds its schema too, and validation still catches a bad part', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-pycopy-'));
    try {
      copyClient('clients/python/toolnorm_client', join(dir, 'lib/toolnorm_client'));
      const check = 'import toolnorm_client as t; print(t.validation_errors("ToolError", {"message": "m"}), t.validation_errors("ToolError", {"message": 1}))';
      const r = run(python!, ['-c', check], { cwd: dir, env: cleanEnv({ PYTHONPATH: join(dir, 'lib'), PYTHONDONTWRITEBYTECODE: '1' }) });
      expect(r.status, r.err).toBe(0);
      // Control: the good value has no error and the bad one is reported, so the schema really was loaded.
      expect(r.out.trim()).toBe(`[] ["/message: 1 is not of type 'string'"]`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!go)('the Go client from a fresh module', () => {
  const main = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	toolnorm "toolnorm.dev/clients/go"
)

// Reads parts, one per line, through the Part interface only: no type switch over the variants.
func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	for scanner.Scan() {
		var u toolnorm.NormalizedToolPart
		if err := json.Unmarshal(scanner.Bytes(), &u); err != nil {
			fmt.Println("error:", err)
			continue
		}
		var p toolnorm.Part = u.Value
		strict := "strict-ok"
		if err := toolnorm.UnmarshalStrict(scanner.Bytes(), &toolnorm.NormalizedToolPart{}); err != nil {
			strict = err.Error()
		}
		fmt.Printf("%s|%s|%s|%s|%v|%s\\n", p.ID(), p.State(), p.Kind(), p.Title(), p.Metadata() != nil, strict)
	}
}
`;

  it('go build works offline in a new module that requires a copy of clients/go through a replace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-go-'));
    try {
      copyClient('clients/go', join(dir, 'toolnorm-go'));
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'go.mod'), 'module example.com/partreader\n\ngo 1.19\n\nrequire toolnorm.dev/clients/go v0.0.0\n\nreplace toolnorm.dev/clients/go => ../toolnorm-go\n');
      writeFileSync(join(app, 'main.go'), main);
      const env = cleanEnv({ GOFLAGS: '-mod=mod', GOPROXY: 'off', GOWORK: 'off', GOTOOLCHAIN: 'local', GOPATH: join(dir, 'gopath'), ...(process.env.GOCACHE ? { GOCACHE: process.env.GOCACHE } : {}) });
      const build = run(go!, ['build', '-o', join(dir, 'partreader'), '.'], { cwd: app, env });
      expect(build.status, build.out + build.err).toBe(0);
      const lines = [...parts, newer].map((p) => JSON.stringify(p));
      const r = run(join(dir, 'partreader'), [], { input: `${lines.join('\n')}\n` });
      expect(r.status, r.err).toBe(0);
      const want = parts.map((p) => `${p.id}|${p.state}|${p.kind}|${p.title}|${'metadata' in p}|strict-ok`);
      // The newer part decodes by default; strict names the key it does not know.
      want.push(`${newer.id}|complete|${newer.kind}|${newer.title}|${'metadata' in newer}|toolnorm: CompleteToolPart: unknown key "attempt" (the schema closes this object)`);
      expect(r.out.trimEnd().split('\n')).toEqual(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
