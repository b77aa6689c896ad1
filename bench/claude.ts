// `npm run bench -- claude [--mb N] [--rounds N] [--input corpus|all-tools] [--sessions same|distinct] [--breakdown] [--cold]`: throughput
// and memory of the Claude adapter on a large input. Builds ≥N MB (default 100) under bench/.data/
// by concatenating every Claude corpus session with rewritten ids (tool-use ids, uuids and session
// ids differ per copy, so nothing is de-duplicated away), then measures a JSON.parse loop over the
// same lines against the full `normalize --to parts` pipeline with the shared method of
// bench/_throughput.ts. Prints MB/s, the ratio (target ≥ 0.5×) and peak RSS (target < 200 MB).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCopies } from './_measure.js';
import { measureThroughput } from './_throughput.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(HERE, '.data');
const CORPUS = join(HERE, '..', '..', 'shared', 'corpus', 'claude');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID = /\b(srvtoolu_|toolu_)[A-Za-z0-9_]+/g;

/**
 * Copy `k` of a recording: tool-use ids and message uuids made unique. Session ids are kept
 * (`keep`), so each recording reads as one long session, unless `--sessions distinct`.
 */
function rewrite(line: string, k: number, f: number, keep: ReadonlySet<string>): string {
  // Copy and recording both go into the tag: the captured recordings reuse mock tool ids, and two
  // recordings may share a session id, so a copy-only tag would make two calls collide.
  const tag = (k * 64 + f).toString(16).padStart(6, '0');
  return line.replace(UUID, (u) => (keep.has(u) ? u : `${u.slice(0, 24)}${tag}${u.slice(30)}`)).replace(TOOL_ID, (id) => `${id}_c${k}f${f}`);
}

function sessionIdsOf(sessions: string[][]): Set<string> {
  const ids = new Set<string>();
  for (const lines of sessions) {
    for (const l of lines) {
      const o = JSON.parse(l) as Record<string, unknown>;
      for (const v of [o.session_id, o.sessionId]) if (typeof v === 'string') ids.add(v);
    }
  }
  return ids;
}

/**
 * The tool-dense input of issue 34: the `streamjson-2.1.332-all-tools` capture alone (one call of
 * every built-in tool, about 45 in 35 KB), repeated; with `distinct` every copy is a session of its own.
 */
const ALL_TOOLS = join(CORPUS, 'captured', 'streamjson-2.1.332-all-tools.jsonl');

export type ClaudeSource = 'corpus' | 'all-tools';

function corpusSessions(source: ClaudeSource = 'corpus'): string[][] {
  if (source === 'all-tools') {
    if (!existsSync(ALL_TOOLS)) throw new Error(`no ${ALL_TOOLS}; the all-tools input needs ../shared/corpus/claude/captured`);
    return [readFileSync(ALL_TOOLS, 'utf8').split('\n').filter((l) => l.trim())];
  }
  const out: string[][] = [];
  for (const sub of ['public', 'captured']) {
    const dir = join(CORPUS, sub);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
      out.push(readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l.trim()));
    }
  }
  return out;
}


export async function build(file: string, targetBytes: number, distinctSessions: boolean, source: ClaudeSource = 'corpus'): Promise<number> {
  if (existsSync(file) && statSync(file).size >= targetBytes) return statSync(file).size;
  const sessions = corpusSessions(source);
  if (sessions.length === 0) throw new Error(`no Claude corpus at ${CORPUS}; the benchmark needs ../shared/corpus/claude`);
  const keep = distinctSessions ? new Set<string>() : sessionIdsOf(sessions);
  return writeCopies(file, (k) => sessions.map((lines, f) => `${lines.map((l) => rewrite(l, k, f, keep)).join('\n')}\n`), (bytes) => bytes >= targetBytes);
}

/** The generated Claude input of `mb` MB (built once under bench/.data/); its path and size. */
export async function claudeInput(mb: number, distinct = false, source: ClaudeSource = 'corpus'): Promise<{ file: string; bytes: number }> {
  const file = join(DATA, `claude-${source === 'corpus' ? '' : `${source}-`}${mb}mb${distinct ? '-distinct-sessions' : ''}.jsonl`);
  return { file, bytes: await build(file, mb * 1024 * 1024, distinct, source) };
}

/** `--input corpus|all-tools` (default corpus): which recordings the generated input repeats. */
export function sourceArg(args: string[]): ClaudeSource {
  const i = args.indexOf('--input');
  const v = i >= 0 ? args[i + 1] : 'corpus';
  if (v !== 'corpus' && v !== 'all-tools') throw new Error(`--input ${v}: expected corpus or all-tools`);
  return v;
}

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const sessionsArg = args.indexOf('--sessions');
  const source = sourceArg(args);
  // The all-tools input renames sessions per copy, as issue 34 measures it.
  const distinct = source === 'all-tools' || (sessionsArg >= 0 && args[sessionsArg + 1] === 'distinct');
  const { file, bytes: built } = await claudeInput(mb, distinct, source);
  console.log(`input: ${(built / 1024 / 1024).toFixed(1)} MB of Claude Code sessions (${source === 'all-tools' ? 'the all-tools capture' : 'corpus'} copies with rewritten tool ids and uuids; ${distinct ? 'a new session id per copy' : 'each recording one long session'}) → ${file.slice(file.indexOf('bench/'))}`);
  await measureThroughput({ adapter: 'claude', file, args });
}
