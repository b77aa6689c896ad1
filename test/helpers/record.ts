// `toolnorm record` as a real process (signals and pipes are the point), and the checks its
// suites share: the store's events, and the parts of a later `toolnorm normalize`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../src/store/open.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { cli } from './cli.js';
import { REPO_ROOT } from './corpus.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MAIN = join(REPO_ROOT, 'src/cli/main.ts');

export interface Finished { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
export interface Running { child: ChildProcess; done: Promise<Finished> }

/** `toolnorm record ARGS` in `cwd`; stdin is the given text (closed after it), or ignored. */
export function spawnRecord(args: readonly string[], o: { cwd: string; stdin?: string; env?: NodeJS.ProcessEnv }): Running {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, 'record', ...args], { cwd: o.cwd, env: o.env ?? process.env, stdio: [o.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (o.stdin !== undefined) child.stdin!.end(o.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const done = new Promise<Finished>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const jsonLines = (text: string): unknown[] => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);

/** Resolves once `test` holds (checked every 100 ms); fails after `ms` with `what`. Order, never time, is asserted. */
export async function until(test: () => boolean | Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > ms) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const fileHas = (path: string, text: string) => existsSync(path) && readFileSync(path, 'utf8').includes(text);

/** Every event of every session of a store, in session order then seq, without the seq. */
export async function storedEvents(url: string, cwd: string): Promise<ToolEvent[]> {
  const store = await openStore(url, { cwd, create: false });
  try {
    const out: ToolEvent[] = [];
    for (const s of (await store.sessions()).sort((a, b) => a.sessionId.localeCompare(b.sessionId))) {
      for await (const e of store.read(s.sessionId)) {
        const { seq: _seq, ...rest } = e;
        out.push(rest as ToolEvent);
      }
    }
    return out;
  } finally {
    await store.close();
  }
}

/** What `toolnorm normalize FILE --to T` prints, in-process (the same file name the recording was made under). */
export async function normalizeFile(file: string, cwd: string, to = 'parts', extra: string[] = []): Promise<{ code: number; records: unknown[]; stderr: string }> {
  const r = await cli(['normalize', '--to', to, ...extra, file], { cwd });
  return { code: r.code, records: r.lines, stderr: r.stderr };
}

/** Events grouped per session in session-id order (a store lists sessions, not the stream's interleaving). */
export function bySession(events: readonly ToolEvent[]): ToolEvent[] {
  const ids = [...new Set(events.map((e) => e.sessionId))].sort();
  return ids.flatMap((id) => events.filter((e) => e.sessionId === id));
}
