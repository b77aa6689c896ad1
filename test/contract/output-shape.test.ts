// The documented output shape is a checked promise: every successful part toolnorm's own
// adapters build from a real recording carries a ToolOutput (or no output at all), so a consumer
// narrows `part.output` with the generated isToolOutput guard instead of a cast.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import { collect } from '../../src/pipeline/collect.js';
import { isToolOutput, issuesOfToolOutput } from '../../src/contract/index.js';
import { CORPUS, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

const cases = corpusAvailable()
  ? (['claude', 'codex', 'opencode'] as const).flatMap((p) => corpusFiles(p, (n) => /\.(jsonl|json|sse)$/.test(n)).map((rel) => [p, rel] as const))
  : [];

describe('ToolOutput', () => {
  it('rejects what is not the documented shape', () => {
    expect(isToolOutput({ text: 'ok' })).toBe(true);
    expect(isToolOutput({ text: 'ok', content: [{ type: 'image', mediaType: 'image/png', bytes: 3 }], structured: { any: 1 } })).toBe(true);
    expect(isToolOutput('done')).toBe(false);
    expect(isToolOutput({ text: 1 })).toBe(false);
    expect(isToolOutput({ stdout: 'x' })).toBe(false);
    expect(isToolOutput({ content: [{ type: 'image', data: 'AAAA' }] })).toBe(false);
  });

  it.runIf(cases.length > 0).each(cases)('every complete part of %s %s carries a ToolOutput', (provider, rel) => {
    const { parts } = collect(adapterById(provider)!, readFileSync(join(CORPUS, rel), 'utf8'));
    const bad = parts.filter((p) => p.state === 'complete' && p.output !== undefined && !isToolOutput(p.output));
    expect(bad.map((p) => `${p.id}: ${issuesOfToolOutput('output' in p ? p.output : undefined).map((i) => `${i.instancePath} ${i.message}`).join('; ')}`)).toEqual([]);
  });
});
