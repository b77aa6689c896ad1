// PATH and SOURCE_PATH gates. Both resolve through ToolPath; they differ only in which roots
// apply: PATH follows the tool's access (writable roots for writing tools), SOURCE_PATH is always
// a read. Outside the roots only a `privileged` session may go (the tier's documented meaning).
import { tierAllows } from '../tiers.js';
import { isInside, resolveToolPath } from '../tool-path.js';
import type { GateContext, GateOutcome, PathAccess, RoleGate } from './types.js';

const ROOTS_NAME: Record<PathAccess, string> = { read: 'readable', write: 'writable' };

/** `X is` / `X resolves to Y, which is` — the subject of every path reason. */
function subject(given: string, resolved: string, viaSymlink: boolean): string {
  if (viaSymlink) return `${given} resolves through a symlink to ${resolved}, which is`;
  return given === resolved ? `${given} is` : `${given} resolves to ${resolved}, which is`;
}

export async function checkPath(given: string, access: PathAccess, ctx: GateContext): Promise<GateOutcome> {
  const r = await resolveToolPath(given, ctx.base);
  if (!r.ok) return { decision: 'deny', reason: `${JSON.stringify(given.length > 80 ? `${given.slice(0, 80)}…` : given)} is not a usable path: ${r.reason}` };
  const roots = access === 'write' ? ctx.policy.writeRoots : ctx.policy.readRoots;
  const what = subject(given, r.resolved, r.viaSymlink);
  const note = r.note ? ` (${r.note})` : '';
  const root = roots.find((root) => isInside(r.resolved, root));
  if (root !== undefined) {
    return { decision: 'allow', resolved: r.resolved, reason: `${what} inside the ${ROOTS_NAME[access]} root ${root}${note}` };
  }
  const outside = `${what} outside the ${ROOTS_NAME[access]} roots (${roots.join(', ')})${note}`;
  if (tierAllows(ctx.policy.maxTier, 'privileged')) {
    return { decision: 'allow', resolved: r.resolved, reason: `${outside}; allowed because the session allows the privileged tier` };
  }
  return { decision: 'deny', resolved: r.resolved, reason: `${outside}; only a privileged session may ${access} outside them` };
}

export const pathGate: RoleGate = (value, ctx) => checkPath(value, ctx.access, ctx);
export const sourcePathGate: RoleGate = (value, ctx) => checkPath(value, 'read', ctx);
