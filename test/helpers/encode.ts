// Runs ToolEvents (e.g. a recording's `--to events` output) through the streaming pipeline with an
// encoder built in the test, for encoder options the CLI has no flag for.
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import type { StreamEncoderFactory } from '../../src/pipeline/encoder.js';
import type { AdapterDefinition, AdapterOptions } from '../../src/adapters/types.js';
import { splitLines, type InputFile } from '../../src/pipeline/collect.js';

export function encodeEvents(events: readonly unknown[], encoder: StreamEncoderFactory): unknown[] {
  const out: unknown[] = [];
  const p = new NormalizePipeline(eventsAdapter, { to: 'ai-sdk', encoder }, { output: (x) => out.push(x), diagnostic: () => {} });
  p.beginFile('events');
  for (const [i, e] of events.entries()) p.line(JSON.stringify(e), { line: i + 1, offset: 0, file: 'events' });
  p.endFile('events');
  p.end();
  return out;
}

/**
 * What the streaming pipeline prints for these inputs (no clock: times only from the input): through
 * an encoder built in the test, or as `to` says when there is none.
 */
export function encodeInputs(adapter: AdapterDefinition, inputs: readonly InputFile[], options: AdapterOptions, to: StreamEncoderFactory | 'parts' | 'events'): unknown[] {
  const out: unknown[] = [];
  const p = new NormalizePipeline(adapter, typeof to === 'string' ? { ...options, to } : { ...options, to: 'ag-ui', encoder: to }, { output: (x) => out.push(x), diagnostic: () => {} });
  for (const f of inputs) {
    p.beginFile(f.name);
    for (const [i, l] of splitLines(f.text).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: f.name });
    p.endFile(f.name);
  }
  p.end();
  return out;
}
