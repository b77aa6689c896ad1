import type { PolicyDecision } from '../../contract/index.js';
import type { SessionPolicy } from '../policy.js';
import type { PathBase } from '../tool-path.js';

/** Whether a tool's PATH params are read or written: `observe` tools read, every other tier writes. */
export type PathAccess = 'read' | 'write';

export interface GateContext {
  readonly base: PathBase;
  readonly policy: SessionPolicy;
  readonly access: PathAccess;
}

export interface GateOutcome {
  readonly decision: PolicyDecision;
  readonly reason: string;
  /** The normalized value: for paths, what execution will use. */
  readonly resolved?: string;
  /** NETWORK_TARGET: the addresses that were checked; a connection must use one of them. */
  readonly addresses?: readonly string[];
}

/** A gate sees one parameter value and the session; never the tool's name. */
export type RoleGate = (value: string, ctx: GateContext) => Promise<GateOutcome>;
