// The recorded lines the fuzzer mutates: the repo's fixtures and, when present, the shared corpus
// beside the repo. ACP has no recordings of its own: its lines are the frames of every golden
// `*.acp.json` (what toolnorm sends, and so what another toolnorm reads back), the same frames
// without `_meta` (what any other agent sends: read from the ACP fields alone), and a permission
// request with its answer after each `tool_call` (`session/request_permission`, allowed or
// rejected in turn). OpenCode's lines are its run JSON lines and the events of its `/event` and
// `/global/event` SSE recordings, which it also reads one JSON object a line.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const FUZZ_PROVIDERS = ['claude', 'codex', 'opencode', 'acp'] as const;
export type FuzzProvider = (typeof FUZZ_PROVIDERS)[number];

/** Lines longer than this are left out: the hugeString family makes big lines on purpose. */
const MAX_LINE = 64 * 1024;

function files(dir: string, test: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p, test);
    return test(name) ? [p] : [];
  });
}

const jsonLines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() && l.length <= MAX_LINE);

export function corpusLines(provider: FuzzProvider, repoRoot: string): string[] {
  const shared = join(repoRoot, '..', 'shared', 'corpus', provider);
  if (provider === 'acp') {
    const frames = files(join(repoRoot, 'fixtures'), (n) => n.endsWith('.acp.json')).flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Frame[]);
    return [...frames, ...frames.flatMap(foreign)].map((x) => JSON.stringify(x)).filter((l) => l.length <= MAX_LINE);
  }
  const test = (n: string) => n.endsWith('.jsonl') || (provider === 'opencode' && n.endsWith('.sse'));
  const lines = [...files(join(repoRoot, 'fixtures', provider), test), ...files(shared, test)].flatMap(jsonLines);
  // OpenCode reads one form per file (JSON lines, SSE or a whole document): every event as a JSON line.
  return provider === 'opencode' ? lines.map((l) => l.replace(/^data: /, '')).filter((l) => l.trimStart().startsWith('{')) : lines;
}

interface Frame { params?: { sessionId?: unknown; update?: { sessionUpdate?: unknown; toolCallId?: unknown; title?: unknown; _meta?: unknown } } }

let permissionIds = 0;

/** A golden frame as another agent sends it (no `_meta.toolnorm`), and a permission request and its answer after a `tool_call`. */
function foreign(frame: Frame): unknown[] {
  const update = frame.params?.update;
  if (!update) return [frame];
  const { _meta: _drop, ...bare } = update;
  const out: unknown[] = [{ ...frame, params: { ...frame.params, update: bare } }];
  if (update.sessionUpdate === 'tool_call') {
    const id = `perm-${++permissionIds}`;
    out.push(
      { jsonrpc: '2.0', id, method: 'session/request_permission', params: { sessionId: frame.params!.sessionId, toolCall: { toolCallId: update.toolCallId, title: update.title }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] } },
      { jsonrpc: '2.0', id, result: { outcome: { outcome: 'selected', optionId: permissionIds % 2 ? 'allow' : 'reject' } } },
    );
  }
  return out;
}
