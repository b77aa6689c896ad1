// The package as a user installs it: built and packed from this checkout, installed into fresh
// consumer projects with --omit=dev (once with the optional drivers, once without them and with
// no install scripts at all), then imported, run and type-checked from outside the repo.
// Offline: every dependency comes from the npm cache that `npm ci` of this repo filled; nothing is
// fetched (`--offline` makes a missing one a failure, not a download).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, corpusAvailable, CORPUS } from '../helpers/corpus.js';
import { consumerLock } from './lock.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const SUBPATHS = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !k.endsWith('.json'));
/** Subpaths whose types import a provider SDK: they compile where the user installed that SDK (test/types covers them). */
const SDK_SUBPATHS = new Set(['./claude-agent-sdk', './codex-sdk', './opencode-sdk']);
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let work: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

function consumer(name: string, installFlags: string[], extra: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const deps = { toolnorm: `file:${tarball}`, ...extra };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: deps }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(consumerLock(REPO_ROOT, tarball, deps, pkg as never), null, 2));
  run('npm', ['ci', '--omit=dev', ...installFlags, ...NPM_FLAGS], dir);
  return dir;
}

function node(dir: string, code: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cliRun(dir: string, args: string[]) {
  const r = spawnSync(join(dir, 'node_modules', '.bin', 'toolnorm'), args, { cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A recorded session to normalize: a corpus recording when ../shared is here, else the shipped demo. */
function sampleSession(): string {
  if (corpusAvailable()) return join(CORPUS, 'claude', 'captured', 'streamjson-2.1.332-all-tools.jsonl');
  return join(REPO_ROOT, 'fixtures', 'demo', 'claude-streamjson-all-tools.jsonl');
}

/** Every bare package a built file imports at run time (static or dynamic, not `import type`). */
function runtimeImports(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.js')) {
        const text = readFileSync(p, 'utf8');
        const statements = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;
        for (const m of text.matchAll(statements)) {
          const spec = (m[1] ?? m[2] ?? m[3] ?? m[4])!;
          if (spec.startsWith('.')) continue;
          if (spec.startsWith('node:')) continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          found.set(name, [...(found.get(name) ?? []), relative(dir, p)]);
        }
      }
    }
  };
  walk(dir);
  return found;
}

/** `node_modules` folders Node would search from inside `dir` once the project's own has missed. */
function ancestorModules(dir: string): string[] {
  const out: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) out.push(join(d, 'node_modules'));
    if (dirname(d) === d) return out;
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'toolnorm-package-'));
  // The installs below must see only what they installed: a node_modules above the temp folder
  // (a stray /tmp/node_modules, say) would supply the optional packages the tests expect missing.
  const above = ancestorModules(work);
  if (above.length) throw new Error(`the package tests install into ${work}, but Node would also find packages in ${above.join(', ')}; remove it or set TMPDIR to a folder with no node_modules above it`);
  // Build into a staging copy, so the test packs exactly this checkout's sources and never
  // touches the repo's own dist/ that other suites are running.
  const stage = join(work, 'stage');
  mkdirSync(join(stage, 'schema'), { recursive: true });
  for (const f of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(REPO_ROOT, f), join(stage, f));
  copyFileSync(join(REPO_ROOT, 'schema', 'toolnorm.schema.json'), join(stage, 'schema', 'toolnorm.schema.json'));
  cpSync(join(REPO_ROOT, 'fixtures', 'demo'), join(stage, 'fixtures', 'demo'), { recursive: true });
  cpSync(join(REPO_ROOT, 'bin'), join(stage, 'bin'), { recursive: true });
  run(process.execPath, [join(REPO_ROOT, 'scripts', 'build.mjs'), '--out', join(stage, 'dist')], REPO_ROOT);
  const out = run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json', '--loglevel=error'], stage);
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships one copy of the generated code, the license and the schema, and no sources or tests', () => {
    const list = run('tar', ['-tzf', tarball], work).split('\n').filter(Boolean);
    expect(list).toContain('package/LICENSE');
    expect(list).toContain('package/schema/toolnorm.schema.json');
    expect(list.filter((f) => f.startsWith('package/generated/'))).toEqual([]);
    // The generated validators (ajv's validateN functions) are in exactly one built file.
    const extracted = join(work, 'list');
    mkdirSync(extracted);
    run('tar', ['-xzf', tarball, '-C', extracted], work);
    const js = list.filter((f) => f.endsWith('.js'));
    const holders = js.filter((f) => /\bfunction validate\d+\(/.test(readFileSync(join(extracted, f), 'utf8')));
    expect(holders).toHaveLength(1);
    expect(list.filter((f) => /^package\/(src|test|bench|codegen)\//.test(f))).toEqual([]);
  });

  it('runs nothing at install: no install-time script in the manifest, the build is prepack', () => {
    const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], work)) as { scripts?: Record<string, string>; bin: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    // npm runs these in every consumer's install (and npm 11 warns about each package that has one).
    const INSTALL_TIME = ['preinstall', 'install', 'postinstall', 'prepare'];
    expect(INSTALL_TIME.filter((k) => manifest.scripts?.[k])).toEqual([]);
    expect(manifest.scripts?.prepack).toBe('npm run build');
    // The native SQLite driver is an optional peer: npm never installs (or compiles) it by itself.
    expect(Object.keys(manifest.optionalDependencies ?? {})).not.toContain('better-sqlite3');
    expect(manifest.peerDependenciesMeta?.['better-sqlite3']?.optional).toBe(true);
    const list = run('tar', ['-tzf', tarball], work).split('\n');
    expect(list).toContain(`package/${manifest.bin.toolnorm}`);
    // Every subpath has its CommonJS door (attw's node16 profile fails a require that resolves to ESM).
    const doors = Object.entries(pkg.exports as Record<string, string | { require?: { types: string; default: string } }>)
      .filter(([, t]) => typeof t === 'object')
      .flatMap(([k, t]) => {
        const r = (t as { require?: { types: string; default: string } }).require;
        return r ? [r.types, r.default].filter((f) => !list.includes(`package/${f.replace(/^\.\//, '')}`)).map((f) => `${k}: ${f}`) : [`${k}: no require condition`];
      });
    expect(doors).toEqual([]);
  });

  it('imports at run time only its dependencies, its optional drivers and Node built-ins', () => {
    const extracted = join(work, 'extracted');
    mkdirSync(extracted);
    run('tar', ['-xzf', tarball, '-C', extracted], work);
    // Optional peers (e.g. @opentelemetry/api) are loaded with import() only by the subpath that needs them.
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies), ...Object.keys(pkg.peerDependencies)]);
    const bad = [...runtimeImports(join(extracted, 'package', 'dist'))].filter(([name]) => !allowed.has(name));
    // A devDependency imported at run time crashes every user's install (it was @sinclair/typebox).
    expect(bad.map(([name, files]) => `${name} (${pkg.devDependencies[name] ? 'a devDependency' : 'not a dependency'}) in ${files.slice(0, 3).join(', ')}`)).toEqual([]);
  });
});

