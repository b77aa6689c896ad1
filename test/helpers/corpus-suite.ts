// The one runner of the provider corpus suites: every recording below ../shared/corpus/<provider>
// goes through the same checks (it normalizes, `--from auto` picks its provider and no other
// provider claims it, the streaming pipeline prints the parts collect gives, and the ACP frames of
// both encoders validate against the official schema and decode back to the parts), plus the provider's own table of per-recording checks, each stated
// against an independent scan of the raw file. The suites keep only what is theirs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAdapter } from '../../src/adapters/registry.js';
import type { AdapterDefinition } from '../../src/adapters/types.js';
import { encodeParts } from '../../src/acp/encoder.js';
import { decodeFrames } from '../../src/acp/decode.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { collect, splitLines, type Collected } from '../../src/pipeline/collect.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import { officialAcpErrors, paramsOf } from './acp-schema.js';
import { CORPUS, corpusAvailable, corpusFiles } from './corpus.js';
import { acpFramesOf } from './golden.js';

export const CORPUS_PROVIDERS = ['claude', 'codex', 'opencode'] as const;
export type CorpusProvider = (typeof CORPUS_PROVIDERS)[number];

/** One recording, normalized once (as `toolnorm normalize FILE` would, without neighbours). */
export interface Recording {
  /** Path relative to the corpus root, e.g. `codex/captured/appserver_tools.jsonl`. */
  rel: string;
  text: string;
  r: Collected;
}

export interface CorpusSuiteSpec {
  provider: CorpusProvider;
  adapter: AdapterDefinition;
  /** Which files below corpus/<provider> are recordings (the rest are notes and capture scripts). */
  isRecording: (name: string) => boolean;
  /** The provider's own checks of each recording, by test title. */
  checks: Record<string, (rec: Recording) => void>;
  /**
   * How decoded ACP parts are compared with the collected ones: in order, or by id where the
   * collector lists parts by session and the frames interleave sessions (OpenCode's child sessions).
   */
  acpOrder?: 'collected' | 'id';
}

export const readCorpus = (rel: string): string => readFileSync(join(CORPUS, rel), 'utf8');
/** The file name the CLI would pass for a corpus file (only its last segment can matter to an adapter). */
export const nameOf = (rel: string): string => rel.split('/').pop()!;
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
const firstLines = (text: string) => splitLines(text).map((l) => l.text).filter((l) => l.trim()).slice(0, 20);

/**
 * Registers the provider's corpus suite (skipped, visibly, without ../shared/corpus; a failure under
 * CI) and returns its recordings, for the suite's own tests that are not per recording.
 */
export function corpusSuite(spec: CorpusSuiteSpec): { available: boolean; recordings: string[]; recording: (rel: string) => Recording } {
  const available = corpusAvailable();
  const recordings = available ? corpusFiles(spec.provider, spec.isRecording) : [];
  const cache = new Map<string, Recording>();
  const recording = (rel: string): Recording => {
    let rec = cache.get(rel);
    if (!rec) {
      const text = readCorpus(rel);
      rec = { rel, text, r: collect(spec.adapter, [{ name: nameOf(rel), text }]) };
      cache.set(rel, rec);
    }
    return rec;
  };
  const sameParts = (a: readonly NormalizedToolPart[], b: readonly NormalizedToolPart[]) => {
    const order = (ps: readonly NormalizedToolPart[]) => (spec.acpOrder === 'id' ? [...ps].sort((x, y) => x.id.localeCompare(y.id)) : ps);
    expect(plain(order(a))).toEqual(plain(order(b)));
  };

  describe.skipIf(!available)(`${spec.provider} corpus: every recording`, () => {
    it('has recordings', () => expect(recordings.length).toBeGreaterThan(0));

    for (const [title, check] of Object.entries(spec.checks)) it.each(recordings)(`%s: ${title}`, (rel) => check(recording(rel)));

    it.each(recordings)(`--from auto picks ${spec.provider} for %s`, (rel) => {
      expect(detectAdapter({ lines: firstLines(recording(rel).text), file: nameOf(rel) })?.adapter.id).toBe(spec.provider);
    });

    it("does not claim the other providers' recordings", () => {
      const foreign = CORPUS_PROVIDERS.filter((p) => p !== spec.provider).flatMap((p) => corpusFiles(p));
      expect(foreign.length).toBeGreaterThan(0);
      for (const rel of foreign) expect(spec.adapter.sniff({ lines: firstLines(readCorpus(rel)), file: nameOf(rel) }), rel).toBe(0);
    });

    it.each(recordings)('%s: the streaming pipeline (--to parts) prints the same parts', (rel) => {
      const { text, r } = recording(rel);
      const out: unknown[] = [];
      const bugs: string[] = [];
      // Every event checked: the pipeline trusts toolnorm's own adapters, and this suite holds them to the contract.
      const p = new NormalizePipeline(spec.adapter, { to: 'parts', validate: 'all' }, { output: (x) => out.push(x), diagnostic: (d) => { if (d.code === 'invalid_event' || d.code === 'invalid_frame' || d.code === 'adapter_error') bugs.push(d.message); } });
      p.beginFile(nameOf(rel));
      for (const [i, l] of splitLines(text).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: nameOf(rel) });
      p.endFile(nameOf(rel));
      p.end();
      expect(bugs).toEqual([]);
      // No clock, as collect has none: times only from the input. Printed as each part is final, so
      // in another order than collect's where calls overlap.
      expect(out.length).toBe(r.parts.length);
      expect(new Set(out.map((x) => JSON.stringify(x)))).toEqual(new Set(r.parts.map((x) => JSON.stringify(x))));
    });

    it.each(recordings)('%s: encodeParts frames validate against the official ACP schema and decode to the same parts', (rel) => {
      for (const [sessionId, parts] of recording(rel).r.sessions) {
        const frames = encodeParts(sessionId, parts);
        for (const f of frames) expect(officialAcpErrors(f)).toEqual([]);
        const decoded = decodeFrames(frames);
        expect(decoded.diagnostics).toEqual([]);
        expect(plain(decoded.parts)).toEqual(plain(parts));
      }
    });

    it.each(recordings)('%s: streamed --to acp frames validate and decode to the same parts', (rel) => {
      const { text, r } = recording(rel);
      const frames = acpFramesOf(spec.adapter, [{ name: nameOf(rel), text }]);
      for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
      const decoded = decodeFrames(frames);
      expect(decoded.diagnostics).toEqual([]);
      sameParts(decoded.parts, r.parts);
    });
  });

  return { available, recordings, recording };
}
