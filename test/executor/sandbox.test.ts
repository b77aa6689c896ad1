// bash under the real bubblewrap sandbox (Debian `bubblewrap`, installed by .ci/run). Each test
// makes its own files and its own loopback listener, and shows the same command getting through
// without the sandbox (privileged tier), so a passing denial is the sandbox's doing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileMutationRecord } from '../../src/contract/index.js';
import { builtinTools, ToolExecutor, ToolRegistry, type PolicyInput } from '../../src/executor/index.js';
import { bwrapArgs, probeBwrap } from '../../src/executor/sandbox/bwrap.js';
import { checkResult, tempDir } from '../helpers/executor.js';

const haveBwrap = existsSync('/usr/bin/bwrap') && probeBwrap('/usr/bin/bwrap') === undefined;
if (process.env.CI && !haveBwrap) throw new Error('CI installs bubblewrap (.ci/run); /usr/bin/bwrap is missing or cannot create a sandbox');

const base = tempDir('toolnorm-sandbox-');
const ws = join(base, 'ws');
const readOnly = join(base, 'ro');
const outside = join(base, 'outside');
for (const d of [ws, readOnly, outside]) mkdirSync(d);
writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
writeFileSync(join(readOnly, 'notes.txt'), 'readable notes\n');

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((s) => { connections++; s.end('hello\n'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function bash(command: string, policy: PolicyInput = {}) {
  const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: ws, home: ws, policy: { readRoots: [ws, readOnly], writeRoots: [ws], ...policy } });
  const r = await ex.execute({ tool: 'bash', input: { command }, timeoutMs: 20_000 });
  checkResult(r);
  const text = r.part.state === 'complete' ? (r.part.output as { text: string }).text : r.part.state === 'error' ? r.part.error.message : '';
  return { r, text, sandbox: r.part.metadata?.sandbox as Record<string, unknown> | undefined };
}

describe.skipIf(!haveBwrap)('bash under bubblewrap', () => {
  it('cannot read a file outside the roots (and can without the sandbox)', async () => {
    const denied = await bash(`cat ${join(outside, 'secret.txt')}`);
    expect(denied.r.part.state).toBe('error');
    expect(denied.text).toMatch(/No such file or directory/);
    expect(denied.text).not.toContain('outside secret');
    expect(denied.sandbox).toMatchObject({ type: 'bwrap', network: 'none' });
    const control = await bash(`cat ${join(outside, 'secret.txt')}`, { maxTier: 'privileged' });
    expect(control.text).toContain('outside secret');
    expect(control.sandbox).toMatchObject({ type: 'none' });
  });

  it('reads a readable root, but cannot write it or anywhere outside the writable roots', async () => {
    expect((await bash(`cat ${join(readOnly, 'notes.txt')}`)).text).toBe('readable notes\n');
    const ro = await bash(`echo x > ${join(readOnly, 'notes.txt')}`);
    expect(ro.text).toMatch(/Read-only file system/);
    expect(readFileSync(join(readOnly, 'notes.txt'), 'utf8')).toBe('readable notes\n');
    const out = await bash(`echo x > ${join(outside, 'new.txt')}`);
    expect(out.r.part.state).toBe('error');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    // The host's /root and the rest of / are not visible; /tmp is the sandbox's own, holding only
    // the mount points of the roots (the outside directory beside them is not there).
    const top = base.split('/')[2]!;
    expect((await bash(`ls -A /tmp; ls -A ${base} | tr "\\n" " "; ls /root 2>&1 | head -1; ls / | tr "\\n" " "`)).text)
      .toMatch(new RegExp(`^${top}\nro ws ls: cannot access '/root': No such file or directory\n(bin |dev |etc |home |lib |lib64 |proc |sbin |tmp |usr |opt )+$`));
    const inside = await bash('echo made > made.txt && cat made.txt');
    expect(inside.text).toBe('made\n');
  });

  it('cannot connect to a loopback listener the test started (it can at the privileged tier)', async () => {
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    const before = connections;
    const denied = await bash(probe);
    expect(denied.r.part.state).toBe('error');
    expect(denied.text).not.toContain('hello');
    expect(connections).toBe(before);
    const control = await bash(probe, { maxTier: 'privileged' });
    expect(control.text).toBe('hello\n');
    expect(connections).toBe(before + 1);
  });

  it('shares the host network only at the network tier, and says so', async () => {
    const r = await bash(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`, { maxTier: 'network' });
    expect(r.text).toBe('hello\n');
    expect(r.sandbox).toMatchObject({ type: 'bwrap', network: 'host' });
  });

  it('records what the command changed in the writable roots as FileMutationRecords', async () => {
    writeFileSync(join(ws, 'gone.txt'), 'to delete\n');
    writeFileSync(join(ws, 'grow.txt'), 'a\n');
    writeFileSync(join(ws, 'touched.txt'), 'same\n');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    // A touch changes the file's identity but not its content: no record.
    const { r } = await bash('echo new > sub/new.txt; rm gone.txt; echo b >> grow.txt; touch touched.txt');
    const records = r.events.filter((e) => e.type === 'tool.file.mutated').map((e) => (e as { mutation: FileMutationRecord }).mutation);
    const byPath = Object.fromEntries(records.map((m) => [m.path.slice(ws.length + 1), m]));
    expect(Object.keys(byPath).sort()).toEqual(['gone.txt', 'grow.txt', 'sub/new.txt']);
    expect(byPath['sub/new.txt']).toMatchObject({ operation: 'create', before: null, after: { size: 4 } });
    expect(byPath['gone.txt']).toMatchObject({ operation: 'delete', before: { size: 10 }, after: null });
    expect(byPath['grow.txt']).toMatchObject({ operation: 'modify', before: { size: 2 }, after: { size: 4 } });
    expect(r.part.metadata).toMatchObject({ sandbox: { type: 'bwrap' }, snapshot: { files: 3 } });
  });

  it('a walk over its entry limit says so, and lists changed files it cannot describe instead of guessing', async () => {
    const many = join(ws, 'many');
    mkdirSync(many, { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(many, `f${i}`), `${i}`);
    const { r } = await bash('echo z > many/f29', { sandbox: { snapshotLimit: 10 } });
    expect(r.part.metadata).toMatchObject({ snapshot: { complete: false, why: 'more than 10 entries in the writable roots' } });
  });

  it('without bwrap, bash is refused with a clear reason by default, and runs unsandboxed when the policy says so', async () => {
    const refused = await bash('echo hi', { sandbox: { bwrap: join(base, 'no-such-bwrap') } });
    expect(refused.r.part.state === 'error' && refused.r.part.error).toMatchObject({ code: 'denied', details: { reason: 'sandbox_unavailable' } });
    expect(refused.text).toMatch(/cannot create the sandbox here.*set sandbox\.whenUnavailable to "unsandboxed"/);
    expect(refused.sandbox).toMatchObject({ type: 'none' });
    const plain = await bash('echo hi', { sandbox: { bwrap: join(base, 'no-such-bwrap'), whenUnavailable: 'unsandboxed' } });
    expect(plain.text).toBe('hi\n');
    expect(plain.sandbox).toMatchObject({ type: 'none', why: expect.stringMatching(/allows running commands unsandboxed/) });
  });
});

describe.skipIf(!haveBwrap)('toolnorm exec bash', () => {
  const cli = async (argv: string[]) => {
    const chunks: Buffer[] = [];
    const out = new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } });
    const err = new Writable({ write(_c, _e, cb) { cb(); } });
    const code = await runCli({ argv: ['exec', '--cwd', ws, ...argv], stdin: Readable.from(['']), stdout: out, stderr: err, env: { HOME: ws }, cwd: ws });
    return { code, part: JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n')[0]!) as { state: string; metadata?: { sandbox?: { type: string } } } };
  };
  it('runs inside bwrap; without it, exit 3 unless --allow-unsandboxed', async () => {
    const ok = await cli(['bash', '{"command":"echo hi"}']);
    expect([ok.code, ok.part.metadata?.sandbox?.type]).toEqual([0, 'bwrap']);
    const missing = join(base, 'no-bwrap');
    const refused = await cli(['--bwrap', missing, 'bash', '{"command":"echo hi"}']);
    expect([refused.code, refused.part.state]).toEqual([3, 'error']);
    const plain = await cli(['--bwrap', missing, '--allow-unsandboxed', 'bash', '{"command":"echo hi"}']);
    expect([plain.code, plain.part.metadata?.sandbox?.type]).toEqual([0, 'none']);
  });
});

describe('bwrap arguments', () => {
  const policy = { readRoots: ['/srv/ro', '/srv/ws'], writeRoots: ['/srv/ws'], maxTier: 'execute' as const };
  it('unshares the network below the network tier, dies with its parent, binds roots after the system dirs', () => {
    const args = bwrapArgs(policy, '/srv/ws');
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--unshare-net', '--unshare-pid', '--new-session']));
    const at = (flag: string, dir: string) => args.findIndex((a, i) => a === flag && args[i + 1] === dir);
    expect(at('--ro-bind', '/srv/ro')).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--bind', '/srv/ws')).toBeGreaterThan(0);
    expect(at('--ro-bind', '/srv/ws')).toBe(-1);
    expect(args.slice(-2)).toEqual(['--chdir', '/srv/ws']);
    expect(bwrapArgs({ ...policy, maxTier: 'network' }, '/srv/ws')).not.toContain('--unshare-net');
  });

  it('always makes its own user namespace with no capabilities, uid 65534 inside for root, and /proc/sys read-only after /proc', () => {
    const asRoot = bwrapArgs(policy, '/srv/ws', { uid: 0, disableUserns: true });
    expect(asRoot.slice(0, 8)).toEqual(['--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns', '--cap-drop', 'ALL']);
    const asUser = bwrapArgs({ ...policy, maxTier: 'network' }, '/srv/ws', { uid: 1000, disableUserns: false });
    expect(asUser.slice(0, 3)).toEqual(['--unshare-user', '--cap-drop', 'ALL']);
    const at = (args: string[], ...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at(asRoot, '--ro-bind', '/proc/sys', '/proc/sys')).toBeGreaterThan(at(asRoot, '--proc', '/proc'));
  });
});
