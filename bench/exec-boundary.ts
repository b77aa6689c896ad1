// `npm run bench -- exec-boundary [--n 1000]`: what the executor's boundary costs per call, each
// next to the old path measured in the same run, interleaved call by call (median of n):
//   - safe opens (O_NOFOLLOW + /proc/self/fd check; temp file + rename for writes) against plain
//     fs.readFile / fs.writeFile / fs.copyFile by name;
//   - the bubblewrap sandbox per command against the same `bash -c true` unsandboxed, and the
//     writable-root snapshot walks (before + after) on a 200-file tree;
//   - the parsed command gate with an allow list against the gate with no list (no parse).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readVerified, resolvePolicy, ROLE_GATES, writeVerified, type FileBoundary } from '../src/executor/index.js';
import { bwrapArgs, probeBwrap } from '../src/executor/sandbox/bwrap.js';
import { DigestCache, snapshot } from '../src/executor/sandbox/snapshot.js';

type Body = () => Promise<unknown> | unknown;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median µs per call of a baseline and a candidate, alternating one call of each. */
async function pair(n: number, base: Body, cand: Body): Promise<[number, number]> {
  for (let i = 0; i < Math.min(50, n); i++) { await base(); await cand(); }
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = process.hrtime.bigint();
    await base();
    a.push(Number(process.hrtime.bigint() - t) / 1000);
    t = process.hrtime.bigint();
    await cand();
    b.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  return [median(a), median(b)];
}

const run1 = (file: string, args: string[]) => new Promise<void>((resolve, reject) => {
  const c = spawn(file, args, { stdio: 'ignore' });
  c.on('error', reject);
  c.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))));
});

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { n: { type: 'string', default: '1000' } } });
  const n = Number(values.n);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolnorm-bench-boundary-')));
  try {
    const file = join(dir, 'f.txt');
    const content = 'x'.repeat(4096);
    writeFileSync(file, content);
    const b: FileBoundary = { readRoots: [dir], writeRoots: [dir], unbounded: false, allowHardlinkReads: false };
    const rows: [string, number, number][] = [];
    const add = async (label: string, base: Body, cand: Body, count = n) => rows.push([label, ...(await pair(count, base, cand))]);

    await add('read 4 KiB: readFile → readVerified', async () => { await stat(file); await readFile(file); }, () => readVerified(file, 'f.txt', b));
    await add('write 4 KiB: writeFile → writeVerified', () => writeFile(file, content), () => writeVerified(file, 'f.txt', b, content));
    await add('copy 4 KiB: copyFile → read+writeVerified', () => copyFile(file, join(dir, 'c.txt')), async () => writeVerified(join(dir, 'c.txt'), 'c.txt', b, (await readVerified(file, 'f.txt', b)).data));

    const policy = await resolvePolicy({ commands: { allow: ['npm *', 'git status', 'ls *'] } }, dir);
    const open = await resolvePolicy({}, dir);
    const ctx = (p: typeof policy) => ({ base: { cwd: dir, home: dir }, policy: p, access: 'write' as const });
    let k = 0;
    // A new line every call (nothing cached), then the same line again (the analysis cache).
    await add('command gate: no list → allow list, new line', () => ROLE_GATES.EXEC_COMMAND(`npm test ${k} && git status > s.txt`, ctx(open)), () => ROLE_GATES.EXEC_COMMAND(`npm test ${k++} && git status > s.txt`, ctx(policy)));
    await add('command gate: no list → allow list, repeated', () => ROLE_GATES.EXEC_COMMAND('npm test && git status > s.txt', ctx(open)), () => ROLE_GATES.EXEC_COMMAND('npm test && git status > s.txt', ctx(policy)));

    const tree = join(dir, 'tree');
    for (let d = 0; d < 10; d++) {
      mkdirSync(join(tree, `d${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(join(tree, `d${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`.repeat(20));
    }
    const cache = new DigestCache();
    await add('snapshot walks (2 per command), 200 files', () => undefined, async () => { const before = await snapshot([tree], { limit: 20_000 }, cache); await snapshot([tree], { limit: 20_000 }, cache, before); });

    const bwrap = '/usr/bin/bwrap';
    const why = probeBwrap(bwrap);
    if (why === undefined) {
      const sandboxArgs = bwrapArgs({ readRoots: [dir], writeRoots: [dir], maxTier: 'execute' }, dir);
      await add('bash -c true → inside bwrap', () => run1('/bin/bash', ['-c', 'true']), () => run1(bwrap, [...sandboxArgs, '--', '/bin/bash', '-c', 'true']));
    } else {
      console.log(`bwrap rows skipped: ${why}`);
    }

    console.log(`toolnorm exec-boundary bench: median of ${n} calls per row, baseline and candidate alternating call by call, node ${process.version}`);
    console.log(`${'row'.padEnd(46)} ${'old µs'.padStart(10)} ${'new µs'.padStart(10)} ${'overhead µs'.padStart(12)} ${'× old'.padStart(7)}`);
    for (const [label, a, c] of rows) {
      console.log(`${label.padEnd(46)} ${a.toFixed(1).padStart(10)} ${c.toFixed(1).padStart(10)} ${(c - a).toFixed(1).padStart(12)} ${(a > 0.05 ? (c / a).toFixed(2) : '-').padStart(7)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
