// The case reader itself: a case.json that is wrong says which file and which field, instead of
// failing somewhere inside the golden suite, and the manifest check sees a folder it does not list.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldersOnDisk, listedCases, readCase, readManifest } from '../helpers/golden-cases.js';

const root = mkdtempSync(join(tmpdir(), 'toolnorm-cases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fixtures/ folder with one case `codex/one` whose case.json is `caseJson`. */
function fixturesWith(caseJson: unknown, files: Record<string, string> = { 'one.jsonl': '{}\n' }): string {
  const dir = mkdtempSync(join(root, 'f-'));
  mkdirSync(join(dir, 'codex', 'one'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ cases: { codex: ['one'] }, other: {} }));
  writeFileSync(join(dir, 'codex', 'one', 'case.json'), typeof caseJson === 'string' ? caseJson : JSON.stringify(caseJson));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'codex', 'one', name), text);
  return dir;
}

const good = { about: 'a case', from: 'codex', goldens: [{ name: 'one', inputs: ['one.jsonl'], options: { cwd: '/w' } }] };

describe('case.json', () => {
  it('a good one reads with its defaults filled in', () => {
    const c = readCase('codex/one', fixturesWith(good));
    expect(c.goldens).toEqual([{ name: 'one', inputs: ['one.jsonl'], options: { cwd: '/w' }, diagnostics: [], titles: [] }]);
  });

  it.each([
    ['not JSON', '{', /fixtures\/codex\/one\/case.json: not JSON/],
    ['an unknown key', { ...good, form: 'exec' }, /unknown key "form"/],
    ['a "from" that is not the provider folder', { ...good, from: 'claude' }, /"from" is "claude", but the case sits in fixtures\/codex\//],
    ['a missing input', { ...good, goldens: [{ name: 'one', inputs: ['two.jsonl'] }] }, /goldens\[0\]: input "two.jsonl" does not exist/],
    ['an input outside the folder', { ...good, goldens: [{ name: 'one', inputs: ['../one/one.jsonl'] }] }, /input "..\/one\/one.jsonl" is outside the case folder/],
    ['an unknown option', { ...good, goldens: [{ name: 'one', inputs: ['one.jsonl'], options: { clock: 0 } }] }, /unknown key "clock"/],
    ['a sameAs naming no golden', { ...good, goldens: [{ name: 'one', inputs: ['one.jsonl'], sameAs: 'two' }] }, /"one".sameAs must name a golden of this folder/],
    ['two goldens of one name', { ...good, goldens: [good.goldens[0], good.goldens[0]] }, /golden names repeat: one, one/],
  ])('%s is refused with the file and the field', (_what, json, message) => {
    expect(() => readCase('codex/one', fixturesWith(json))).toThrow(message);
  });

  it('the manifest check sees an unlisted folder', () => {
    const dir = fixturesWith(good);
    mkdirSync(join(dir, 'codex', 'stray'));
    const m = readManifest(dir);
    expect(foldersOnDisk(m, dir).cases).toEqual(['codex/one', 'codex/stray']);
    expect(listedCases(m)).toEqual(['codex/one']);
  });
});
