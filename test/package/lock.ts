// A consumer's package-lock.json for the packed tarball, built from this repo's lock: the same
// versions, resolved URLs and integrity hashes `npm ci` installed here, so `npm ci --offline` in
// the consumer takes every package from the npm cache and fetches nothing (a plain `npm install`
// would ask the registry for package metadata, which npm ci never cached).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
  optional?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
}

const KEEP: (keyof LockEntry)[] = ['version', 'resolved', 'integrity', 'license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'hasInstallScript'];

/** Where npm finds `name` from the package at `from` (node_modules lookup up the tree). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return undefined;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
}

/**
 * The lock for a consumer whose package.json depends on `deps` (name → spec; `toolnorm` is the
 * tarball). Entries reachable only through optional edges are marked optional, as npm does, so
 * `--omit=optional` leaves them out.
 */
export function consumerLock(repoRoot: string, tarball: string, deps: Record<string, string>, toolnormPkg: { version: string; dependencies: Record<string, string>; optionalDependencies: Record<string, string>; peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }>; bin: Record<string, string>; engines: Record<string, string> }): object {
  const repo = (JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const required = new Set<string>();
  const optional = new Set<string>();
  const visit = (key: string, viaOptional: boolean) => {
    const seen = viaOptional ? optional : required;
    if (seen.has(key) || (viaOptional && required.has(key))) return;
    seen.add(key);
    if (!viaOptional) optional.delete(key);
    const e = repo[key]!;
    for (const [edges, opt] of [[e.dependencies, false], [e.optionalDependencies, true]] as const) {
      for (const name of Object.keys(edges ?? {})) {
        const at = locate(repo, key, name);
        if (at) visit(at, viaOptional || opt);
        else if (!opt) throw new Error(`${name}, a dependency of ${key}, is not in package-lock.json`);
      }
    }
  };
  const packages: Record<string, LockEntry> = {};
  for (const name of Object.keys(deps)) if (name !== 'toolnorm') visit(`node_modules/${name}`, false);
  for (const name of Object.keys(toolnormPkg.dependencies)) visit(`node_modules/${name}`, false);
  for (const name of Object.keys(toolnormPkg.optionalDependencies)) visit(`node_modules/${name}`, true);
  // Revisit required roots so that anything they reach wins over an optional path to it.
  for (const key of [...required]) { required.delete(key); visit(key, false); }
  packages[''] = { name: 'consumer', version: '1.0.0', dependencies: deps } as LockEntry;
  packages['node_modules/toolnorm'] = {
    version: toolnormPkg.version,
    resolved: `file:${tarball}`,
    license: 'MIT',
    dependencies: toolnormPkg.dependencies,
    optionalDependencies: toolnormPkg.optionalDependencies,
    peerDependencies: toolnormPkg.peerDependencies,
    peerDependenciesMeta: toolnormPkg.peerDependenciesMeta,
    bin: toolnormPkg.bin,
    engines: toolnormPkg.engines,
  };
  for (const key of [...required, ...optional].sort()) {
    const src = repo[key]!;
    const e: LockEntry = {};
    for (const k of KEEP) if (src[k] !== undefined) (e as Record<string, unknown>)[k] = src[k];
    // npm sometimes writes an entry without `resolved` (it then looks the tarball up in the
    // registry's metadata, which an offline install cannot); the registry's URL is regular.
    if (!e.resolved && e.version) {
      const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
      e.resolved = `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${e.version}.tgz`;
    }
    if (optional.has(key)) e.optional = true;
    packages[key] = e;
  }
  return { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}
