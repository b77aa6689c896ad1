// What bash changed in the writable roots (src/executor/sandbox/snapshot.ts), run through the
// executor with the real bubblewrap sandbox. Each test gets its own workspace and a fresh
// executor per call (so a fresh digest cache, as each `toolnorm exec` process has), and shows a
// control beside the attack: the same walk recording what it can read, a touch that is not a
// chmod, a copy that is not a rename.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { buildSync } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileMutationRecord } from '../../src/contract/index.js';
import { bashTool, builtinTools, ToolExecutor, ToolRegistry, type PolicyInput } from '../../src/executor/index.js';
import { probeBwrap } from '../../src/executor/sandbox/bwrap.js';
import { DigestCache, snapshot } from '../../src/executor/sandbox/snapshot.js';
import { checkResult } from '../helpers/executor.js';

const BWRAP = '/usr/bin/bwrap';
const haveBwrap = existsSync(BWRAP) && probeBwrap(BWRAP) === undefined;
if (process.env.CI && !haveBwrap) throw new Error('CI installs bubblewrap (.ci/run); /usr/bin/bwrap is missing or cannot create a sandbox');

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolnorm-snapshot-')));
// rm, not rmSync: it copes with the tree past PATH_MAX, which a walk by full paths cannot remove.
afterAll(() => { spawnSync('rm', ['-rf', base]); });
// Traversable by the unprivileged user of the permission tests.
chmodSync(base, 0o755);
let n = 0;
const workspace = () => {
  const ws = join(base, `ws${n++}`);
  mkdirSync(ws);
  return ws;
};

interface Call { timeoutMs?: number; policy?: PolicyInput; fileHashBytes?: number }

async function bash(ws: string, command: string, call: Call = {}) {
  const tools = call.fileHashBytes ? [bashTool({ snapshotFileHashBytes: call.fileHashBytes })] : builtinTools();
  const ex = new ToolExecutor({ registry: new ToolRegistry(tools), cwd: ws, home: ws, policy: { readRoots: [ws], writeRoots: [ws], sandbox: { bwrap: BWRAP }, ...call.policy } });
  const r = await ex.execute({ tool: 'bash', input: { command }, timeoutMs: call.timeoutMs ?? 60_000 });
  checkResult(r);
  const records = r.events.filter((e) => e.type === 'tool.file.mutated').map((e) => (e as { mutation: FileMutationRecord }).mutation);
  const byPath = Object.fromEntries(records.map((m) => [m.path.slice(ws.length + 1), m]));
  return { r, records, byPath, snapshot: r.part.metadata?.snapshot as Record<string, unknown> | undefined };
}

const expectRan = (r: Awaited<ReturnType<typeof bash>>['r']) => {
  if (r.part.state !== 'complete') throw new Error(`bash did not complete: ${JSON.stringify(r.part.error)}`);
};

