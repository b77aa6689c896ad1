// Issue 29, root escape and secrets: the bubblewrap sandbox holds when toolnorm runs as root (as it
// does here and in CI). Each attack runs through the executor's bash under real bwrap; where it is
// safe to do so, the control runs the same attack under the confinement the sandbox had before
// (bwrap as root with no user namespace and no capability drop, or without the read-only
// /proc/sys) against a throwaway directory, so a pass is the new confinement's doing.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools, ToolExecutor, ToolRegistry, type PolicyInput } from '../../src/executor/index.js';
import { bwrapArgs, probeBwrap, sandboxPlan } from '../../src/executor/sandbox/bwrap.js';
import { resolvePolicy } from '../../src/executor/policy.js';
import { checkResult, tempDir } from '../helpers/executor.js';

const BWRAP = '/usr/bin/bwrap';
const haveBwrap = existsSync(BWRAP) && probeBwrap(BWRAP) === undefined;
if (process.env.CI && !haveBwrap) throw new Error(`CI installs bubblewrap (.ci/run); ${BWRAP} is missing or cannot create the sandbox: ${probeBwrap(BWRAP)}`);
const asRoot = process.getuid?.() === 0;
if (process.env.CI && !asRoot) throw new Error('CI runs as root, and these tests are about root; run them as root');

// The documented values (docs/executor.md), spelled out here so the tests also run, and fail on
// their assertions, against code that lacks them.
const ROOT_SANDBOX_UID = 65534;
const PROC_READ_ONLY = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs'];

const base = tempDir('toolnorm-confine-');
const ws = join(base, 'ws');
const readOnly = join(base, 'ro');
for (const d of [ws, readOnly]) mkdirSync(d);
writeFileSync(join(readOnly, 'notes.txt'), 'readable notes\n');

async function bash(command: string, policy: PolicyInput = {}, cwd = ws) {
  const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd, home: cwd, policy: { readRoots: [ws, readOnly], writeRoots: [ws], ...policy } });
  const r = await ex.execute({ tool: 'bash', input: { command }, timeoutMs: 30_000 });
  checkResult(r);
  const text = r.part.state === 'complete' ? (r.part.output as { text: string }).text : r.part.state === 'error' ? r.part.error.message : '';
  return { r, text, sandbox: r.part.metadata?.sandbox as Record<string, unknown> | undefined };
}

/** bwrap run directly with these arguments (a control: not what the executor runs). */
function rawBwrap(args: readonly string[], command: string) {
  const r = spawnSync(BWRAP, [...args, '--', '/bin/bash', '-c', command], { encoding: 'utf8', timeout: 30_000 });
  return `${r.stdout}${r.stderr}`;
}

/** The arguments the sandbox used before issue 29: the same mounts, no user namespace, no capability drop. */
const CONFINEMENT_FLAGS = new Set(['--unshare-user', '--disable-userns']);
function withoutConfinement(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (CONFINEMENT_FLAGS.has(a)) continue;
    if (a === '--uid' || a === '--gid' || a === '--cap-drop') { i++; continue; }
    out.push(a);
  }
  return out;
}

