// The golden suite: every case folder under fixtures/<provider>/ (see fixtures/manifest.json and each
// folder's case.json). For each golden, the parts and the `--to acp` frames are compared with the
// files reviewed by hand once; the frames must also pass the official ACP schema and decode back to
// the same parts. `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites the expected files: review
// the diff before committing it.
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import type { AdapterDefinition } from '../../src/adapters/types.js';
import { collect } from '../../src/pipeline/collect.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { acpFramesOf, golden, storedGolden } from '../helpers/golden.js';
import { expectedFilesOnDisk, expectedName, foldersOnDisk, inputsOf, listedCases, readCase, readManifest, type Golden, type GoldenCase } from '../helpers/golden-cases.js';

const manifest = readManifest();
const cases = listedCases(manifest).map((id) => readCase(id));
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

function adapterOf(c: GoldenCase): AdapterDefinition {
  const adapter = adapterById(c.from);
  if (!adapter) throw new Error(`fixtures/${c.id}/case.json: "from" ${c.from} is no adapter id`);
  return adapter;
}

/** The owner writes the expected file under UPDATE_GOLDEN=1; a `sameAs` golden only reads it. */
const expected = (c: GoldenCase, g: Golden, kind: 'parts' | 'acp', actual: unknown) =>
  g.sameAs === undefined ? golden(c.dir, expectedName(g, kind), actual) : storedGolden(c.dir, expectedName(g, kind));

describe('fixtures/manifest.json', () => {
  it('lists every case folder on disk, and every listed folder is there', () => {
    const disk = foldersOnDisk(manifest);
    expect(disk.cases).toEqual([...listedCases(manifest)].sort());
    expect(disk.top).toEqual([...Object.keys(manifest.cases), ...Object.keys(manifest.other)].sort());
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s: every expected file in the folder belongs to a golden of its case.json', (_id, c) => {
    const owned = c.goldens.filter((g) => g.sameAs === undefined).flatMap((g) => [expectedName(g, 'parts'), expectedName(g, 'acp')]);
    expect(expectedFilesOnDisk(c)).toEqual(owned.sort());
  });

  it('the suite is not vacuous: each provider has cases, and there are as many goldens as before the cases were folders', () => {
    for (const p of ['claude', 'codex', 'opencode']) expect(cases.filter((c) => c.from === p).length, p).toBeGreaterThan(0);
    expect(cases.flatMap((c) => c.goldens).length).toBeGreaterThanOrEqual(35);
  });
});

describe.each(cases.map((c) => [c.id, c] as const))('golden case %s', (_id, c) => {
  const adapter = adapterOf(c);

  it.each(c.goldens.map((g) => [g.name, g] as const))('%s: parts', (_name, g) => {
    const r = collect(adapter, inputsOf(c, g), g.options);
    expect(r.diagnostics.map((d) => d.code)).toEqual(g.diagnostics);
    expect(r.parts.length).toBeGreaterThan(0);
    for (const p of r.parts) expect(validateNormalizedToolPart(p), p.id).toBe(true);
    expect(plain(r.parts)).toEqual(expected(c, g, 'parts', r.parts));
    if (g.titles.length) expect(r.parts.map((p) => p.title)).toEqual(expect.arrayContaining(g.titles));
  });

  it.each(c.goldens.map((g) => [g.name, g] as const))('%s: ACP frames validate against the official schema, match the golden file and decode back to the parts', (_name, g) => {
    const frames = acpFramesOf(adapter, inputsOf(c, g), g.options);
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    expect(frames).toEqual(expected(c, g, 'acp', frames));
    const decoded = decodeFrames(frames);
    expect(decoded.diagnostics).toEqual([]);
    expect(plain(decoded.parts)).toEqual(plain(collect(adapter, inputsOf(c, g), g.options).parts));
  });
});
