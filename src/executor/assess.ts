// Assessment: every gate that applies to one call, in order — the tier gate, one role gate per
// parameter value, then the paths a FileAffectingTool says it will touch — recorded as one
// ToolCallAssessmentRecord. The resolved paths it approves are the ones the tool then receives.
import type { PolicyCheck, ToolCallAssessmentRecord } from '../contract/index.js';
import { ROLE_GATES, PATH_ROLES, checkPath, type GateContext, type PathAccess } from './gates/index.js';
import { parsePointer, select } from './pointer.js';
import type { SessionPolicy } from './policy.js';
import { tierAllows, TIER_MEANING } from './tiers.js';
import type { PathBase } from './tool-path.js';
import { isFileAffecting, type PathView, type SessionView, type Tool } from './types.js';
import { displayPath } from '../present/titles.js';

export interface Assessment {
  readonly record: ToolCallAssessmentRecord;
  /** Resolved PATH / SOURCE_PATH values by concrete pointer (allowed or not). */
  readonly paths: Readonly<Record<string, string>>;
  /** Resolved paths of a FileAffectingTool, in the order it declared them. */
  readonly affected: readonly string[];
  /** NETWORK_TARGET values by concrete pointer: the normalized host and the addresses checked. */
  readonly targets: Readonly<Record<string, NetworkTarget>>;
}

export interface NetworkTarget {
  readonly host: string;
  /** Absent when the host is a name and the policy has no resolver: nothing was pinned. */
  readonly addresses?: readonly string[];
}

/** Reading tools are those of the lowest tier; anything above it may write what its PATH names. */
export const accessOf = (tool: Tool): PathAccess => (tool.tier === 'observe' ? 'read' : 'write');

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}… (${s.length} characters)` : s);

export function pathView(session: SessionView, paths: Readonly<Record<string, string>>): PathView {
  return {
    ...session,
    paths,
    display(pointer, given) {
      const resolved = paths[pointer];
      if (resolved === undefined) return given;
      const shown = displayPath(resolved, session.cwd);
      return shown === resolved ? given : shown;
    },
  };
}

export async function assess(tool: Tool, input: unknown, session: SessionView, policy: SessionPolicy): Promise<Assessment> {
  const base: PathBase = { cwd: session.cwd, home: session.home };
  const ctx: GateContext = { base, policy, access: accessOf(tool) };
  const checks: PolicyCheck[] = [];
  const paths: Record<string, string> = {};
  const targets: Record<string, NetworkTarget> = {};

  const tierOk = tierAllows(policy.maxTier, tool.tier);
  checks.push({
    gate: 'tier',
    decision: tierOk ? 'allow' : 'deny',
    reason: tierOk
      ? `tier ${tool.tier} (${TIER_MEANING[tool.tier]}) is within the session maximum ${policy.maxTier}`
      : `tier ${tool.tier} (${TIER_MEANING[tool.tier]}) is above the session maximum ${policy.maxTier}`,
  });

  for (const [pointer, role] of Object.entries(tool.paramRoles ?? {})) {
    for (const { pointer: at, value } of select(input, parsePointer(pointer))) {
      if (typeof value !== 'string') {
        checks.push({ gate: role, param: at, decision: 'deny', reason: `a ${role} parameter must be a string, got ${value === null ? 'null' : typeof value}` });
        continue;
      }
      const out = await ROLE_GATES[role](value, ctx);
      const check: PolicyCheck = { gate: role, param: at, value: clip(value), decision: out.decision, reason: out.reason };
      if (out.resolved !== undefined) check.resolved = out.resolved;
      checks.push(check);
      if (PATH_ROLES.has(role) && out.resolved !== undefined) paths[at] = out.resolved;
      if (role === 'NETWORK_TARGET' && out.resolved !== undefined) targets[at] = { host: out.resolved, ...(out.addresses ? { addresses: out.addresses } : {}) };
    }
  }

  const affected: string[] = [];
  if (isFileAffecting(tool)) {
    let declared: readonly string[] = [];
    try {
      declared = tool.affectedPaths(input, pathView(session, paths));
    } catch (err) {
      checks.push({ gate: 'PATH', decision: 'deny', reason: `the tool could not say which files it affects (${(err as Error).message}); a call whose side effects are unknown does not run` });
    }
    const approved = new Set(checks.filter((c) => c.gate === 'PATH' && c.decision === 'allow' && c.resolved).map((c) => c.resolved!));
    for (const given of declared) {
      if (typeof given !== 'string') {
        checks.push({ gate: 'PATH', decision: 'deny', reason: `the tool declared an affected path that is not a string (${given === null ? 'null' : typeof given})` });
        continue;
      }
      if (approved.has(given)) { affected.push(given); continue; }
      // A path the tool touches but no PATH param named: it passes the same write gate.
      const out = await checkPath(given, 'write', ctx);
      const check: PolicyCheck = { gate: 'PATH', value: clip(given), decision: out.decision, reason: `affected path: ${out.reason}` };
      if (out.resolved !== undefined) { check.resolved = out.resolved; approved.add(out.resolved); }
      checks.push(check);
      if (out.resolved !== undefined) affected.push(out.resolved);
    }
  }

  const reasons = checks.filter((c) => c.decision === 'deny').map((c) => c.reason);
  return {
    record: { tool: tool.name, tier: tool.tier, maxTier: policy.maxTier, decision: reasons.length ? 'deny' : 'allow', checks, reasons },
    paths,
    affected: [...new Set(affected)],
    targets,
  };
}
