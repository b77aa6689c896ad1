// Drift and conformance checks shown on scratch copies, so the real tree is never touched.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../../codegen/conformance.js';
import { generateAll } from '../../codegen/main.js';
import { REPO_ROOT } from '../helpers/corpus.js';

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-codegen-'));
  for (const p of ['schema', 'codegen', 'generated', 'clients', 'fixtures', 'src', 'package.json', 'tsconfig.json']) cpSync(join(REPO_ROOT, p), join(dir, p), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

describe('codegen', () => {
  it('is idempotent: regenerating in memory reproduces every committed file byte for byte', async () => {
    const files = await generateAll();
    expect(files.size).toBe(8);
    expect([...files.keys()]).toEqual(expect.arrayContaining(['clients/go/types_gen.go', 'clients/python/toolnorm_client/models.py', 'clients/python/toolnorm_client/toolnorm.schema.json']));
    for (const [path, content] of files) expect(readFileSync(join(REPO_ROOT, path), 'utf8'), path).toBe(content);
  });

  it('codegen:check fails on a scratch copy whose schema/src description changed, and names npm run codegen', () => {
    const dir = scratchCopy();
    try {
      const ok = spawnSync(tsx, ['codegen/main.ts', '--check'], { cwd: dir, encoding: 'utf8' });
      expect(ok.status, ok.stderr).toBe(0);
      const file = join(dir, 'schema/src/state.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('Lifecycle of a tool part', 'Lifecycle stage of a tool part'));
      const drift = spawnSync(tsx, ['codegen/main.ts', '--check'], { cwd: dir, encoding: 'utf8' });
      expect(drift.status).toBe(1);
      expect(drift.stderr).toContain('npm run codegen');
      expect(drift.stderr).toContain('changed: schema/toolnorm.schema.json');
      expect(drift.stderr).toContain('+      "description": "Lifecycle stage of a tool part');
      // The Go and Python clients carry the description too, so they drift with it.
      expect(drift.stderr).toContain('changed: clients/go/types_gen.go');
      expect(drift.stderr).toContain('+// ToolState: Lifecycle stage of a tool part');
      expect(drift.stderr).toContain('changed: clients/python/toolnorm_client/models.py');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('codegen:check reports a stale file left in generated/', () => {
    const dir = scratchCopy();
    try {
      writeFileSync(join(dir, 'generated/old-type.ts'), 'export {};\n');
      // A generated client file whose definition is gone is stale too; hand-written ones are not.
      writeFileSync(join(dir, 'clients/go/old_gen.go'), readFileSync(join(dir, 'clients/go/types_gen.go'), 'utf8').slice(0, 300));
      const r = spawnSync(tsx, ['codegen/main.ts', '--check'], { cwd: dir, encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('stale: generated/old-type.ts');
      expect(r.stderr).toContain('stale: clients/go/old_gen.go');
      expect(r.stderr).not.toContain('clients/go/runtime.go');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('static conformance (ts-morph)', () => {
  it('passes on the real tree: every definition matches its TypeBox source, every @contract function conforms', () => {
    const r = runConformance({ root: REPO_ROOT });
    expect(r.failures).toEqual([]);
    expect(r.definitions).toBeGreaterThanOrEqual(50);
    expect(r.functions.map((f) => f.contract)).toContain('NormalizedToolPart');
  });

  it("rejects a scratch function typed to return { state: 'done' } as a part", () => {
    const r = runConformance({
      root: REPO_ROOT,
      extraFiles: {
        'src/adapters/__scratch_bad__.ts': [
          '/** @contract NormalizedToolPart */',
          "export function toPart(): { id: string; name: string; kind: 'bash'; title: string; input: unknown; state: 'done' } {",
          "  return { id: 'x', name: 'Bash', kind: 'bash', title: 'Run', input: {}, state: 'done' };",
          '}',
          '/** @contract NormalizedToolPart */',
          "export const fine = async (): Promise<{ id: string; name: string; kind: 'bash'; title: string; input: unknown; state: 'running' }[]> => [];",
        ].join('\n'),
      },
    });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/__scratch_bad__\.ts:toPart: returns .*state: "done".*which is not a NormalizedToolPart/);
    expect(r.functions.map((f) => f.name)).toContain('fine');
  });
});
