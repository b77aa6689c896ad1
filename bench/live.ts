// `npm run bench -- live [--copies N] [--rounds N]`: latency per message of the live path, from a
// provider SDK object in to its part updates out (LiveNormalizer.push), for each provider's
// recordings held as objects. The baseline, measured in the same interleaved rounds, is what a UI
// had to do before objects went in: JSON.stringify each object and feed the line to the streaming
// pipeline. Prints µs per message (median of rounds, with range) and the ratio to the baseline.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, median } from './_measure.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CORPUS = join(HERE, '..', '..', 'shared', 'corpus');

type Core = typeof import('../src/index.js');

/** The captured recordings of one provider, as the objects its SDK yields (JSON lines parsed). */
function objectsOf(provider: string): unknown[] {
  const dir = join(CORPUS, provider, 'captured');
  if (!existsSync(dir)) throw new Error(`no corpus at ${dir}: the benchmark reads ../shared/corpus`);
  const out: unknown[] = [];
  for (const name of readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const l of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!l.trim()) continue;
      try {
        out.push(JSON.parse(l));
      } catch {
        // not an object stream (none of the captured .jsonl files have such lines today)
      }
    }
  }
  return out;
}

export async function run(args: string[]): Promise<void> {
  const opt = (name: string, dflt: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const copies = opt('--copies', 20);
  const rounds = opt('--rounds', 7);
  const core = (await import(pathToFileURL(join(HERE, '..', 'dist', 'src', 'index.js')).href)) as Core;
  console.log(`live latency per message: LiveNormalizer.push(object) vs JSON.stringify + NormalizePipeline.line (the baseline); ${copies} passes over each provider's captured recordings per round, ${rounds} interleaved rounds`);
  for (const provider of ['claude', 'codex', 'opencode'] as const) {
    const objects = objectsOf(provider);
    const live = () => {
      const t0 = process.hrtime.bigint();
      let updates = 0;
      for (let c = 0; c < copies; c++) {
        const n = new core.LiveNormalizer({ from: provider, clock: () => 0 });
        for (const o of objects) updates += n.push(o).length;
        updates += n.end().length;
      }
      if (updates === 0) throw new Error('no updates');
      return Number(process.hrtime.bigint() - t0) / 1e3 / (copies * objects.length);
    };
    const viaLines = () => {
      const t0 = process.hrtime.bigint();
      let out = 0;
      for (let c = 0; c < copies; c++) {
        const p = new core.NormalizePipeline(core.adapterById(provider)!, { to: 'parts', clock: () => 0 }, { output: () => { out++; }, diagnostic: () => {} });
        objects.forEach((o, i) => p.line(JSON.stringify(o), { line: i + 1, offset: 0 }));
        p.end();
      }
      if (out === 0) throw new Error('no parts');
      return Number(process.hrtime.bigint() - t0) / 1e3 / (copies * objects.length);
    };
    live();
    viaLines();
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      a.push(live());
      b.push(viaLines());
    }
    console.log(`  ${provider.padEnd(9)} ${objects.length} messages: live ${fmt(median(a), 2)} µs/message (${fmt(Math.min(...a), 2)}–${fmt(Math.max(...a), 2)}), stringify+line ${fmt(median(b), 2)} µs (${fmt(Math.min(...b), 2)}–${fmt(Math.max(...b), 2)}), ratio ${fmt(median(a) / median(b), 2)}×`);
  }
}
