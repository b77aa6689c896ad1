// The golden cases under fixtures/<provider>/<case>/, read from their own case.json files and
// checked against fixtures/manifest.json. A case folder holds one recording (or one hand-written
// input) and the goldens taken from it: each golden names its inputs, the options the CLI would
// pass, the diagnostics it must produce, and owns `<name>.parts.json` + `<name>.acp.json` beside
// them. Nothing about a case lives in the test, so adding a case is adding a folder (and a line in
// the manifest, which keeps a deleted or misnamed folder from passing unnoticed).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { AdapterOptions } from '../../src/adapters/types.js';
import type { InputFile } from '../../src/pipeline/collect.js';
import { REPO_ROOT } from './corpus.js';

export const FIXTURES = join(REPO_ROOT, 'fixtures');

export interface Golden {
  /** Names the expected files `<name>.parts.json` and `<name>.acp.json` in the case folder. */
  name: string;
  /** Input files, relative to the case folder, in the order a directory argument would give them. */
  inputs: string[];
  /** Adapter options as the CLI would pass them (`--cwd`, `--mcp-server`, `--session-id`). */
  options: AdapterOptions;
  /** Diagnostic codes the golden must produce, in order. */
  diagnostics: string[];
  /** Titles the parts must include (examples the spec gives, checked on top of the golden files). */
  titles: string[];
  /** Another golden of this folder whose expected files this one must reproduce exactly. */
  sameAs?: string;
}

export interface GoldenCase {
  /** `<provider>/<case>`, relative to fixtures/. */
  id: string;
  /** Absolute path of the case folder. */
  dir: string;
  /** The adapter id (`--from`); always the provider folder's name. */
  from: string;
  about: string;
  goldens: Golden[];
}

export interface Manifest {
  /** Case folder names, by provider folder. */
  cases: Record<string, string[]>;
  /** The folders of fixtures/ that hold no golden cases, with what they hold. */
  other: Record<string, string>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A readable failure naming the file and the field, instead of a TypeError deep in a test. */
class CaseError extends Error {}
const fail = (where: string, why: string): never => {
  throw new CaseError(`${where}: ${why}`);
};

function readJson(root: string, rel: string): unknown {
  const path = join(root, rel);
  if (!existsSync(path)) fail(`fixtures/${rel}`, 'missing');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    return fail(`fixtures/${rel}`, `not JSON (${(e as Error).message})`);
  }
}

function onlyKeys(where: string, o: Obj, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(where, `unknown key "${k}" (allowed: ${allowed.join(', ')})`);
}

/** `root` is fixtures/ unless a test points it at a folder of its own. */
export function readManifest(root = FIXTURES): Manifest {
  const m = readJson(root, 'manifest.json');
  const where = 'fixtures/manifest.json';
  if (!isObj(m)) return fail(where, 'not an object');
  onlyKeys(where, m, ['about', 'cases', 'other']);
  if (!isObj(m.cases) || !Object.values(m.cases).every(isStrings)) fail(where, '"cases" must map each provider folder to a list of case folder names');
  if (!isObj(m.other) || !Object.values(m.other).every((v) => typeof v === 'string')) fail(where, '"other" must map each non-case folder to what it holds');
  return { cases: m.cases as Record<string, string[]>, other: m.other as Record<string, string> };
}

const OPTION_KEYS = ['cwd', 'mcpServers', 'sessionId'] as const;

function readOptions(where: string, v: unknown): AdapterOptions {
  if (v === undefined) return {};
  if (!isObj(v)) return fail(where, '"options" must be an object');
  onlyKeys(where, v, OPTION_KEYS);
  if (v.cwd !== undefined && typeof v.cwd !== 'string') fail(where, '"options.cwd" must be a string');
  if (v.sessionId !== undefined && typeof v.sessionId !== 'string') fail(where, '"options.sessionId" must be a string');
  if (v.mcpServers !== undefined && !isStrings(v.mcpServers)) fail(where, '"options.mcpServers" must be a list of strings');
  return v as AdapterOptions;
}

