// The command sandbox: bubblewrap (Debian `bubblewrap`, `bwrap`), the tool Codex's Linux sandbox
// is built on. A sandboxed command sees a fresh root with only:
//   - system directories read-only (/usr, /etc, /opt, and the /bin, /lib… links or directories);
//   - the readable roots read-only, then the writable roots read-write (a writable root inside a
//     readable one is writable; a readable root inside a writable one stays writable, as the
//     path gate judges it);
//   - a private /proc, a minimal /dev and an empty /tmp;
// and nothing else (no $HOME, no /root, no /var, no /sys). Below the `network` tier it gets its
// own network namespace (only `lo`, which is not the host's), so it reaches no listener at all.
// It dies with its parent (--die-with-parent), runs in its own PID namespace (so killing bwrap
// takes every process it started) and its own session (--new-session: no terminal injection).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SessionPolicy } from '../policy.js';
import { tierAllows } from '../tiers.js';
import { isInside } from '../tool-path.js';

/** Recorded in the metadata of every bash part: which sandbox ran the command, with what. */
export type SandboxRecord =
  | { readonly type: 'bwrap'; readonly network: 'none' | 'host'; readonly writable: readonly string[]; readonly readable: readonly string[] }
  | { readonly type: 'none'; readonly why: string };

export type SandboxPlan =
  | { readonly kind: 'bwrap'; readonly bwrap: string; readonly args: readonly string[]; readonly record: SandboxRecord }
  | { readonly kind: 'none'; readonly record: SandboxRecord }
  | { readonly kind: 'refused'; readonly reason: string; readonly record: SandboxRecord };

/** Directories a command needs to run programs at all; bound read-only when present. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

function findOnPath(name: string, pathVar = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVar.split(delimiter).filter(Boolean)) {
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

const probes = new Map<string, string | undefined>();

/**
 * Whether `bwrap` can build a sandbox here (it may be installed where namespaces are not
 * allowed): undefined when it can, else why not. Asked once per binary.
 */
export function probeBwrap(bwrap: string): string | undefined {
  if (probes.has(bwrap)) return probes.get(bwrap);
  const r = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--proc', '/proc', '--die-with-parent', '--', 'true'], { encoding: 'utf8', timeout: 10_000 });
  const why = r.error ? r.error.message : r.status === 0 ? undefined : (r.stderr.trim() || `exit ${r.status}`);
  probes.set(bwrap, why);
  return why;
}

/** The bwrap arguments (before the command) for a policy and working directory. */
export function bwrapArgs(policy: Pick<SessionPolicy, 'readRoots' | 'writeRoots' | 'maxTier'>, cwd: string): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!tierAllows(policy.maxTier, 'network')) args.push('--unshare-net');
  for (const dir of SYSTEM_DIRS) {
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) continue;
    // Merged-/usr systems have /bin → usr/bin: the same link inside, so paths keep working.
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (st.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  const writable = policy.writeRoots;
  const readOnly = policy.readRoots.filter((r) => !writable.some((w) => isInside(r, w)));
  // Shorter paths first, so a root inside another is mounted over it, not under it.
  const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length;
  const mounts = [...readOnly.map((r) => ['--ro-bind', r] as const), ...writable.map((w) => ['--bind', w] as const)]
    .sort((a, b) => byDepth(a[1], b[1]) || (a[0] === '--bind' ? 1 : 0) - (b[0] === '--bind' ? 1 : 0));
  for (const [flag, dir] of mounts) args.push(flag, dir, dir);
  args.push('--chdir', cwd);
  return args;
}

/**
 * How `bash` runs under this policy: inside bwrap below the `privileged` tier (refused, or
 * unsandboxed when the policy says so, if bwrap cannot run), plainly at `privileged`.
 */
export function sandboxPlan(policy: SessionPolicy, cwd: string): SandboxPlan {
  if (tierAllows(policy.maxTier, 'privileged')) {
    return { kind: 'none', record: { type: 'none', why: 'the session allows the privileged tier, which is not sandboxed' } };
  }
  const bwrap = policy.sandbox.bwrap ?? findOnPath('bwrap');
  const missing = bwrap === undefined
    ? 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)'
    : probeBwrap(bwrap) && `bubblewrap (${bwrap}) cannot create a sandbox here: ${probeBwrap(bwrap)}`;
  if (missing || bwrap === undefined) {
    const why = missing || 'bubblewrap is not available';
    if (policy.sandbox.whenUnavailable === 'unsandboxed') {
      return { kind: 'none', record: { type: 'none', why: `${why}; the policy allows running commands unsandboxed` } };
    }
    return {
      kind: 'refused',
      reason: `commands run only inside the bubblewrap sandbox below the privileged tier, and ${why}; set sandbox.whenUnavailable to "unsandboxed" to run them anyway`,
      record: { type: 'none', why },
    };
  }
  if (![...policy.readRoots].some((r) => isInside(cwd, r))) {
    return { kind: 'refused', reason: `the session cwd ${cwd} is outside every root, so it would not exist inside the sandbox`, record: { type: 'none', why: 'cwd outside the roots' } };
  }
  const network = tierAllows(policy.maxTier, 'network') ? 'host' : 'none';
  return {
    kind: 'bwrap',
    bwrap,
    args: bwrapArgs(policy, cwd),
    record: { type: 'bwrap', network, writable: policy.writeRoots, readable: policy.readRoots.filter((r) => !policy.writeRoots.includes(r)) },
  };
}
