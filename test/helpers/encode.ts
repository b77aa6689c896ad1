// Runs ToolEvents (e.g. a recording's `--to events` output) through the streaming pipeline with an
// encoder built in the test, for encoder options the CLI has no flag for.
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import type { StreamEncoderFactory } from '../../src/pipeline/encoder.js';

export function encodeEvents(events: readonly unknown[], encoder: StreamEncoderFactory): unknown[] {
  const out: unknown[] = [];
  const p = new NormalizePipeline(eventsAdapter, { to: 'ai-sdk', encoder }, { output: (x) => out.push(x), diagnostic: () => {} });
  p.beginFile('events');
  for (const [i, e] of events.entries()) p.line(JSON.stringify(e), { line: i + 1, offset: 0, file: 'events' });
  p.endFile('events');
  p.end();
  return out;
}