describe.skipIf(!haveBwrap)('bash snapshot: modes, links and renames', () => {
  it('records chmod and the setuid and setgid bits as a modify with mode {before, after}; a touch is not one', async () => {
    const ws = workspace();
    for (const f of ['tool', 'group', 'touched']) { writeFileSync(join(ws, f), `${f}\n`); chmodSync(join(ws, f), 0o644); }
    const { r, byPath } = await bash(ws, 'chmod 4755 tool; chmod 2644 group; touch touched');
    expectRan(r);
    expect(Object.keys(byPath).sort()).toEqual(['group', 'tool']);
    expect(byPath.tool).toMatchObject({ operation: 'modify', mode: { before: '0644', after: '4755' } });
    expect(byPath.group).toMatchObject({ operation: 'modify', mode: { before: '0644', after: '2644' } });
    // The content did not change, and the digests prove it.
    expect(byPath.tool!.before).toEqual(byPath.tool!.after);
    expect(byPath.tool!.after?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records symlinks (not followed) with their targets when created, retargeted and removed', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    spawnSync('ln', ['-s', 'a.txt', join(ws, 'moved')]);
    spawnSync('ln', ['-s', 'a.txt', join(ws, 'dropped')]);
    const { r, byPath } = await bash(ws, 'ln -s /etc/passwd link; ln -sfn b.txt moved; rm dropped');
    expectRan(r);
    expect(Object.keys(byPath).sort()).toEqual(['dropped', 'link', 'moved']);
    expect(byPath.link).toMatchObject({ operation: 'create', type: 'symlink', target: { before: null, after: '/etc/passwd' }, before: null, after: { size: 11 } });
    expect(byPath.moved).toMatchObject({ operation: 'modify', type: 'symlink', target: { before: 'a.txt', after: 'b.txt' } });
    expect(byPath.dropped).toMatchObject({ operation: 'delete', type: 'symlink', target: { before: 'a.txt', after: null }, after: null });
    // The link is a link: its digest is of the target text, not of /etc/passwd.
    expect(byPath.link!.after!.sha256).toBe(createHash('sha256').update('/etc/passwd').digest('hex'));
  });

  it('records a rename as one record with from (a rename and edit too); a copy is a create', async () => {
    const ws = workspace();
    mkdirSync(join(ws, 'd1'));
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    writeFileSync(join(ws, 'c.txt'), 'c\n');
    writeFileSync(join(ws, 'k.txt'), 'k\n');
    writeFileSync(join(ws, 'd1', 'x.txt'), 'x\n');
    const { r, byPath } = await bash(ws, 'mv a.txt b.txt; mv c.txt e.txt && echo more >> e.txt; mv d1 d2; cp k.txt k2.txt');
    expectRan(r);
    expect(Object.keys(byPath).sort()).toEqual(['b.txt', 'd2/x.txt', 'e.txt', 'k2.txt']);
    expect(byPath['b.txt']).toMatchObject({ operation: 'rename', from: join(ws, 'a.txt'), before: { size: 2 }, after: { size: 2 } });
    expect(byPath['b.txt']!.before).toEqual(byPath['b.txt']!.after);
    expect(byPath['e.txt']).toMatchObject({ operation: 'rename', from: join(ws, 'c.txt'), before: { size: 2 }, after: { size: 7 } });
    expect(byPath['d2/x.txt']).toMatchObject({ operation: 'rename', from: join(ws, 'd1', 'x.txt') });
    expect(byPath['k2.txt']).toMatchObject({ operation: 'create', before: null, after: { size: 2 } });
  });
});

describe.skipIf(!haveBwrap)('bash snapshot: what the walk cannot read', () => {
  it('a directory past PATH_MAX (unreadable even to root) makes the walk incomplete and names it', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'plain.txt'), 'plain\n');
    // 20 levels of 250-character names: past Linux's 4096-byte PATH_MAX, so lstat and readdir of
    // the deep part fail with ENAMETOOLONG whoever runs them. The shell gets there with relative cd.
    const level = 'd'.repeat(250);
    const { r, byPath, snapshot: snap } = await bash(ws, `rm plain.txt; for i in $(seq 20); do mkdir ${level} && cd ${level} || exit 1; done; echo deep > deep.txt`);
    expectRan(r);
    // The control: what it could read is recorded as usual.
    expect(byPath['plain.txt']).toMatchObject({ operation: 'delete' });
    expect(snap).toMatchObject({ complete: false, why: expect.stringMatching(/could not read .*ENAMETOOLONG/) });
    const unreadable = (snap!.unreadable as { path: string; error: string }[]);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]!.error).toBe('ENAMETOOLONG');
    expect(unreadable[0]!.path.startsWith(join(ws, level))).toBe(true);
    expect(unreadable[0]!.path.length).toBeGreaterThan(4096);
  });

  // As root nothing is unreadable by permission, so the executor runs in a child process as the
  // unprivileged user `nobody` (setpriv), with bubblewrap in an unprivileged user namespace.
  const setpriv = existsSync('/usr/bin/setpriv');
  it.skipIf(!setpriv && !process.env.CI)('as an unprivileged user: a modified file in a directory made unreadable is unknown, not deleted; an unreadable directory is named', () => {
    const ws = workspace();
    mkdirSync(join(ws, 'locked'));
    mkdirSync(join(ws, 'sealed'));
    writeFileSync(join(ws, 'locked', 'f.txt'), 'old\n');
    writeFileSync(join(ws, 'locked', 'g.txt'), 'kept\n');
    writeFileSync(join(ws, 'sealed', 'hidden.txt'), 'hidden\n');
    writeFileSync(join(ws, 'plain.txt'), 'plain\n');
    spawnSync('chown', ['-R', '65534:65534', ws]);
    chmodSync(join(ws, 'sealed'), 0o000);
    // Bundled into the temp directory: the checkout (and node_modules) may sit where that user
    // cannot read, such as under /root.
    const script = join(base, 'bash-call.mjs');
    const built = buildSync({
      entryPoints: [resolve('test/executor/fixtures/bash-call.ts')], outfile: script, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    expect(built.errors).toEqual([]);
    const run = spawnSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script, ws, 'echo new > locked/f.txt; chmod 000 locked; rm plain.txt'], {
      encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws }, cwd: ws, timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { part: { state: string; metadata: { snapshot: Record<string, unknown>; sandbox: { type: string } } }; mutations: FileMutationRecord[]; uid: number };
    expect(out.uid).toBe(65534);
    expect(out.part.state).toBe('complete');
    expect(out.part.metadata.sandbox.type).toBe('bwrap');
    const byPath = Object.fromEntries(out.mutations.map((m) => [m.path.slice(ws.length + 1), m]));
    // The control: a real delete where the walk can read is still recorded.
    expect(byPath['plain.txt']).toMatchObject({ operation: 'delete' });
    expect(Object.keys(byPath)).toEqual(['plain.txt']);
    const snap = out.part.metadata.snapshot;
    expect(snap).toMatchObject({ complete: false, why: expect.stringMatching(/^could not read /) });
    expect(snap.why).toContain(`${join(ws, 'locked')} (EACCES)`);
    expect(snap.why).toContain(`${join(ws, 'sealed')} (EACCES)`);
    expect(snap.unknown).toEqual([join(ws, 'locked', 'f.txt'), join(ws, 'locked', 'g.txt')]);
    expect(snap.unreadable).toEqual(expect.arrayContaining([{ path: join(ws, 'locked'), error: 'EACCES' }, { path: join(ws, 'sealed'), error: 'EACCES' }]));
  });
});

