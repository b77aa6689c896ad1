// Golden fixtures (fixtures/claude/): expected parts and `--to acp` frames, reviewed by hand once.
// `UPDATE_GOLDEN=1 npx vitest run test/claude/golden.test.ts` rewrites them; review the diff.
import { readFileSync } from 'node:fs';
import { acpFramesOf, golden } from '../helpers/golden.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const DIR = join(REPO_ROOT, 'fixtures', 'claude');

interface Case {
  name: string;
  /** Input files, relative to fixtures/claude, in the order a directory argument would give them. */
  files: string[];
  /** Diagnostic codes the case must produce, in order. */
  diagnostics: string[];
}

const SESSION = 'transcript-subagents/236a8a83-1c69-47e3-af2a-419b8d41680e';
const CASES: Case[] = [
  { name: 'streamjson-all-tools', files: ['streamjson-all-tools.jsonl'], diagnostics: [] },
  { name: 'partial-messages', files: ['partial-messages.jsonl'], diagnostics: [] },
  { name: 'tool-progress-heartbeat', files: ['tool-progress-heartbeat.jsonl'], diagnostics: [] },
  { name: 'bg-bash-legacy-names', files: ['bg-bash-legacy-names.jsonl'], diagnostics: [] },
  { name: 'transcript-subagents', files: [`${SESSION}.jsonl`, `${SESSION}/subagents/agent-a9eb076ac095ef555.jsonl`, `${SESSION}/subagents/agent-a9eb076ac095ef555.meta.json`], diagnostics: [] },
  { name: 'edges-streamjson', files: ['edges-streamjson.jsonl'], diagnostics: ['orphan_result'] },
  { name: 'sidechain-1.0', files: ['sidechain-1.0.jsonl'], diagnostics: [] },
];

const inputs = (c: Case) => c.files.map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));

describe('claude golden fixtures', () => {
  it.each(CASES)('$name: parts', (c) => {
    const r = collect(claudeAdapter, inputs(c));
    expect(r.diagnostics.map((d) => d.code)).toEqual(c.diagnostics);
    for (const p of r.parts) expect(validateNormalizedToolPart(p), p.id).toBe(true);
    expect(JSON.parse(JSON.stringify(r.parts))).toEqual(golden(DIR, `${c.name}.parts.json`, r.parts));
  });

  it.each(CASES)('$name: ACP frames validate, match the golden file and decode back to the parts', (c) => {
    const frames = acpFramesOf(claudeAdapter, inputs(c));
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    expect(frames).toEqual(golden(DIR, `${c.name}.acp.json`, frames));
    const decoded = decodeFrames(frames);
    expect(decoded.diagnostics).toEqual([]);
    const parts = collect(claudeAdapter, inputs(c)).parts;
    expect(JSON.parse(JSON.stringify(decoded.parts))).toEqual(JSON.parse(JSON.stringify(parts)));
  });
});
