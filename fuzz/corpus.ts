// The recorded lines the fuzzer mutates: the repo's fixtures and, when present, the shared corpus
// beside the repo. ACP has no recordings of its own: its lines are the frames of every golden
// `*.acp.json` (what toolnorm sends, and so what another toolnorm reads back).
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
    return files(join(repoRoot, 'fixtures'), (n) => n.endsWith('.acp.json')).flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as unknown[]).map((x) => JSON.stringify(x))).filter((l) => l.length <= MAX_LINE);
  }
  // OpenCode reads one form per file (JSON lines, SSE or a whole document): its JSON-lines recordings only.
  const test = (n: string) => n.endsWith('.jsonl');
  const lines = [...files(join(repoRoot, 'fixtures', provider), test), ...files(shared, test)].flatMap(jsonLines);
  return provider === 'opencode' ? lines.filter((l) => l.trimStart().startsWith('{')) : lines;
}
