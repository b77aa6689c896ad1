// `npm run bench -- codex [--mb N] [--rounds N] [--sessions same|distinct] [--breakdown]`: throughput and memory of
// the Codex adapter on a large rollout. Builds ≥N MB (default 100) under bench/.data/ by repeating
// the public 0.40 rollout (corpus/codex/public/rollout040-shell-plan-aborted.jsonl, 123 calls,
// 1.1 MB) with rewritten call ids, so nothing pairs across copies. By default the copies keep the
// session id and read as one long session; `--sessions distinct` gives each copy its own. Then measures
// a JSON.parse loop over the same lines against the full `normalize --from codex --to parts` pipeline
// with the shared method of bench/_throughput.ts (CPU time and wall, median of rounds). Prints MB/s,
// the ratio (target ≥ 0.5×) and peak RSS (target < 200 MB).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCopies } from './_measure.js';
import { measureThroughput } from './_throughput.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const SOURCE = join(HERE, '..', '..', 'shared', 'corpus', 'codex', 'public', 'rollout040-shell-plan-aborted.jsonl');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const CALL_ID = /\bcall_(?!id")[A-Za-z0-9]+/g; // the ids, not the `call_id` key

/** Copy `k` of the rollout: new call ids, and with `distinct` a new session id (and any other uuid). */
function rewrite(line: string, k: number, distinct: boolean): string {
  const tag = k.toString(16).padStart(6, '0');
  const ids = line.replace(CALL_ID, (id) => `${id}_c${k}`);
  return distinct ? ids.replace(UUID, (u) => `${u.slice(0, 30)}${tag}`) : ids;
}

async function build(file: string, targetBytes: number, distinct: boolean): Promise<{ bytes: number; copies: number; calls: number }> {
  if (!existsSync(SOURCE)) throw new Error(`no Codex rollout at ${SOURCE}; the benchmark needs ../shared/corpus/codex`);
  const lines = readFileSync(SOURCE, 'utf8').split('\n').filter((l) => l.trim());
  const calls = lines.filter((l) => l.includes('"type":"function_call"')).length;
  const size = statSync(SOURCE).size;
  const copies = Math.ceil(targetBytes / size);
  if (existsSync(file) && statSync(file).size >= targetBytes) return { bytes: statSync(file).size, copies, calls: calls * copies };
  const bytes = await writeCopies(file, (k) => [`${lines.map((l) => rewrite(l, k, distinct)).join('\n')}\n`], (_bytes, k) => k >= copies);
  return { bytes, copies, calls: calls * copies };
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const sessionsArg = args.indexOf('--sessions');
  const distinct = sessionsArg >= 0 && args[sessionsArg + 1] === 'distinct';
  const file = join(DATA, `codex-rollout-${mb}mb${distinct ? '-distinct-sessions' : ''}.jsonl`);
  const built = await build(file, mb * 1024 * 1024, distinct);
  console.log(`input: ${(built.bytes / 1024 / 1024).toFixed(1)} MB = ${built.copies} copies of the 0.40 rollout with rewritten call ids (${built.calls} calls; ${distinct ? 'a new session id per copy' : 'one long session'}) → ${file.slice(file.indexOf('bench/'))}`);
  const { pipe } = await measureThroughput({ adapter: 'codex', file, args });
  if (pipe.parts !== built.calls) console.log(`WARNING: ${pipe.parts} parts for ${built.calls} calls`);
}