describe.skipIf(!haveBwrap)('bash under bubblewrap, run by root', () => {
  it('toolnorm runs as root here, so these attacks are the ones that worked', () => {
    expect(asRoot).toBe(true);
  });

  it('a read-only root cannot be remounted read-write and written (the old confinement let root do it)', async () => {
    const attack = (dir: string) => `mount -o remount,bind,rw ${dir} && echo escaped > ${join(dir, 'notes.txt')}; cat ${join(dir, 'notes.txt')}`;
    const r = await bash(attack(readOnly));
    expect(r.sandbox).toMatchObject({ type: 'bwrap', capabilities: 'none' });
    expect(r.text).toMatch(/must be superuser|permission denied|Operation not permitted/i);
    expect(r.text).toContain('readable notes');
    expect(readFileSync(join(readOnly, 'notes.txt'), 'utf8')).toBe('readable notes\n');

    // Control, on a copy: the same mounts without the user namespace and capability drop.
    const victim = join(base, 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, 'notes.txt'), 'readable notes\n');
    const policy = await resolvePolicy({ readRoots: [ws, victim], writeRoots: [ws] }, ws);
    rawBwrap(withoutConfinement(bwrapArgs(policy, ws)), attack(victim));
    expect(readFileSync(join(victim, 'notes.txt'), 'utf8')).toBe('escaped\n');
  });

  it('/etc cannot be remounted and written either', async () => {
    const marker = `/etc/toolnorm-escape-${process.pid}`;
    const r = await bash(`mount -o remount,bind,rw /etc && touch ${marker}; touch ${marker}; mount -o remount,rw / ; mount -t tmpfs x /mnt`);
    expect(r.r.part.state).toBe('error');
    expect(r.text).toMatch(/Read-only file system/);
    expect(existsSync(marker)).toBe(false);
  });

  it('the command has no capabilities, cannot regain any, and is not uid 0 inside (root has them all without the sandbox)', async () => {
    const probe = 'id -u; grep -E "^Cap(Eff|Prm|Bnd|Amb):" /proc/self/status';
    const r = await bash(probe);
    const lines = r.text.trim().split('\n');
    expect(lines[0]).toBe(String(ROOT_SANDBOX_UID));
    for (const cap of ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb']) expect(lines).toContain(`${cap}:\t0000000000000000`);
    expect(r.sandbox).toMatchObject({ uid: ROOT_SANDBOX_UID, capabilities: 'none', nestedUserNamespaces: 'disabled' });
    const control = await bash(probe, { maxTier: 'privileged' });
    expect(control.text.split('\n')[0]).toBe('0');
    expect(control.text).not.toContain('CapEff:\t0000000000000000');
  });

  it('cannot make a user namespace of its own to get capabilities back', async () => {
    const r = await bash('unshare --user --map-root-user grep CapEff /proc/self/status');
    expect(r.r.part.state).toBe('error');
    expect(r.text).not.toMatch(/CapEff:\s*0*[1-9a-f]/);
  });

  it('/proc/sys and the other kernel knobs are read-only (without the read-only bind, root-mapped users pass the owner check)', async () => {
    const probe = '[ -w /proc/sys/vm/drop_caches ] && echo drop_caches writable || echo drop_caches read-only; { echo x > /proc/sys/kernel/domainname; } 2>&1; awk \'$5 == "/proc/sys" { print $6 }\' /proc/self/mountinfo';
    const r = await bash(probe);
    expect(r.text).toContain('drop_caches read-only');
    expect(r.text).toMatch(/domainname: Read-only file system/);
    expect(r.text.trim().split('\n').at(-1)).toMatch(/^ro,/);
    // Control: the same sandbox without the read-only binds of PROC_READ_ONLY (no write is made).
    const policy = await resolvePolicy({ readRoots: [ws], writeRoots: [ws] }, ws);
    const args = bwrapArgs(policy, ws);
    const withoutRo: string[] = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--ro-bind' && PROC_READ_ONLY.includes(args[i + 1]!)) { i += 2; continue; }
      withoutRo.push(args[i]!);
    }
    expect(rawBwrap(withoutRo, '[ -w /proc/sys/vm/drop_caches ] && echo drop_caches writable')).toContain('drop_caches writable');
  });

  it('still edits root-owned files in a writable root, and what it writes stays root-owned outside', async () => {
    writeFileSync(join(ws, 'owned.txt'), 'before\n');
    chmodSync(join(ws, 'owned.txt'), 0o644);
    const r = await bash('echo after >> owned.txt && echo new > created.txt && mkdir -p d && echo x > d/f && ls -ln owned.txt | cut -d" " -f3');
    expect(r.r.part.state).toBe('complete');
    // Inside, the caller's uid (root) is the sandbox user: root's files are its own.
    expect(r.text.trim()).toBe(String(ROOT_SANDBOX_UID));
    expect(readFileSync(join(ws, 'owned.txt'), 'utf8')).toBe('before\nafter\n');
    for (const f of ['owned.txt', 'created.txt', 'd/f']) expect(statSync(join(ws, f)).uid).toBe(0);
  });
});