function readGolden(id: string, dir: string, v: unknown, i: number): Golden {
  const where = `fixtures/${id}/case.json goldens[${i}]`;
  if (!isObj(v)) return fail(where, 'not an object');
  onlyKeys(where, v, ['name', 'inputs', 'options', 'diagnostics', 'titles', 'sameAs']);
  if (typeof v.name !== 'string' || !/^[\w.-]+$/.test(v.name)) fail(where, '"name" must be a file-name-safe string');
  if (!isStrings(v.inputs) || v.inputs.length === 0) fail(where, '"inputs" must be a non-empty list of paths');
  for (const input of v.inputs as string[]) {
    // Inside the case folder: a case that reads another folder's files is not self-describing.
    if (normalize(input).startsWith(`..${sep}`) || normalize(input).startsWith(sep)) fail(where, `input "${input}" is outside the case folder`);
    if (!existsSync(join(dir, input))) fail(where, `input "${input}" does not exist`);
  }
  for (const key of ['diagnostics', 'titles'] as const) if (v[key] !== undefined && !isStrings(v[key])) fail(where, `"${key}" must be a list of strings`);
  if (v.sameAs !== undefined && typeof v.sameAs !== 'string') fail(where, '"sameAs" must name another golden of the folder');
  return {
    name: v.name as string,
    inputs: v.inputs as string[],
    options: readOptions(where, v.options),
    diagnostics: (v.diagnostics as string[] | undefined) ?? [],
    titles: (v.titles as string[] | undefined) ?? [],
    ...(v.sameAs !== undefined ? { sameAs: v.sameAs as string } : {}),
  };
}

export function readCase(id: string, root = FIXTURES): GoldenCase {
  const where = `fixtures/${id}/case.json`;
  const dir = join(root, id);
  const c = readJson(root, `${id}/case.json`);
  if (!isObj(c)) return fail(where, 'not an object');
  onlyKeys(where, c, ['about', 'from', 'goldens']);
  const provider = id.split('/')[0]!;
  if (c.from !== provider) fail(where, `"from" is ${JSON.stringify(c.from)}, but the case sits in fixtures/${provider}/`);
  if (typeof c.about !== 'string' || !c.about.trim()) fail(where, '"about" must say what the case is');
  if (!Array.isArray(c.goldens) || c.goldens.length === 0) fail(where, '"goldens" must be a non-empty list');
  const goldens = (c.goldens as unknown[]).map((g, i) => readGolden(id, dir, g, i));
  const names = goldens.map((g) => g.name);
  if (new Set(names).size !== names.length) fail(where, `golden names repeat: ${names.join(', ')}`);
  for (const g of goldens) {
    const owner = g.sameAs === undefined ? undefined : goldens.find((x) => x.name === g.sameAs);
    if (g.sameAs !== undefined && (!owner || owner.sameAs !== undefined)) fail(where, `"${g.name}".sameAs must name a golden of this folder that has its own files`);
  }
  return { id, dir, from: provider, about: c.about as string, goldens };
}

const subdirs = (dir: string): string[] => readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()).sort();

/** Every folder as it is on disk: the top-level folders of fixtures/ and each provider's case folders. */
export function foldersOnDisk(manifest: Manifest, root = FIXTURES): { top: string[]; cases: string[] } {
  const top = subdirs(root);
  const cases = top.filter((t) => t in manifest.cases).flatMap((p) => subdirs(join(root, p)).map((c) => `${p}/${c}`));
  return { top, cases };
}

/** The case folders the manifest lists, `<provider>/<case>`, in manifest order. */
export const listedCases = (manifest: Manifest): string[] => Object.entries(manifest.cases).flatMap(([p, names]) => names.map((n) => `${p}/${n}`));

/** The expected files a golden is compared with (its own, or those of the golden it is the same as). */
export const expectedName = (g: Golden, kind: 'parts' | 'acp'): string => `${g.sameAs ?? g.name}.${kind}.json`;

/** Every `*.parts.json` / `*.acp.json` in the case folder itself (nested input folders are inputs). */
export function expectedFilesOnDisk(c: GoldenCase): string[] {
  return readdirSync(c.dir).filter((n) => /\.(parts|acp)\.json$/.test(n) && statSync(join(c.dir, n)).isFile()).sort();
}

/** The golden's inputs, named as a directory argument relative to the case folder would name them. */
export function inputsOf(c: GoldenCase, g: Golden): InputFile[] {
  return g.inputs.map((f) => ({ name: f, text: readFileSync(join(c.dir, f), 'utf8') }));
}

/** A file of a case folder, for the suites that read a fixture directly (`fixturePath('codex/exec-edges', 'exec-edges.jsonl')`). */
export function fixturePath(caseId: string, file: string): string {
  const path = join(FIXTURES, caseId, file);
  if (!existsSync(path)) throw new Error(`no fixture file fixtures/${caseId}/${file}: see fixtures/manifest.json for the case folders`);
  return path;
}

/** Every file below fixtures/<provider>/ whose name passes `test`, sorted by path (the suites that mine fixture lines). */
export function fixtureFiles(provider: string, test: (name: string) => boolean): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).sort().flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : test(n) ? [p] : [];
    });
  return walk(join(FIXTURES, provider));
}
