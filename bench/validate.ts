// `npm run bench -- validate [records] [--rounds N]`: validation cost of the precompiled ajv
// validators over an NDJSON file of synthetic events and parts, against JSON.parse of the same bytes
// in the same run. Each round times the three loops back to back (a warm-up round first); the
// overhead of a round is its validate time over its parse time, and the report gives the median
// and range of those per-round ratios (target: ≤ 10% on the mixed records).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiled } from './_compiled.js';
import { syntheticEvents, syntheticParts } from './_synthetic.js';
import { fmt, interleavedRounds, mb, median } from './_measure.js';

export async function run(args: string[]): Promise<void> {
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Math.max(1, Number(args[roundsAt + 1])) : 9;
  const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
  const count = Number(positional[0] ?? 150_000);
  // "mixed": outputs log-uniform up to 30,000 chars (the reference set of docs/benchmarks.md#synthetic-inputs);
  // "small": outputs up to 200 chars, the worst case for validation relative to parsing.
  // The built validators, what library users and the CLI run; tsx's transpile of the sources puts
  // getters on every re-export, a few percent on a loop this tight.
  const contract = await compiled<typeof import('../src/contract/index.js')>('src/contract/index.js');
  for (const [label, maxOutput] of [['mixed', 30_000], ['small', 200]] as const) measure(contract, count, label, maxOutput, rounds);
}

function measure(contract: typeof import('../src/contract/index.js'), count: number, label: string, maxOutput: number, rounds: number): void {
  const { validateNormalizedToolPart, validateToolEvent } = contract;
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
  const loops: Record<string, () => void> = {
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
  };
  const times = interleavedRounds(loops, rounds);
  const t = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const overhead = times.validate!.map((v, i) => (v / times.parse![i]!) * 100);
  const combined = times.parseAndValidate!.map((v, i) => v / times.parse![i]!);
  const invalid = parsed.filter((r, i) => !(isEvent[i] ? validateToolEvent(r) : validateNormalizedToolPart(r))).length;
  console.log(`validate [${label}]: ${records.length.toLocaleString()} records (${fmt(mb(bytes))} MB NDJSON, ${invalid} invalid), median of ${rounds} interleaved rounds after a warm-up`);
  const row = (name: string, ms: number) => console.log(`  ${name.padEnd(26)} ${fmt(ms, 0).padStart(7)} ms  ${fmt(records.length / (ms / 1000), 0).padStart(12)} records/s  ${fmt(mb(bytes) / (ms / 1000)).padStart(8)} MB/s`);
  row('JSON.parse only', t.parse!);
  row('validate only (parsed)', t.validate!);
  row('JSON.parse + validate', t.parseAndValidate!);
  const verdict = median(overhead) <= 10 ? 'meets' : 'above';
  console.log(`  validation adds ${fmt(median(overhead))}% [${fmt(Math.min(...overhead))}–${fmt(Math.max(...overhead))}] to JSON.parse time (validate-only / parse-only, per round); parse+validate / parse = ${fmt(median(combined), 3)}× [${fmt(Math.min(...combined), 3)}–${fmt(Math.max(...combined), 3)}]  (target ≤ 10%${label === 'mixed' ? `: ${verdict}` : ', set for the mixed records'})`);
  if (sink < 0) console.log(sink);
}
