// `--to acp` on every corpus file: every frame validates against the official ACP v1 schema, and
// decoding the frames gives back the same parts, for the one-shot encoder (encodeParts) and for
// the streaming pipeline (what the CLI prints).
import { readFileSync } from 'node:fs';
import { acpFramesOf } from '../helpers/golden.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { encodeParts } from '../../src/acp/encoder.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { CORPUS, corpusAvailable, corpusFiles } from '../helpers/corpus.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';

const available = corpusAvailable();
const files = available ? corpusFiles('claude', (n) => n.endsWith('.jsonl')) : [];
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe.skipIf(!available)('claude corpus → ACP', () => {
  it.each(files)('%s: encodeParts frames validate and decode to the same parts', (rel) => {
    const r = collect(claudeAdapter, readFileSync(join(CORPUS, rel), 'utf8'));
    expect(r.parts.length).toBeGreaterThan(0);
    for (const [sessionId, parts] of r.sessions) {
      const frames = encodeParts(sessionId, parts);
      for (const f of frames) expect(officialAcpErrors(f)).toEqual([]);
      const decoded = decodeFrames(frames);
      expect(decoded.diagnostics).toEqual([]);
      expect(plain(decoded.parts)).toEqual(plain(parts));
    }
  });

  it.each(files)('%s: streamed --to acp frames validate and decode to the same parts', (rel) => {
    const text = readFileSync(join(CORPUS, rel), 'utf8');
    const frames = acpFramesOf(claudeAdapter, [{ name: rel, text }]);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    const decoded = decodeFrames(frames);
    expect(decoded.diagnostics).toEqual([]);
    expect(plain(decoded.parts)).toEqual(plain(collect(claudeAdapter, text).parts));
  });
});