describe.skipIf(!haveBwrap)('the command environment', () => {
  const secret = `s3cr3t-${process.pid}-${Date.now()}`;
  beforeAll(() => {
    process.env.SECRET_TOKEN = secret;
    process.env.TOOLNORM_PASS_ME = 'passed-through';
  });
  afterAll(() => {
    delete process.env.SECRET_TOKEN;
    delete process.env.TOOLNORM_PASS_ME;
  });

  for (const tier of ['execute', 'privileged'] as const) {
    it(`at ${tier}: SECRET_TOKEN in toolnorm's environment is absent from the output and every event; PATH works; a listed name passes`, async () => {
      const { r, text } = await bash('env; echo "path=$PATH"; ls -d / && { printenv SECRET_TOKEN || echo no-secret; }; printenv TOOLNORM_PASS_ME; echo "home=$HOME"', { maxTier: tier, sandbox: { env: ['TOOLNORM_PASS_ME'] } });
      expect(r.part.state).toBe('complete');
      expect(text).toContain('\n/\nno-secret\n');
      expect(text).toContain(`path=${process.env.PATH}`);
      expect(text).toContain('TOOLNORM_PASS_ME=passed-through');
      expect(text).not.toContain('SECRET_TOKEN');
      expect(JSON.stringify(r.events)).not.toContain(secret);
      expect(JSON.stringify(r.part)).not.toContain(secret);
      expect(text).toContain(tier === 'execute' ? 'home=/home/sandbox' : `home=${process.env.HOME}`);
    });
  }

  it('the same command without the policy name sees no TOOLNORM_PASS_ME; a name that is not one is refused', async () => {
    expect((await bash('printenv TOOLNORM_PASS_ME || echo unset')).text).toBe('unset\n');
    await expect(resolvePolicy({ sandbox: { env: ['A=B'] } }, ws)).rejects.toThrow(/sandbox\.env: "A=B" is not an environment variable name/);
  });

  it('the scratch HOME is writable and empty', async () => {
    expect((await bash('ls -A ~ | wc -l; touch ~/.x && echo ok')).text).toBe('0\nok\n');
  });
});

describe.skipIf(!haveBwrap)('a bwrap that cannot give the confinement is refused, never used with less', () => {
  const fakes = tempDir('toolnorm-fake-bwrap-');
  const fake = (name: string, body: string) => {
    const p = join(fakes, name);
    writeFileSync(p, `#!/bin/bash\n${body}\n`);
    chmodSync(p, 0o755);
    return p;
  };
  // A fake, because user namespaces cannot be turned off for this test alone (the sysctl is the
  // whole machine's): it answers --unshare-user the way bwrap does on such a kernel.
  const noUserns = fake('bwrap-no-userns', `for a in "$@"; do [ "$a" = --unshare-user ] && { echo "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2; exit 1; }; done\nexec ${BWRAP} "$@"`);
  // The real bwrap with the user namespace and capability drop stripped: it runs, but weaker.
  const weak = fake('bwrap-weak', `args=()\nwhile [ $# -gt 0 ]; do case "$1" in --unshare-user|--disable-userns) shift;; --uid|--gid|--cap-drop) shift 2;; *) args+=("$1"); shift;; esac; done\nexec ${BWRAP} "\${args[@]}"`);

  it('user namespaces unavailable: refused, naming why', async () => {
    const policy = await resolvePolicy({ sandbox: { bwrap: noUserns } }, ws);
    const plan = sandboxPlan(policy, ws);
    expect(plan.kind).toBe('refused');
    expect(plan.kind === 'refused' && plan.reason).toMatch(/its own user namespace, no capabilities.*No permissions to create new namespace/);
    const r = await bash('echo ran', { sandbox: { bwrap: noUserns } });
    expect(r.r.part.state === 'error' && r.r.part.error).toMatchObject({ code: 'denied', details: { reason: 'sandbox_unavailable' } });
    expect(r.text).not.toContain('ran');
  });

  it('a bwrap that runs but keeps capabilities fails the probe from inside', async () => {
    const r = await bash('echo ran > ran.txt', { sandbox: { bwrap: weak } });
    expect(r.r.part.state === 'error' && r.r.part.error).toMatchObject({ code: 'denied', details: { reason: 'sandbox_unavailable' } });
    expect(r.text).toMatch(/the command keeps capabilities: CapEff/);
    expect(existsSync(join(ws, 'ran.txt'))).toBe(false);
  });
});
