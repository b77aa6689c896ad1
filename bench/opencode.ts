// `npm run bench -- opencode [--mb N] [--global] [--rounds R]`: throughput and memory of the OpenCode adapter on
// a large SSE input. Builds ≥N MB (default 100) under bench/.data/ by concatenating the captured
// `GET /event` streams (or, with --global, the `GET /global/event` stream with its sync duplicates)
// with rewritten ids (part, message, session, event and permission ids differ per copy, so nothing
// is de-duplicated away and every copy's subagent links resolve), then measures a JSON.parse loop
// over each SSE data payload against the full `normalize --to parts` pipeline (SSE framing →
// adapter → validation → reducer → parts) with the shared method of bench/_throughput.ts. Prints
// MB/s, the ratio (target ≥ 0.5×) and peak RSS (target < 200 MB).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCopies } from './_measure.js';
import { measureThroughput } from './_throughput.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const CAPTURED = join(HERE, '..', '..', 'shared', 'corpus', 'opencode', 'captured');

/** OpenCode ids: prefix + 12 hex (time and counter) + 14 random base62. */
const OPENCODE_ID = /\b(prt|msg|ses|evt|per)_([0-9a-f]{12})([0-9A-Za-z]{14})\b/g;

/** The same stream, made distinct for copy `k` (the random tail carries the copy number). */
function rewrite(text: string, k: number): string {
  const tag = k.toString(36).padStart(5, '0');
  return text.replace(OPENCODE_ID, (_m, prefix: string, hex: string, rand: string) => `${prefix}_${hex}${tag}${rand.slice(5)}`);
}

function streams(global: boolean): string[] {
  const files = global ? ['run1/global-events.sse'] : ['run1/events.sse', 'run2/events.sse'];
  return files.map((f) => {
    const path = join(CAPTURED, f);
    if (!existsSync(path)) throw new Error(`no OpenCode capture at ${path}; the benchmark needs ../shared/corpus/opencode`);
    const text = readFileSync(path, 'utf8');
    return text.endsWith('\n') ? text : `${text}\n`;
  });
}

async function build(file: string, targetBytes: number, global: boolean): Promise<number> {
  if (existsSync(file) && statSync(file).size >= targetBytes) return statSync(file).size;
  const sources = streams(global);
  return writeCopies(file, (k) => sources.map((text) => rewrite(text, k)), (bytes) => bytes >= targetBytes);
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const global = args.includes('--global');
  const file = join(DATA, `opencode-${global ? 'global' : 'event'}-${mb}mb.sse`);
  const built = await build(file, mb * 1024 * 1024, global);
  const what = global ? 'GET /global/event SSE (payload envelopes + sync duplicates)' : 'GET /event SSE';
  console.log(`input: ${(built / 1024 / 1024).toFixed(1)} MB of OpenCode ${what} (captured streams, ids rewritten per copy) → ${file.slice(file.indexOf('bench/'))}`);
  await measureThroughput({ adapter: 'opencode', framing: 'sse', file, args });
}
