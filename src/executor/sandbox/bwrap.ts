// The command sandbox: bubblewrap (Debian `bubblewrap`, `bwrap`), the tool Codex's Linux sandbox
// is built on. A sandboxed command sees a fresh root with only:
//   - system directories read-only (/usr, /etc, /opt, and the /bin, /lib… links or directories);
//   - the readable roots read-only, then the writable roots read-write (a writable root inside a
//     readable one is writable; a readable root inside a writable one stays writable, as the
//     path gate judges it);
//   - a private /proc (its kernel knobs, /proc/sys and friends, read-only), a minimal /dev, an
//     empty /tmp and a scratch $HOME;
// and nothing else (no real $HOME, no /root, no /var, no /sys). Below the `network` tier it gets its
// own network namespace (only `lo`, which is not the host's), so it reaches no listener at all.
//
// It runs in its own user namespace with every capability dropped, also when toolnorm runs as
// root: without that, root inside bwrap keeps CAP_SYS_ADMIN and can simply remount a read-only
// bind read-write. The namespace maps the caller's own uid (bwrap maps no other), so files the
// command writes keep the caller's ownership and root's files in a writable root stay writable;
// as root the uid seen inside is 65534, so programs do not take themselves for root. Nested user
// namespaces are disabled where bwrap can do that (they would hand the command a fresh set of
// capabilities over its own namespaces). It dies with its parent (--die-with-parent), runs in its
// own PID namespace (so killing bwrap takes every process it started) and its own session
// (--new-session: no terminal injection).
//
// The probe runs this exact confinement and checks it from inside (no capabilities, /proc/sys
// read-only, only `lo` when the network is cut), so a kernel or a bwrap that cannot give it is
// refused by name rather than used with less.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SessionPolicy } from '../policy.js';
import { tierAllows } from '../tiers.js';
import { isInside } from '../tool-path.js';

/** Recorded in the metadata of every bash part: which sandbox ran the command, with what. */
export type SandboxRecord =
  | {
    readonly type: 'bwrap'; readonly network: 'none' | 'host'; readonly writable: readonly string[]; readonly readable: readonly string[];
    /** The uid the command has inside, and that it has no capabilities there. */
    readonly uid: number; readonly capabilities: 'none'; readonly nestedUserNamespaces: 'disabled' | 'allowed';
  }
  | { readonly type: 'none'; readonly why: string };

export type SandboxPlan =
  | { readonly kind: 'bwrap'; readonly bwrap: string; readonly args: readonly string[]; readonly record: SandboxRecord }
  | { readonly kind: 'none'; readonly record: SandboxRecord }
  | { readonly kind: 'refused'; readonly reason: string; readonly record: SandboxRecord };

/** Directories a command needs to run programs at all; bound read-only when present. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/**
 * Kernel knobs under a fresh /proc that stay read-only (the list Docker and runc use). A process
 * whose uid maps to the host's root passes the owner check on them even without capabilities
 * (/proc/sys/vm/drop_caches, for one), and bwrap's own cover skips /proc/sys.
 */
export const PROC_READ_ONLY = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs'];

/** $HOME inside the sandbox: an empty directory on the sandbox's own root, gone with it. */
export const SANDBOX_HOME = '/home/sandbox';

/** The uid (and gid) a command has inside the sandbox when toolnorm runs as root. */
export const ROOT_SANDBOX_UID = 65534;

/**
 * Names every command gets from toolnorm's environment (when set), at every tier: what programs
 * need to find each other and to print text. Everything else, tokens and keys included, is left
 * out unless the policy names it (`sandbox.env`).
 */
export const BASE_ENV_NAMES = ['PATH', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'COLORTERM', 'NO_COLOR'];
/** Added outside the sandbox (privileged tier, or unsandboxed by policy), where they describe the host truly. */
export const HOST_ENV_NAMES = ['HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR'];
const LOCALE_NAME = /^LC_[A-Z_]+$/;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment a command runs with: the base names, the locale (`LC_*`), the policy's
 * pass-through names, and inside the sandbox HOME set to the scratch home. Built here and handed
 * to bwrap as its own environment (bwrap passes its environment on), never as `--setenv`
 * arguments, which every local user can read in the process list.
 */
export function commandEnv(source: NodeJS.ProcessEnv, passNames: readonly string[], sandboxed: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  const names = [...BASE_ENV_NAMES, ...Object.keys(source).filter((n) => LOCALE_NAME.test(n)), ...(sandboxed ? [] : HOST_ENV_NAMES)];
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= DEFAULT_PATH;
  if (sandboxed) env.HOME = SANDBOX_HOME;
  // The policy's names last: a name it lists is passed as it is, even one set above.
  for (const name of passNames) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

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

const callerUid = () => (typeof process.getuid === 'function' ? process.getuid() : -1);

const helpTexts = new Map<string, string>();
function bwrapHelp(bwrap: string): string {
  let text = helpTexts.get(bwrap);
  if (text === undefined) {
    const r = spawnSync(bwrap, ['--help'], { encoding: 'utf8', timeout: 10_000 });
    text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    helpTexts.set(bwrap, text);
  }
  return text;
}

/** Whether this bwrap can stop the command from making user namespaces of its own (0.8.0 on). */
export function canDisableUserns(bwrap: string): boolean {
  return bwrapHelp(bwrap).includes('--disable-userns');
}

/**
 * The namespace and privilege flags of every sandbox: the same list the probe runs, so what is
 * probed is what is used.
 */
export function confinementArgs(opts: { network: boolean; uid?: number; disableUserns: boolean }): string[] {
  const uid = opts.uid ?? callerUid();
  const args = ['--unshare-user'];
  if (uid === 0) args.push('--uid', String(ROOT_SANDBOX_UID), '--gid', String(ROOT_SANDBOX_UID));
  if (opts.disableUserns) args.push('--disable-userns');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!opts.network) args.push('--unshare-net');
  return args;
}

