// The Go and Python clients on real output: every record toolnorm prints for the corpus
// (scripts/corpus-outputs.ts) is decoded into the generated Go types and Python models and
// encoded again, by the clients' own tests (clients/go/roundtrip_test.go,
// clients/python/test_roundtrip.py). Here each re-encoded record must equal the original as JSON
// (key order ignored) and pass toolnorm's validators. A missing toolchain or corpus is a visible
// skip locally and a failure under CI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { validators } from '../src/contract/index.js';
import { corpusOutputs, type OutputDefinition } from './corpus-outputs.js';
import { corpusFiles } from '../test/helpers/corpus.js';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const corpus = resolve(repo, '..', 'shared', 'corpus');
const ci = Boolean(process.env.CI);

function skipOrFail(what: string): boolean {
  if (ci) { console.error(`clients round trip: ${what}; under CI it must run`); process.exitCode = 1; return false; }
  console.warn(`clients round trip: ${what}: SKIPPED (it runs under CI)`);
  return false;
}

const found = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const go = ['go', '/usr/lib/go/bin/go'].find((g) => found(g, ['version']));
const python = ['python3', '/usr/bin/python3'].find((p) => found(p, ['-c', 'import jsonschema']));

/** Compares a client's re-encoded lines with the originals: equal as JSON and valid. */
function check(client: string, def: OutputDefinition, original: string[], file: string): { ok: number; problems: string[] } {
  const problems: string[] = [];
  if (!existsSync(file)) return { ok: 0, problems: [`${client} wrote no ${def} output`] };
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  if (lines.length !== original.length) problems.push(`${client} ${def}: ${lines.length} lines back for ${original.length} sent`);
  let ok = 0;
  original.forEach((line, i) => {
    const back = lines[i] === undefined ? undefined : JSON.parse(lines[i]!);
    const same = isDeepStrictEqual(back, JSON.parse(line));
    const valid = validators[def](back);
    if (same && valid) ok++;
    else if (problems.length < 10) problems.push(`${client} ${def} #${i + 1}: ${same ? '' : 'changed'}${!same && !valid ? ' and ' : ''}${valid ? '' : `invalid (${JSON.stringify(validators[def].errors?.[0])})`}: ${String(lines[i]).slice(0, 200)}`);
  });
  return { ok, problems };
}

function main(): void {
  const clients: { name: string; run: (dir: string | undefined) => number | null }[] = [];
  // Every test of each client runs (examples, the Part accessors, lenient and strict decoding, the
  // fixtures); the corpus round trip among them only when TOOLNORM_ROUNDTRIP_DIR is set.
  const env = (dir?: string) => (dir ? { ...process.env, TOOLNORM_ROUNDTRIP_DIR: dir } : process.env);
  if (go) clients.push({ name: 'go', run: (dir) => spawnSync(go, ['test', '-count=1', '-v', './...'], { cwd: join(repo, 'clients/go'), env: env(dir), stdio: 'inherit' }).status });
  else skipOrFail('no Go toolchain (Debian: apt-get install golang-go)');
  if (python) clients.push({ name: 'python', run: (dir) => spawnSync(python, [join(repo, 'clients/python/test_roundtrip.py')], { env: env(dir), stdio: 'inherit' }).status });
  else skipOrFail('no python3 with jsonschema (Debian: apt-get install python3-jsonschema)');
  if (!clients.length) return;
  if (!existsSync(corpus)) {
    skipOrFail('../shared/corpus is missing, so only the clients\' own tests run');
    for (const client of clients) {
      const status = client.run(undefined);
      if (status !== 0) { console.error(`clients round trip: the ${client.name} tests failed (exit ${status})`); process.exitCode = 1; }
    }
    return;
  }

  const files = ['claude', 'codex', 'opencode'].flatMap((p) => corpusFiles(p));
  const { records, recordings, skipped } = corpusOutputs(corpus, files);
  console.log(`clients round trip: ${recordings.length} corpus recordings (${skipped.length} other files: ${skipped.map((s) => s.split('/').pop()).join(', ')})`);
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-clients-'));
  try {
    for (const [def, lines] of records) writeFileSync(join(dir, `${def}.ndjson`), `${lines.join('\n')}\n`);
    let failed = false;
    for (const client of clients) {
      const status = client.run(dir);
      if (status !== 0) { console.error(`clients round trip: the ${client.name} tests failed (exit ${status})`); failed = true; }
      const suffix = client.name === 'go' ? 'go' : 'py';
      const counts: string[] = [];
      for (const [def, lines] of records) {
        const r = check(client.name, def, lines, join(dir, `${def}.${suffix}.ndjson`));
        counts.push(`${def} ${r.ok}/${lines.length}`);
        if (r.problems.length) { failed = true; for (const p of r.problems) console.error(`  ${p}`); }
      }
      console.log(`clients round trip, ${client.name}: unchanged and valid: ${counts.join(', ')}`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
