// `npm run codegen` writes every generated file; `npm run codegen:check` regenerates in memory and
// fails on drift with a diff and the one command that fixes it.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_POINTS } from '../schema/src/index.js';
import { emitSchema } from './emit-schema.js';
import { genTypes } from './gen-types.js';
import { genValidators } from './gen-validators.js';
import { genIndex } from './gen-index.js';
import { compareOutputs } from './drift.js';
import { buildClientModel } from './client-model.js';
import { GO_TYPES_FILE, genGo } from './gen-go.js';
import { PYTHON_MODELS_FILE, PYTHON_SCHEMA_FILE, genPython } from './gen-python.js';
import { GENERATED_NOTE } from './header.js';

const GENERATED_DIR = 'generated';
/** Client folders mix generated and hand-written files; codegen owns the ones carrying its note. */
const CLIENT_DIRS = ['clients/go', 'clients/python'];

export async function generateAll(): Promise<Map<string, string>> {
  const { doc, text } = emitSchema();
  const { js, dts } = genValidators(doc, ENTRY_POINTS);
  const model = buildClientModel(doc);
  return new Map([
    ['schema/toolnorm.schema.json', text],
    [`${GENERATED_DIR}/types.ts`, await genTypes(doc)],
    [`${GENERATED_DIR}/validators.js`, js],
    [`${GENERATED_DIR}/validators.d.ts`, dts],
    [`${GENERATED_DIR}/index.ts`, genIndex(ENTRY_POINTS)],
    [GO_TYPES_FILE, genGo(model)],
    [PYTHON_MODELS_FILE, genPython(model)],
    [PYTHON_SCHEMA_FILE, text],
  ]);
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? (d as unknown as { path: string }).path, d.name));
}

/** Copies that Python and pip make of generated files (`pip install ./clients/python` builds in place) are not codegen's. */
const isBuildOutput = (path: string) => path.split('/').some((seg) => seg === '__pycache__' || seg === 'build' || seg.endsWith('.egg-info'));
const isGenerated = (file: string) => readFileSync(file, 'utf8').slice(0, 400).includes(GENERATED_NOTE);

export async function run(root: string, check: boolean): Promise<number> {
  const files = await generateAll();
  const rel = (f: string) => relative(root, f).split('\\').join('/');
  const ownedClientFiles = CLIENT_DIRS.flatMap((d) => listFiles(join(root, d))).filter((f) => !isBuildOutput(rel(f)) && isGenerated(f)).map(rel);
  const onDisk = [...listFiles(join(root, GENERATED_DIR)).map(rel), ...ownedClientFiles];
  if (check) {
    const actual = new Map([...files.keys()].map((p) => [p, existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : undefined]));
    const drift = compareOutputs(files, actual, onDisk.filter((p) => !files.has(p)));
    if (drift.length === 0) {
      console.log(`codegen:check: ${files.size} generated files match schema/src`);
      return 0;
    }
    console.error(`codegen:check: generated code has drifted from schema/src (${drift.length} file(s)):`);
    for (const d of drift) {
      console.error(`\n  ${d.kind}: ${d.path}`);
      if (d.diff) console.error(d.diff.replace(/^/gm, '    '));
    }
    console.error('\nFix: run `npm run codegen` and commit schema/, generated/ and clients/ together.');
    return 1;
  }
  // Stale output goes first, so a removed definition cannot linger in generated/.
  rmSync(join(root, GENERATED_DIR), { recursive: true, force: true });
  for (const f of ownedClientFiles) rmSync(join(root, f), { force: true });
  for (const [path, content] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  console.log(`codegen: wrote ${[...files.keys()].join(', ')}`);
  return 0;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  run(root, process.argv.includes('--check')).then(
    (code) => { process.exitCode = code; },
    (err: unknown) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
  );
}