/** Packages in an installed tree that run an install script, and native addons (.node files) anywhere in it. */
function nativeParts(dir: string): string[] {
  const lock = JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const scripted = Object.entries(lock.packages).filter(([, e]) => e.hasInstallScript).map(([k]) => `${k} (install script)`);
  const addons: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.node')) addons.push(relative(dir, join(d, e.name)));
    }
  };
  walk(join(dir, 'node_modules'));
  return [...scripted, ...addons];
}

const NODE_SQLITE = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 13);
})();

describe('installed with --omit=dev, as `npm install toolnorm` does (scripts allowed)', () => {
  let dir: string;
  beforeAll(() => {
    dir = consumer('default', []);
  }, 600_000);

  it('builds nothing native and runs no install script', () => {
    expect(existsSync(join(dir, 'node_modules', 'toolnorm', 'package.json'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(nativeParts(dir)).toEqual([]);
  });

  it.runIf(NODE_SQLITE)(`on Node ${process.versions.node}, the SQLite store runs on node:sqlite with nothing else installed`, () => {
    const direct = cliRun(dir, ['normalize', sampleSession()]);
    const stored = cliRun(dir, ['normalize', sampleSession(), '--store', 'sqlite:db/events.db']);
    expect(stored.stderr).toBe('');
    expect(stored.status).toBe(0);
    expect(stored.stdout).toBe(direct.stdout);
    const lib = node(dir, `import { SqliteEventStore } from 'toolnorm/store'; const s = new SqliteEventStore('db/events.db', { create: false }); console.log(s.engine, (await s.sessions()).length); await s.close();`);
    expect(lib.stderr).toBe('');
    expect(lib.stdout.trim()).toMatch(/^node:sqlite [1-9]\d*$/);
  });

  it.runIf(!NODE_SQLITE)(`on Node ${process.versions.node}, opening a SQLite store is one clear line naming better-sqlite3`, () => {
    const lib = node(dir, `import { openStore } from 'toolnorm/store'; try { await openStore('sqlite:db/events.db'); console.log('opened'); } catch (e) { console.log(e.name + ': ' + e.message); }`);
    expect(lib.stdout.trim()).toMatch(/^MissingDriverError: the SQLite event store needs the optional package better-sqlite3, which is not installed: run `npm install better-sqlite3@12`$/);
    const cli = cliRun(dir, ['normalize', sampleSession(), '--store', 'sqlite:db/events.db']);
    expect(cli.status).not.toBe(0);
    const errLines = cli.stderr.trim().split('\n');
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toMatch(/better-sqlite3/);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('installed with --omit=dev --omit=optional --ignore-scripts (no native build)', () => {
  let dir: string;
  beforeAll(() => {
    dir = consumer('light', ['--omit=optional', '--ignore-scripts']);
  }, 600_000);

  it('installs no driver and no native module', () => {
    for (const p of ['better-sqlite3', 'pg', '@sinclair/typebox']) expect(existsSync(join(dir, 'node_modules', p)), p).toBe(false);
  });

  it('imports the root and every subpath', () => {
    const code = `const out = {}; for (const s of ${JSON.stringify(SUBPATHS.map((s) => (s === '.' ? 'toolnorm' : `toolnorm/${s.slice(2)}`)))}) { const m = await import(s); out[s] = Object.keys(m).length; } console.log(JSON.stringify(out));`;
    const r = node(dir, code);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const counts = JSON.parse(r.stdout) as Record<string, number>;
    expect(Object.keys(counts)).toHaveLength(SUBPATHS.length);
    // Every subpath but the type-only one exports something.
    for (const [s, n] of Object.entries(counts)) if (s !== 'toolnorm/types') expect(n, s).toBeGreaterThan(0);
    const schema = node(dir, `import s from 'toolnorm/schema.json' with { type: 'json' }; console.log(Object.keys(s.$defs).length)`);
    expect(Number(schema.stdout)).toBeGreaterThan(10);
  });

  it('require() works, as engines (>=20.19, where require of ESM is on by default) promises', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19), `this test runs on Node ${process.versions.node}, below engines`).toBe(true);
    const r = spawnSync(process.execPath, ['-e', `const t = require('toolnorm'); const s = require('toolnorm/store'); console.log(typeof t.collect, typeof s.openStore)`], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr.replace(/^.*ExperimentalWarning.*\n?|^\(Use `node --trace-warnings.*\n?/gm, '')).toBe('');
    expect(r.stdout.trim()).toBe('function function');
  });

  it('the core does not load the stores, the executor, the compressor or the CLI', () => {
    // A loader hook lists every file of the package a process evaluates; what `import 'toolnorm'`
    // loads must hold none of the heavy parts, which `import 'toolnorm/<part>'` does load.
    // The hook appends to a file, synchronously: from Node 22 on, hooks run on their own thread,
    // whose stderr writes can still be in flight when a short process exits.
    writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs'; export async function load(url, ctx, next) { if (url.includes('/node_modules/toolnorm/')) appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, ctx); }`);
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(new URL('./hooks.mjs', import.meta.url));`);
    let n = 0;
    const loaded = (spec: string) => {
      const log = join(dir, `loaded-${n++}.txt`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, ['--import', './register.mjs', '--input-type=module', '-e', `await import('${spec}')`], { cwd: dir, encoding: 'utf8', env: { ...process.env, LOADED_LOG: log } });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:')).map((u) => readFileSync(new URL(u), 'utf8')).join('\n');
    };
    const MARKERS: Record<string, RegExp> = {
      'toolnorm/store': /\b(class SqliteEventStore|SqliteEventStore = class)\b/,
      'toolnorm/executor': /\b(class ToolExecutor|ToolExecutor = class)\b/,
      'toolnorm/compress': /\b(class DeclarativeCompressor|DeclarativeCompressor = class)\b/,
      'toolnorm/cli': /\bfunction runCli\b/,
    };
    const core = loaded('toolnorm');
    expect(core).toMatch(/\b(class NormalizePipeline|NormalizePipeline = class)\b/);
    for (const [spec, marker] of Object.entries(MARKERS)) {
      expect(core, `import 'toolnorm' loads ${spec}`).not.toMatch(marker);
      expect(loaded(spec), spec).toMatch(marker);
    }
    expect(core).not.toMatch(/better-sqlite3/);
  });

  it('the installed CLI normalizes a recorded session', () => {
    const r = cliRun(dir, ['normalize', sampleSession(), '--summary']);
    expect(r.status).toBe(0);
    const parts = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { id: string; kind: string });
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.every((p) => typeof p.id === 'string' && p.kind !== 'unknown')).toBe(true);
  });

  it('without the optional shell parser, a command rule denies every command and names the package', () => {
    const r = cliRun(dir, ['exec', '--allow-command', 'ls *', '--allow-unsandboxed', 'bash', '{"command":"ls"}']);
    expect(r.status).toBe(3);
    const part = JSON.parse(r.stdout.trim()) as { state: string; error: { code: string; message: string } };
    expect(part.state).toBe('error');
    expect(part.error.code).toBe('denied');
    expect(part.error.message).toMatch(/@ericcornelissen\/bash-parser/);
  });

  it('opening a store without its driver is one clear line naming the package', () => {
    // (SQLite without better-sqlite3: the default install's tests, on either engine.)
    const pg = node(dir, `import { openStore } from 'toolnorm/store'; try { await openStore('postgres://127.0.0.1:1/x'); } catch (e) { console.log(e.name + ': ' + e.message); }`);
    expect(pg.stdout.trim()).toMatch(/^MissingDriverError: the PostgreSQL event store needs the optional package pg/);
  });
});

describe('installed with --omit=dev and the optional drivers', () => {
  let dir: string;
  beforeAll(() => {
    // --ignore-scripts skips better-sqlite3's native compile (minutes here); the binding this
    // checkout's `npm ci` already compiled for this Node is copied in instead. Everything else
    // is the real install of the packed tarball.
    // better-sqlite3 is an optional peer: a Node 20 user who wants the SQLite store installs it.
    dir = consumer('full', ['--ignore-scripts'], { '@types/node': pkg.devDependencies['@types/node']!, '@opentelemetry/api': pkg.devDependencies['@opentelemetry/api']!, 'better-sqlite3': pkg.devDependencies['better-sqlite3']! });
    cpSync(join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build'), join(dir, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
  }, 600_000);

  it('installs the drivers', () => {
    for (const p of ['better-sqlite3', 'pg']) expect(existsSync(join(dir, 'node_modules', p, 'package.json')), p).toBe(true);
  });

  it('normalizes into a SQLite store and replays the same parts', () => {
    const direct = cliRun(dir, ['normalize', sampleSession()]);
    const stored = cliRun(dir, ['normalize', sampleSession(), '--store', 'sqlite:db/events.db']);
    expect(stored.status).toBe(0);
    expect(stored.stdout).toBe(direct.stdout);
    const sessions = cliRun(dir, ['sessions', '--store', 'sqlite:db/events.db']);
    expect(sessions.status).toBe(0);
    expect(sessions.stdout.trim().split('\n').length).toBeGreaterThan(0);
  });

  it('its declarations name no driver: a consumer needs no @types for a driver it does not use', () => {
    const dts = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? dts(join(d, e.name)) : /\.d\.c?ts$/.test(e.name) ? [join(d, e.name)] : []));
    const naming = dts(join(dir, 'node_modules', 'toolnorm', 'dist')).filter((f) => /from ['"](better-sqlite3|pg)['"]/.test(readFileSync(f, 'utf8')));
    expect(naming.map((f) => relative(dir, f))).toEqual([]);
  });

  it('compiles a consumer of every subpath under strict, without skipLibCheck', () => {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, resolveJsonModule: true, types: ['node'], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
      files: ['consumer.ts'],
    }));
    copyFileSync(join(REPO_ROOT, 'test', 'package', 'consumer.ts.txt'), join(dir, 'consumer.ts'));
    const imported = [...readFileSync(join(dir, 'consumer.ts'), 'utf8').matchAll(/from '(toolnorm[^']*)'/g)].map((m) => m[1]!);
    // The consumer file must exercise every subpath that needs no provider SDK.
    for (const s of SUBPATHS.filter((s) => !SDK_SUBPATHS.has(s))) expect(imported, s).toContain(s === '.' ? 'toolnorm' : `toolnorm/${s.slice(2)}`);
    const r = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    // And it runs.
    const js = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'consumer.ts', sampleSession()], { cwd: dir, encoding: 'utf8' });
    expect(js.stderr).toBe('');
    expect(js.stdout).toMatch(/^parts \d+, live updates \d+, frames \d+, ui \d+, ai-sdk \d+$/m);
  });
});

describe('installed with only TypeScript beside it: the OTLP writer needs no OpenTelemetry package', () => {
  let dir: string;
  beforeAll(() => {
    dir = consumer('otlp-only', ['--omit=optional', '--ignore-scripts'], { typescript: pkg.devDependencies.typescript! });
  }, 600_000);

  /** tsc --strict, without skipLibCheck and with no @types, on one file of this consumer. */
  function compile(file: string, code: string) {
    writeFileSync(join(dir, file), code);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: [], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
      files: [file],
    }));
    const r = spawnSync(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    return { out: r.stdout + r.stderr, status: r.status };
  }

  it('has neither @opentelemetry/api nor any other @opentelemetry package', () => {
    expect(existsSync(join(dir, 'node_modules', 'typescript', 'package.json'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', '@opentelemetry'))).toBe(false);
  });

  it('compiles a consumer of toolnorm/otel/otlp, and of toolnorm/otel, under strict without skipLibCheck', () => {
    const otlp = compile('otlp.ts', [
      "import { OtlpEncoder, otlpEncoder, toolSpanOf, type ExportTraceServiceRequest } from 'toolnorm/otel/otlp';",
      'const lines: ExportTraceServiceRequest[] = [];',
      'const enc = new OtlpEncoder({ output: (r) => lines.push(r as ExportTraceServiceRequest), diagnostic: () => {} });',
      "enc.final('s', { id: 'p', name: 'Read', kind: 'file_read', title: 'Reading a', input: {}, state: 'complete', timing: { startedAt: 1, completedAt: 2 } });",
      'enc.end();',
      "export const out: [number, unknown, unknown] = [lines.length, otlpEncoder(), toolSpanOf];",
      '',
    ].join('\n'));
    expect(otlp.out).toBe('');
    expect(otlp.status).toBe(0);
    // The whole module too: recordToolSpans' types are its own, so they need no API either.
    const full = compile('full.ts', "import { recordToolSpans, type OtelTracer } from 'toolnorm/otel';\nexport const f: (t: OtelTracer) => Promise<unknown> = (t) => recordToolSpans(t, []);\n");
    expect(full.out).toBe('');
    expect(full.status).toBe(0);
    // Not vacuous: a type error in the same setup is reported.
    const bad = compile('bad.ts', "import { otlpEncoder } from 'toolnorm/otel/otlp';\nexport const n: number = otlpEncoder;\n");
    expect(bad.out).toMatch(/TS2322/);
  });
});
