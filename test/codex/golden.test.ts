// Golden fixtures (fixtures/codex/): inputs copied from corpus/codex/captured plus hand cases for
// the edges; expected parts and `--to acp` frames, reviewed by hand once.
// `UPDATE_GOLDEN=1 npx vitest run test/codex/golden.test.ts` rewrites them; review the diff.
import { readFileSync } from 'node:fs';
import { acpFramesOf, golden } from '../helpers/golden.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const DIR = join(REPO_ROOT, 'fixtures', 'codex');

interface Case {
  name: string;
  /** Diagnostic codes the case must produce, in order. */
  diagnostics: string[];
}

const CASES: Case[] = [
  // Captured from the real 0.163 binary (corpus/codex/captured).
  { name: 'exec-tools-plan', diagnostics: [] },
  { name: 'appserver-tools', diagnostics: [] },
  { name: 'rollout-0163-probe', diagnostics: [] },
  // Captured from the real 0.171 binary (fixtures/codex/SOURCES.md): refusals, failures, MCP.
  { name: 'exec-0171-errors', diagnostics: [] },
  { name: 'appserver-0171-errors', diagnostics: [] },
  { name: 'rollout-0171-exec-errors', diagnostics: [] },
  { name: 'rollout-0171-appserver-errors', diagnostics: [] },
  // Hand cases.
  { name: 'appserver-declined-approval', diagnostics: [] },
  { name: 'appserver-failed-mcp', diagnostics: [] },
  { name: 'appserver-interrupted-turn', diagnostics: [] },
  { name: 'appserver-web-search', diagnostics: [] },
  { name: 'appserver-subagent', diagnostics: [] },
  { name: 'exec-edges', diagnostics: [] },
  { name: 'rollout-edges', diagnostics: [] },
];

const input = (c: Case) => [{ name: `${c.name}.jsonl`, text: readFileSync(join(DIR, `${c.name}.jsonl`), 'utf8') }];

describe('codex golden fixtures', () => {
  it.each(CASES)('$name: parts', (c) => {
    const r = collect(codexAdapter, input(c));
    expect(r.diagnostics.map((d) => d.code)).toEqual(c.diagnostics);
    expect(r.parts.length).toBeGreaterThan(0);
    for (const p of r.parts) expect(validateNormalizedToolPart(p), p.id).toBe(true);
    expect(JSON.parse(JSON.stringify(r.parts))).toEqual(golden(DIR, `${c.name}.parts.json`, r.parts));
  });

  it.each(CASES)('$name: ACP frames validate, match the golden file and decode back to the parts', (c) => {
    const frames = acpFramesOf(codexAdapter, input(c));
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    expect(frames).toEqual(golden(DIR, `${c.name}.acp.json`, frames));
    const decoded = decodeFrames(frames);
    expect(decoded.diagnostics).toEqual([]);
    expect(JSON.parse(JSON.stringify(decoded.parts))).toEqual(JSON.parse(JSON.stringify(collect(codexAdapter, input(c)).parts)));
  });

  it('the seed title examples come out of the fixtures exactly', () => {
    const titles = (name: string) => collect(codexAdapter, input({ name, diagnostics: [] })).parts.map((p) => p.title);
    for (const name of ['appserver-web-search', 'rollout-edges']) {
      expect(titles(name)).toEqual(expect.arrayContaining(['Searching Reuters top news', 'Opening apnews.com', 'Finding "Updated" on apnews.com']));
    }
    expect(titles('appserver-failed-mcp')).toEqual(expect.arrayContaining(['Reading browser page', 'Opening browser page']));
  });
});
