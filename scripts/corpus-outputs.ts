// Everything toolnorm prints for the corpus, grouped by the definition each record is: the
// events, the final parts, the ACP frames and the UI parts (both state namings) of every
// recording, with full and with compressed output, and the diagnostics. The client round trips
// (scripts/clients-roundtrip.ts) decode and re-encode these.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectAdapter } from '../src/adapters/registry.js';
import { splitLines } from '../src/pipeline/collect.js';
import { NormalizePipeline, type NormalizeOptions } from '../src/outputs/pipeline.js';
import type { OutputFormat } from '../src/pipeline/normalize.js';
import { DeclarativeCompressor } from '../src/compress/index.js';

export type OutputDefinition = 'ToolEvent' | 'NormalizedToolPart' | 'AcpSessionUpdateParams' | 'UiToolPart' | 'Diagnostic';

const DEFINITION_OF: Record<OutputFormat, OutputDefinition> = { events: 'ToolEvent', parts: 'NormalizedToolPart', acp: 'AcpSessionUpdateParams', ui: 'UiToolPart' };

/** The runs per recording: every output format, full and compressed, and both UI state namings. */
const RUNS: { to: OutputFormat; extra: Partial<NormalizeOptions> }[] = [
  { to: 'events', extra: {} },
  { to: 'parts', extra: {} },
  { to: 'acp', extra: {} },
  { to: 'ui', extra: {} },
  { to: 'ui', extra: { uiStates: 'canonical' } },
  { to: 'events', extra: { output: 'compressed' } },
  { to: 'parts', extra: { output: 'compressed' } },
  { to: 'acp', extra: { output: 'compressed' } },
];

export interface CorpusOutputs {
  records: Map<OutputDefinition, string[]>;
  recordings: string[];
  /** Corpus files no adapter claims (scripts, READMEs, sidecar metadata). */
  skipped: string[];
}

export function corpusOutputs(corpus: string, files: readonly string[]): CorpusOutputs {
  const records = new Map<OutputDefinition, string[]>();
  const push = (def: OutputDefinition, r: unknown) => {
    let list = records.get(def);
    if (!list) records.set(def, (list = []));
    list.push(JSON.stringify(r));
  };
  const recordings: string[] = [];
  const skipped: string[] = [];
  for (const rel of files) {
    const text = readFileSync(join(corpus, rel), 'utf8');
    const lines = splitLines(text);
    const name = rel.split('/').pop()!;
    const found = detectAdapter({ lines: lines.map((l) => l.text).filter((l) => l.trim()).slice(0, 20), file: name });
    if (!found) { skipped.push(rel); continue; }
    recordings.push(rel);
    for (const run of RUNS) {
      const compressed = run.extra.output === 'compressed';
      const pipeline = new NormalizePipeline(found.adapter, {
        to: run.to,
        clock: () => 0,
        jsonRpc: false,
        ...run.extra,
        ...(compressed ? { compressor: new DeclarativeCompressor() } : {}),
      }, {
        output: (r) => push(DEFINITION_OF[run.to], r),
        // Diagnostics are the same in every run; one run's are enough.
        diagnostic: (d) => { if (run === RUNS[0]) push('Diagnostic', d); },
      });
      pipeline.beginFile(name);
      lines.forEach((l, i) => pipeline.line(l.text, { line: i + 1, offset: l.offset, file: name }));
      pipeline.endFile(name);
      pipeline.end();
    }
  }
  return { records, recordings, skipped };
}