/** A fresh /proc with its knobs read-only, a minimal /dev, an empty /tmp and the scratch home. */
function freshMounts(): string[] {
  const args = ['--proc', '/proc'];
  for (const p of PROC_READ_ONLY) if (lstatSync(p, { throwIfNoEntry: false })) args.push('--ro-bind', p, p);
  args.push('--dev', '/dev', '--tmpfs', '/tmp', '--dir', SANDBOX_HOME);
  return args;
}

function systemMounts(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) continue;
    // Merged-/usr systems have /bin → usr/bin: the same link inside, so paths keep working.
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (st.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  return args;
}

// Checked from inside the probe sandbox: each line names what failed. CapEff and CapBnd must be
// all zeros (no capability now, none to regain by exec), /proc/sys must be a read-only mount (read
// from mountinfo, so the probe writes nothing even under a bwrap that failed), and with the
// network cut the only interface is lo.
const PROBE_SCRIPT = `
fail=0
grep -Eq '^CapEff:[[:space:]]*0+$' /proc/self/status || { echo "the command keeps capabilities: $(grep CapEff /proc/self/status)"; fail=1; }
grep -Eq '^CapBnd:[[:space:]]*0+$' /proc/self/status || { echo "the command could regain capabilities: $(grep CapBnd /proc/self/status)"; fail=1; }
grep -Eq '^[^ ]+ [^ ]+ [^ ]+ [^ ]+ /proc/sys ro[, ]' /proc/self/mountinfo || { echo "/proc/sys is not mounted read-only"; fail=1; }
if [ "$1" = none ] && [ "$(grep : /proc/net/dev | grep -cv '^ *lo:')" != 0 ]; then echo "the network namespace has interfaces besides lo"; fail=1; fi
exit $fail`;

const probes = new Map<string, string | undefined>();

/**
 * Whether `bwrap` can build this confinement here (it may be installed where user namespaces
 * are not allowed, or be a build that ignores a flag): undefined when it can, else why not.
 * Asked once per binary, network mode and uid.
 */
export function probeBwrap(bwrap: string, opts: { network?: boolean; uid?: number } = {}): string | undefined {
  const network = opts.network ?? false;
  const uid = opts.uid ?? callerUid();
  const key = `${bwrap}\0${network}\0${uid}`;
  if (probes.has(key)) return probes.get(key);
  const args = [
    ...confinementArgs({ network, uid, disableUserns: canDisableUserns(bwrap) }),
    ...systemMounts(), ...freshMounts(),
    '--', '/bin/sh', '-c', PROBE_SCRIPT, 'probe', network ? 'host' : 'none',
  ];
  const r = spawnSync(bwrap, args, { encoding: 'utf8', timeout: 10_000, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  const said = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').filter(Boolean).join('; ');
  const why = r.error ? r.error.message : r.status === 0 ? undefined : (said || `exit ${r.status ?? r.signal}`);
  probes.set(key, why);
  return why;
}

/** The bwrap arguments (before the command) for a policy and working directory. */
export function bwrapArgs(
  policy: Pick<SessionPolicy, 'readRoots' | 'writeRoots' | 'maxTier'>,
  cwd: string,
  opts: { uid?: number; disableUserns?: boolean } = {},
): string[] {
  const args = confinementArgs({ network: tierAllows(policy.maxTier, 'network'), disableUserns: opts.disableUserns ?? true, ...(opts.uid !== undefined ? { uid: opts.uid } : {}) });
  args.push(...systemMounts(), ...freshMounts());
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
  const hostNetwork = tierAllows(policy.maxTier, 'network');
  const missing = bwrap === undefined
    ? 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)'
    : probeBwrap(bwrap, { network: hostNetwork }) && `bubblewrap (${bwrap}) cannot create the sandbox here (its own user namespace, no capabilities, read-only /proc/sys${hostNetwork ? '' : ', no network'}): ${probeBwrap(bwrap, { network: hostNetwork })}`;
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
  const uid = callerUid();
  const disableUserns = canDisableUserns(bwrap);
  return {
    kind: 'bwrap',
    bwrap,
    args: bwrapArgs(policy, cwd, { uid, disableUserns }),
    record: {
      type: 'bwrap', network: hostNetwork ? 'host' : 'none', writable: policy.writeRoots, readable: policy.readRoots.filter((r) => !policy.writeRoots.includes(r)),
      uid: uid === 0 ? ROOT_SANDBOX_UID : uid, capabilities: 'none', nestedUserNamespaces: disableUserns ? 'disabled' : 'allowed',
    },
  };
}
