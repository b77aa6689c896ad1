// The plane-2 gates, one per ParamRole. This table is the whole dispatch: a gate is chosen by the
// role a tool declares for a parameter, never by the tool's name.
import type { ParamRole } from '../../contract/index.js';
import { commandGate } from './command.js';
import { networkGate } from './network.js';
import { pathGate, sourcePathGate } from './path.js';
import type { RoleGate } from './types.js';

export const ROLE_GATES: Readonly<Record<ParamRole, RoleGate>> = {
  PATH: pathGate,
  SOURCE_PATH: sourcePathGate,
  EXEC_COMMAND: commandGate,
  NETWORK_TARGET: networkGate,
};

/** Roles whose resolved value is a filesystem path handed to the tool. */
export const PATH_ROLES: ReadonlySet<ParamRole> = new Set(['PATH', 'SOURCE_PATH']);

export type { GateContext, GateOutcome, PathAccess, RoleGate } from './types.js';
export { checkPath } from './path.js';
export { commandSegments, matchesRule } from './command.js';
export { ADDRESS_CLASSES, NON_PUBLIC_CLASSES, classifyAddress, classifyHost, judgeAddress, judgeTarget, targetHost, matchesHost, type AddressClass, type AddressVerdict, type NetworkJudgement, type NonPublicClass } from './network.js';
