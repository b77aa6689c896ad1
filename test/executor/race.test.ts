// Race tests of the safe opens: a real hostile process (fixtures/swapper.py) swaps a directory
// inside the root with a symlink to a directory outside it (renameat2 RENAME_EXCHANGE in a
// loop) and flips a final component between a file and a symlink to outside, while file_read,
// file_write, file_edit and file_copy run through the executor. Every byte outside the root is
// watched: the outside files must be unchanged and no outside content may appear in any output
// or in any file inside the root. A control run with plain fs.readFile under the same swapper
// shows the swapper really redirects opens by name (else the zero below would prove nothing).
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools, ToolExecutor, ToolRegistry, type ExecutionResult } from '../../src/executor/index.js';
import { tempDir } from '../helpers/executor.js';

const CALLS = Number(process.env.TOOLNORM_RACE_CALLS ?? 10_000);
const SECRET = 'OUTSIDE-SECRET';

interface Arena {
  root: string;
  outside: string;
  swapper: ChildProcess;
  stop(): Promise<{ exchanges: number; flips: number; errors: number }>;
}

let running: ChildProcess | undefined;
afterEach(() => { if (running && running.exitCode === null) running.kill('SIGKILL'); running = undefined; });

async function arena(): Promise<Arena> {
  const base = tempDir('toolnorm-race-');
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'd'), { recursive: true });
  mkdirSync(outside);
  for (const name of ['f.txt', 'g.txt', 'src.txt']) writeFileSync(join(outside, name), `${SECRET} ${name} A\n`);
  writeFileSync(join(root, 'd', 'f.txt'), 'inside f A\n');
  writeFileSync(join(root, 'd', 'g.txt'), 'inside g\n');
  writeFileSync(join(root, 'd', 'src.txt'), 'inside src\n');
  symlinkSync(outside, join(root, 'link'));
  const swapper = spawn('python3', [join(import.meta.dirname, 'fixtures', 'swapper.py'), root, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  running = swapper;
  const lines = createInterface({ input: swapper.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== 'ready') throw new Error(`the swapper did not start: ${String(first.value)}`);
  return {
    root, outside, swapper,
    async stop() {
      swapper.kill('SIGTERM');
      const last = await lines.next();
      return JSON.parse(String(last.value));
    },
  };
}

/** Names, sizes, mtimes and contents of every entry in `dir`: what "nothing written there" means. */
function snapshot(dir: string): string {
  return readdirSync(dir).sort().map((n) => {
    const s = statSync(join(dir, n));
    return `${n} ${s.size} ${s.mtimeMs} ${s.ino} ${readFileSync(join(dir, n), 'utf8')}`;
  }).join('\n');
}

/** Every file under the root's two swapped names, read by name after the swapper stopped. */
function insideContents(root: string): string {
  const out: string[] = [];
  for (const top of ['d', 'link']) {
    const dir = join(root, top);
    if (!statSync(dir, { throwIfNoEntry: false })) continue;
    // Only the real directory: the symlink's target is the outside directory itself.
    if (readFileSync(join(root, top, 'f.txt'), 'utf8').includes(SECRET)) continue;
    for (const n of readdirSync(dir)) {
      // g.txt may be left as the swapper's symlink to outside: only regular files are content.
      if (lstatSync(join(dir, n)).isFile()) out.push(readFileSync(join(dir, n), 'utf8'));
    }
  }
  return out.join('\n');
}

const outcome = (r: ExecutionResult) => {
  if (r.part.state === 'complete') return 'completed';
  const details = r.part.error.details as { reason?: string } | undefined;
  return `${r.part.error.code}${details?.reason ? `:${details.reason}` : ''}`;
};

function tally(into: Map<string, number>, key: string) { into.set(key, (into.get(key) ?? 0) + 1); }

describe('safe opens under a concurrent swapper (rename exchange + final-component symlink)', () => {
  it(`the swapper redirects plain opens by name (control: fs.readFile of d/f.txt leaks outside content)`, async () => {
    const a = await arena();
    let leaked = 0;
    for (let i = 0; i < 2000; i++) {
      try { if ((await readFile(join(a.root, 'd', 'f.txt'), 'utf8')).includes(SECRET)) leaked++; } catch { /* mid-swap */ }
    }
    const counts = await a.stop();
    console.log(`control: ${leaked} of 2000 plain fs.readFile calls returned outside content; swapper ${JSON.stringify(counts)}`);
    expect(counts.exchanges).toBeGreaterThan(0);
    expect(leaked).toBeGreaterThan(0);
  }, 60_000);

  const cases: [string, (i: number) => unknown][] = [
    ['file_read', (i) => ({ path: i % 2 ? 'd/f.txt' : 'd/g.txt' })],
    ['file_write', (i) => ({ path: i % 2 ? 'd/f.txt' : 'd/g.txt', content: `inside write ${i}\n` })],
    ['file_edit', (i) => ({ path: 'd/f.txt', old: i % 2 ? 'B' : 'A', new: i % 2 ? 'A' : 'B' })],
    ['file_copy', (i) => (i % 2 ? { source: 'd/g.txt', path: `d/copy-${i % 50}.txt` } : { source: 'd/src.txt', path: 'd/f.txt' })],
  ];

  for (const [tool, input] of cases) {
    it(`${tool}: ${CALLS} calls, 0 bytes read from or written outside the root`, async () => {
      const a = await arena();
      const before = snapshot(a.outside);
      const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: a.root, home: a.root });
      const outcomes = new Map<string, number>();
      let leakedOutputs = 0;
      for (let i = 0; i < CALLS; i++) {
        const r = await ex.execute({ tool, input: input(i) });
        tally(outcomes, outcome(r));
        if (JSON.stringify(r.part).includes(SECRET)) leakedOutputs++;
      }
      const counts = await a.stop();
      const after = snapshot(a.outside);
      const inside = insideContents(a.root);
      const outsideChanged = before === after ? 0 : 1;
      console.log(`${tool}: ${CALLS} calls ${JSON.stringify(Object.fromEntries(outcomes))}; outputs with outside content: ${leakedOutputs}; outside dir changed: ${outsideChanged}; outside content inside the root: ${inside.includes(SECRET) ? 'yes' : 'no'}; swapper ${JSON.stringify(counts)}`);
      expect(counts.exchanges).toBeGreaterThan(100);
      expect(leakedOutputs).toBe(0);
      expect(after).toBe(before);
      expect(inside).not.toContain(SECRET);
      // The races were really hit: some calls met a swapped directory or a final symlink.
      const raced = [...outcomes.entries()].filter(([k]) => k.startsWith('denied')).reduce((n, [, c]) => n + c, 0);
      expect(raced).toBeGreaterThan(0);
      expect(outcomes.get('completed') ?? 0).toBeGreaterThan(0);
    }, 600_000);
  }
});
