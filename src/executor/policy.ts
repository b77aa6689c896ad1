// The session policy as data: the highest tier, the roots, command and network rules. Roots are
// resolved once through ToolPath (so `/tmp` → `/private/tmp` style links cannot split a root
// from the paths inside it).
import type { Tier } from '../contract/index.js';
import type { FileBoundary } from './safe-fs.js';
import { realPrefix } from './tool-path.js';
import { isTier, tierAllows } from './tiers.js';
import { isAbsolute, resolve } from 'node:path';
import { NON_PUBLIC_CLASSES, type NonPublicClass } from './gates/network.js';

/** A glob over a whole command segment (`*` matches anything, including spaces) or a RegExp. */
export type CommandRule = string | RegExp;

/** An exact host (`example.com`), every subdomain (`*.example.com`), or an IP range (`10.0.0.0/8`). */
export type HostRule = string;

export interface CommandPolicy {
  /** When non-empty, every segment of a command must match one of these. */
  allow?: readonly CommandRule[];
  /** A command is denied when it, or any of its segments, matches one of these. */
  deny?: readonly CommandRule[];
}

export interface NetworkPolicy {
  /**
   * When non-empty, a target must match one of these. They narrow and never widen: a matching
   * name that resolves to a non-public address still needs `allowAddressClasses`.
   */
  allowHosts?: readonly HostRule[];
  denyHosts?: readonly HostRule[];
  /**
   * Address classes a target may have besides `public`, e.g. `['loopback']` to reach a local
   * test server. The only way a non-public address passes; the decision names the allowance.
   */
  allowAddressClasses?: readonly NonPublicClass[];
  /** Every non-public class except `metadata` (default false); metadata must be named in allowAddressClasses. */
  allowPrivate?: boolean;
  /**
   * Resolves a host name to its addresses, so a name pointing at 127.0.0.1 is caught too.
   * Not set by default: names are then judged by the name alone (`localhost` still counts).
   */
  resolveHost?: (host: string) => Promise<readonly string[]>;
}

export interface FilePolicy {
  /**
   * Let reading tools read a regular file that has more than one link (default false). Another
   * name of such a file may lie outside the roots. Writing one is always denied.
   */
  allowHardlinkReads?: boolean;
}

export interface SandboxPolicy {
  /**
   * What `bash` does at a tier below `privileged` when bubblewrap is not installed: `refuse`
   * (default, with a reason naming the package) or `unsandboxed` (run it anyway; the part's
   * metadata then says `sandbox: "none"`).
   */
  whenUnavailable?: 'refuse' | 'unsandboxed';
  /** The bwrap binary (default: `bwrap` on PATH). */
  bwrap?: string;
  /** Most entries walked per writable root to find what a sandboxed command changed (default 20 000). */
  snapshotLimit?: number;
  /**
   * Names of environment variables `bash` passes from toolnorm's environment to the command, at
   * every tier (default none). Besides these a command gets only PATH, LANG, LANGUAGE, LC_*,
   * TERM, TZ, COLORTERM, NO_COLOR and a HOME (the sandbox's scratch one inside bwrap; the real
   * one, with USER, LOGNAME, SHELL and TMPDIR, outside it). Anything else, such as a token in
   * toolnorm's environment, never reaches the command or its recorded output.
   */
  env?: readonly string[];
}

export interface PolicyInput {
  /** Highest tier the session allows (default `execute`). */
  maxTier?: Tier;
  /** Readable roots (default: the cwd). Writable roots are readable too. */
  readRoots?: readonly string[];
  /** Writable roots (default: the cwd). */
  writeRoots?: readonly string[];
  commands?: CommandPolicy;
  network?: NetworkPolicy;
  files?: FilePolicy;
  sandbox?: SandboxPolicy;
}

export interface SessionPolicy {
  readonly maxTier: Tier;
  /** Resolved, de-duplicated; includes every writable root. */
  readonly readRoots: readonly string[];
  readonly writeRoots: readonly string[];
  readonly commands: Required<CommandPolicy>;
  readonly network: NetworkPolicy & {
    allowHosts: readonly HostRule[]; denyHosts: readonly HostRule[]; allowAddressClasses: readonly NonPublicClass[]; allowPrivate: boolean;
  };
  /** What the built-in file tools' opens are checked against. */
  readonly files: FileBoundary;
  readonly sandbox: Required<Pick<SandboxPolicy, 'whenUnavailable' | 'snapshotLimit' | 'env'>> & Pick<SandboxPolicy, 'bwrap'>;
}

export const DEFAULT_MAX_TIER: Tier = 'execute';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** Resolves roots (relative ones against the cwd) and fills the defaults. */
export async function resolvePolicy(input: PolicyInput, cwd: string): Promise<SessionPolicy> {
  const maxTier = input.maxTier ?? DEFAULT_MAX_TIER;
  if (!isTier(maxTier)) throw new Error(`unknown tier "${String(maxTier)}"`);
  if (!isAbsolute(cwd)) throw new Error(`the session cwd must be absolute, got "${cwd}"`);
  const when = input.sandbox?.whenUnavailable;
  if (when !== undefined && when !== 'refuse' && when !== 'unsandboxed') throw new Error(`sandbox.whenUnavailable must be "refuse" or "unsandboxed", got "${String(when)}"`);
  const classes = input.network?.allowAddressClasses ?? [];
  if (!Array.isArray(classes)) throw new Error(`network.allowAddressClasses must be an array of address classes, got ${typeof classes}`);
  const unknownClass = classes.find((c) => !NON_PUBLIC_CLASSES.includes(c));
  if (unknownClass !== undefined) throw new Error(`network.allowAddressClasses: unknown address class ${JSON.stringify(unknownClass)}; expected some of ${NON_PUBLIC_CLASSES.join(', ')}`);
  const envNames = input.sandbox?.env ?? [];
  if (!Array.isArray(envNames)) throw new Error(`sandbox.env must be a list of environment variable names, got ${JSON.stringify(envNames)}`);
  for (const name of envNames) {
    if (typeof name !== 'string' || !ENV_NAME.test(name)) throw new Error(`sandbox.env: ${JSON.stringify(name)} is not an environment variable name (letters, digits and _, not starting with a digit)`);
  }
  const real = (roots: readonly string[] | undefined) =>
    Promise.all((roots && roots.length ? roots : [cwd]).map((r) => realPrefix(resolve(cwd, r))));
  const writeRoots = unique(await real(input.writeRoots));
  const readRoots = unique([...(await real(input.readRoots)), ...writeRoots]);
  return {
    maxTier,
    readRoots,
    writeRoots,
    commands: { allow: input.commands?.allow ?? [], deny: input.commands?.deny ?? [] },
    network: {
      ...input.network,
      allowHosts: input.network?.allowHosts ?? [],
      denyHosts: input.network?.denyHosts ?? [],
      allowAddressClasses: [...new Set(classes)],
      allowPrivate: input.network?.allowPrivate ?? false,
    },
    files: { readRoots, writeRoots, unbounded: tierAllows(maxTier, 'privileged'), allowHardlinkReads: input.files?.allowHardlinkReads ?? false },
    sandbox: {
      whenUnavailable: input.sandbox?.whenUnavailable ?? 'refuse',
      snapshotLimit: input.sandbox?.snapshotLimit ?? 20_000,
      env: unique(envNames),
      ...(input.sandbox?.bwrap ? { bwrap: input.sandbox.bwrap } : {}),
    },
  };
}
