// Golden fixtures (fixtures/opencode/): expected parts and `--to acp` frames, reviewed by hand once.
// `UPDATE_GOLDEN=1 npx vitest run test/opencode/golden.test.ts` rewrites them; review the diff.
import { readFileSync } from 'node:fs';
import { acpFramesOf, golden } from '../helpers/golden.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const DIR = join(REPO_ROOT, 'fixtures', 'opencode');

interface Case {
  name: string;
  /** Input files, relative to fixtures/opencode, in the order a directory argument would give them. */
  files: string[];
  /** Diagnostic codes the case must produce, in order. */
  diagnostics: string[];
  /** Options as the CLI would pass them. */
  mcpServers?: string[];
}

const CASES: Case[] = [
  { name: 'run1-events', files: ['run1-events.sse'], diagnostics: [] },
  { name: 'run1-events-mcp', files: ['run1-events.sse'], diagnostics: [], mcpServers: ['demo'] },
  { name: 'run1-run', files: ['run1-run.jsonl'], diagnostics: [] },
  { name: 'run1-export', files: ['run1-export/export-child.json', 'run1-export/export.json'], diagnostics: [] },
  { name: 'run1-messages-api', files: ['run1-messages-api.json'], diagnostics: [] },
  { name: 'run2-events', files: ['run2-events.sse'], diagnostics: [] },
  { name: 'run2-export', files: ['run2-export.json'], diagnostics: [] },
  { name: 'edges', files: ['edges.sse'], diagnostics: ['unknown_event'] },
  { name: 'legacy-run', files: ['legacy-run.jsonl'], diagnostics: [] },
  { name: 'messages-midturn', files: ['messages-midturn.json'], diagnostics: [] },
  // Real 1.18.33 with its opencode.json beside (SOURCES.md): the servers the CLI reads from it.
  { name: 'run3-run', files: ['run3/run.jsonl'], diagnostics: [], mcpServers: ['demo'] },
  { name: 'run3-events', files: ['run3/events.sse'], diagnostics: [], mcpServers: ['demo'] },
  { name: 'run3-export', files: ['run3/export.json'], diagnostics: [], mcpServers: ['demo'] },
];

const inputs = (c: Case) => c.files.map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));
const options = (c: Case) => (c.mcpServers ? { mcpServers: c.mcpServers } : {});

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('opencode golden fixtures', () => {
  it.each(CASES)('$name: parts', (c) => {
    const r = collect(opencodeAdapter, inputs(c), options(c));
    expect(r.diagnostics.map((d) => d.code)).toEqual(c.diagnostics);
    for (const p of r.parts) expect(validateNormalizedToolPart(p), p.id).toBe(true);
    expect(plain(r.parts)).toEqual(golden(DIR, `${c.name}.parts.json`, r.parts));
  });

  it.each(CASES)('$name: ACP frames validate against the official schema, match the golden file and decode back to the parts', (c) => {
    const frames = acpFramesOf(opencodeAdapter, inputs(c), options(c));
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    expect(frames).toEqual(golden(DIR, `${c.name}.acp.json`, frames));
    const decoded = decodeFrames(frames);
    expect(decoded.diagnostics).toEqual([]);
    expect(plain(decoded.parts)).toEqual(plain(collect(opencodeAdapter, inputs(c), options(c)).parts));
  });

  it('the /global/event recording gives the /event golden parts and frames exactly', () => {
    const c: Case = { name: 'run1-global', files: ['run1-global-events.sse'], diagnostics: [] };
    expect(plain(collect(opencodeAdapter, inputs(c)).parts)).toEqual(plain(JSON.parse(readFileSync(join(DIR, 'run1-events.parts.json'), 'utf8'))));
    expect(acpFramesOf(opencodeAdapter, inputs(c), options(c))).toEqual(JSON.parse(readFileSync(join(DIR, 'run1-events.acp.json'), 'utf8')));
  });
});
