// Corpus inputs for the ecosystem encoders, run through the real CLI in-process.
import { join } from 'node:path';
import { CORPUS, corpusAvailable, corpusFiles } from './corpus.js';
import { cli } from './cli.js';

/** Every recording in ../shared/corpus (the scripts and notes beside them are not inputs). */
export function corpusInputs(): string[] {
  if (!corpusAvailable()) return [];
  return ['claude', 'codex', 'opencode'].flatMap((sub) => corpusFiles(sub, (n) => /\.(jsonl|json|sse)$/.test(n)));
}

export const corpusPath = (rel: string) => join(CORPUS, rel);

/** `toolnorm normalize --to <to> FILE`: its output lines; fails the test on a non-zero exit. */
export async function normalizeTo(to: string, file: string, extra: string[] = []): Promise<unknown[]> {
  const r = await cli(['normalize', '--to', to, '--quiet', ...extra, file]);
  if (r.code !== 0) throw new Error(`normalize --to ${to} ${file} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
  return r.lines;
}

/** Same, with the diagnostics of stderr. */
export async function normalizeWithDiagnostics(to: string, file: string, extra: string[] = []): Promise<{ lines: unknown[]; diagnostics: { code: string; partId?: string }[] }> {
  const r = await cli(['normalize', '--to', to, ...extra, file]);
  if (r.code !== 0) throw new Error(`normalize --to ${to} ${file} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
  const diagnostics = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { code: string; partId?: string });
  return { lines: r.lines, diagnostics };
}