describe.skipIf(!haveBwrap)('bash snapshot: bounded hashing', () => {
  it('an 8 GB sparse file is recorded without a hash (over the per-file bound), and a later `true` completes', async () => {
    const ws = workspace();
    const made = await bash(ws, 'truncate -s 8G big.bin');
    // A fresh executor (a fresh digest cache, as each CLI process has) walks the big file again:
    // stat only. The limit is far above what `true` in bwrap takes, and far below hashing 8 GB.
    const later = await bash(ws, 'true', { timeoutMs: 5_000 });
    expectRan(later.r);
    expectRan(made.r);
    expect(made.byPath['big.bin']).toEqual({
      path: join(ws, 'big.bin'), operation: 'create', before: null, after: { size: 8 * 1024 ** 3, unhashed: 'over_file_bound' }, mode: { before: null, after: expect.stringMatching(/^0[0-7]{3}$/) },
    });
    expect(later.records).toEqual([]);
    expect(later.snapshot).toEqual({ files: 0 });
  });

  it('a changed file over the bound is recorded as changed by stat, with no hash, and says so', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'log.bin'), Buffer.alloc(4096, 'a'));
    writeFileSync(join(ws, 'small.txt'), 'small\n');
    // Same size, new content: only stat (mtime, ctime) shows the change.
    const { r, byPath } = await bash(ws, 'printf b | dd of=log.bin bs=1 seek=100 conv=notrunc status=none; echo x >> small.txt', { fileHashBytes: 1024 });
    expectRan(r);
    expect(byPath['log.bin']).toEqual({ path: join(ws, 'log.bin'), operation: 'modify', before: { size: 4096, unhashed: 'over_file_bound' }, after: { size: 4096, unhashed: 'over_file_bound' } });
    // The control: a file under the bound is hashed on both sides.
    expect(byPath['small.txt']).toMatchObject({ operation: 'modify', before: { size: 6, sha256: expect.any(String) }, after: { size: 8, sha256: expect.any(String) } });
  });

  it('a command killed at its deadline still has what it changed recorded (the walk after it gets its own short grace)', async () => {
    const ws = workspace();
    const { r, byPath } = await bash(ws, 'echo made > made.txt; sleep 60', { timeoutMs: 4_000 });
    expect(r.part.state === 'error' && r.part.error.code).toBe('timeout');
    expect(byPath['made.txt']).toMatchObject({ operation: 'create', after: { size: 5, sha256: expect.any(String) } });
  });

  it('a walk that runs out of time stops and says it is incomplete (the same walk with time is complete)', async () => {
    const ws = workspace();
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(ws, `d${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(ws, `d${d}`, `f${f}`), Buffer.alloc(64 * 1024, f));
    }
    const timed = await snapshot([ws], { limit: 20_000, signal: AbortSignal.timeout(1) }, new DigestCache());
    expect(timed.complete).toBe(false);
    expect(timed.why).toBe('the call ran out of time before the walk was done');
    expect(timed.gaps.size).toBeGreaterThan(0);
    const full = await snapshot([ws], { limit: 20_000 }, new DigestCache());
    expect(full.complete).toBe(true);
    expect(full.entries.size).toBe(30 * 101);
  });
});
