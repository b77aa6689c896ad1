// `npm run bench -- validate [records]`: validation cost of the precompiled ajv validators over
// an NDJSON file of synthetic events and parts, against JSON.parse of the same bytes in the same run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateNormalizedToolPart, validateToolEvent } from '../src/contract/index.js';
import { syntheticEvents, syntheticParts } from './_synthetic.js';
import { fmt, interleaved, mb } from './_measure.js';

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 150_000);
  // "mixed": outputs log-uniform up to 30,000 chars (the reference set of docs/benchmarks.md#synthetic-inputs);
  // "small": outputs up to 200 chars, the worst case for validation relative to parsing.
  for (const [label, maxOutput] of [['mixed', 30_000], ['small', 200]] as const) measure(count, label, maxOutput);
}

function measure(count: number, label: string, maxOutput: number): void {
  const dir = fileURLToPath(new URL('./.data/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}validate-${label}-${count}.ndjson`;
  const lines: string[] = [];
  for (const e of syntheticEvents(Math.ceil(count / 2), 10, 42, maxOutput)) lines.push(JSON.stringify(e));
  for (const p of syntheticParts(Math.floor(count / 2), 7, maxOutput)) lines.push(JSON.stringify(p));
  writeFileSync(file, lines.join('\n') + '\n');
  const text = readFileSync(file, 'utf8');
  const records = text.split('\n').filter(Boolean);
  const bytes = Buffer.byteLength(text);
  const parsed = records.map((l) => JSON.parse(l) as { type?: string });
  const isEvent = parsed.map((r) => typeof r.type === 'string');
  let sink = 0;
  const t = interleaved({
    parse: () => { for (const l of records) sink += (JSON.parse(l) as object) ? 1 : 0; },
    validate: () => {
      for (let i = 0; i < parsed.length; i++) sink += (isEvent[i] ? validateToolEvent(parsed[i]) : validateNormalizedToolPart(parsed[i])) ? 1 : 0;
    },
    parseAndValidate: () => {
      for (let i = 0; i < records.length; i++) {
        const v = JSON.parse(records[i]!);
        sink += (isEvent[i] ? validateToolEvent(v) : validateNormalizedToolPart(v)) ? 1 : 0;
      }
    },
  }, 7);
  const invalid = parsed.filter((r, i) => !(isEvent[i] ? validateToolEvent(r) : validateNormalizedToolPart(r))).length;
  console.log(`validate [${label}]: ${records.length.toLocaleString()} records (${fmt(mb(bytes))} MB NDJSON, ${invalid} invalid), median of 7 interleaved runs`);
  const row = (name: string, ms: number) => console.log(`  ${name.padEnd(26)} ${fmt(ms, 0).padStart(7)} ms  ${fmt(records.length / (ms / 1000), 0).padStart(12)} records/s  ${fmt(mb(bytes) / (ms / 1000)).padStart(8)} MB/s`);
  row('JSON.parse only', t.parse!);
  row('validate only (parsed)', t.validate!);
  row('JSON.parse + validate', t.parseAndValidate!);
  console.log(`  validation adds ${fmt((t.validate! / t.parse!) * 100)}% to JSON.parse time (validate-only / parse-only); parse+validate / parse = ${fmt(t.parseAndValidate! / t.parse!, 3)}×  (target: ≤ 15%)`);
  if (sink < 0) console.log(sink);
}
