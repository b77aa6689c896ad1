// The ordered permission tiers (schema `Tier`). A session names the highest tier it allows; a
// tool declares the tier it needs. Meanings are documented here and in the schema description.
import type { Tier } from '../contract/index.js';

/** Lowest first. The `satisfies` keeps this list and the schema enum from drifting apart. */
export const TIER_ORDER = ['observe', 'workspace', 'execute', 'network', 'privileged'] as const satisfies readonly Tier[];
type Exhaustive = Exclude<Tier, (typeof TIER_ORDER)[number]> extends never ? true : never;
const _exhaustive: Exhaustive = true;
void _exhaustive;

export const TIER_MEANING: Readonly<Record<Tier, string>> = {
  observe: 'reads only: files inside the readable roots',
  workspace: 'writes files inside the writable roots',
  execute: 'runs commands in the session working directory',
  network: 'reaches other hosts',
  privileged: 'anything else, including reads and writes outside the roots',
};

export const tierRank = (t: Tier): number => TIER_ORDER.indexOf(t);

/** True when a session whose maximum is `max` may run something that needs `needed`. */
export const tierAllows = (max: Tier, needed: Tier): boolean => tierRank(needed) <= tierRank(max);

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIER_ORDER as readonly string[]).includes(value);
}
