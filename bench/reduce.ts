// `npm run bench -- reduce [events]`: the shared reducer over ≥1M events, against a loop that only
// JSON.parses the same NDJSON, measured in the same run (interleaved, median of 3).
import { reduce } from '../src/events/reducer.js';
import { emptySessionState, type ToolSessionState } from '../src/events/state.js';
import type { ToolEvent } from '../src/contract/index.js';
import { syntheticEvents } from './_synthetic.js';
import { fmt, interleaved, mb } from './_measure.js';

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 1_000_000);
  const lines: string[] = [];
  for (const e of syntheticEvents(count, 10, 42, 2_000)) lines.push(JSON.stringify(e));
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  let parts = 0;
  let sink = 0;
  const t = interleaved({
    parse: () => { for (const l of lines) sink += (JSON.parse(l) as ToolEvent).at ?? 0; },
    parseAndReduce: () => {
      const sessions = new Map<string, ToolSessionState>();
      for (const l of lines) {
        const e = JSON.parse(l) as ToolEvent;
        sessions.set(e.sessionId, reduce(sessions.get(e.sessionId) ?? emptySessionState(), e));
      }
      parts = [...sessions.values()].reduce((n, s) => n + s.parts.size, 0);
    },
  }, 3);
  const reduceOnly = t.parseAndReduce! - t.parse!;
  console.log(`reduce: ${count.toLocaleString()} events (${fmt(mb(bytes))} MB NDJSON) into ${parts.toLocaleString()} parts over 10 sessions, median of 3 interleaved runs`);
  console.log(`  JSON.parse only        ${fmt(t.parse!, 0).padStart(7)} ms  ${fmt(count / (t.parse! / 1000), 0).padStart(12)} events/s`);
  console.log(`  JSON.parse + reduce    ${fmt(t.parseAndReduce!, 0).padStart(7)} ms  ${fmt(count / (t.parseAndReduce! / 1000), 0).padStart(12)} events/s`);
  console.log(`  reduce alone (diff)    ${fmt(reduceOnly, 0).padStart(7)} ms  ${fmt(count / (Math.max(1, reduceOnly) / 1000), 0).padStart(12)} events/s`);
  console.log(`  parse+reduce / parse = ${fmt(t.parseAndReduce! / t.parse!, 2)}×`);
  if (sink < 0) console.log(sink);
}
