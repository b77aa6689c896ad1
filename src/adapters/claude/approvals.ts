// Claude Code's permission traffic as the contract's typed `metadata.approval`
// (docs/providers/claude.md#approvals). Four forms say the same few things:
// - SDK `control_request` `can_use_tool`: the host is asked (pending, a person answers: `user`);
// - its `control_response` (`behavior: allow | deny`), when the recording has the host's side;
// - `system/permission_denied` and `result.permission_denials[]`: a denial, with
//   `decision_reason_type` naming the deciding component;
// - `tool_result_meta[].permission_decision` (stream-json) / `permissionDecision` (transcripts):
//   the decision on every call, `{decision, source, reason_type | reasonType, ruleSource}`.
import type { ApprovalState, ToolApproval } from '../../contract/index.js';
import { obj, type Obj, str } from '../../fields.js';

/**
 * Who decided, from `decision_reason_type` (sdk.d.ts `PermissionDecisionReason`) or a decision's
 * `reason_type`. Rules, permission modes and Claude's own checks decide alone: `policy`.
 * A word not listed is kept as Claude wrote it (the contract allows the provider's word).
 */
const SOURCE_BY_REASON: Readonly<Record<string, string>> = {
  hook: 'hook',
  rule: 'policy', mode: 'policy', classifier: 'policy', safetyCheck: 'policy', workingDir: 'policy',
  sandboxOverride: 'policy', subcommandResults: 'policy', asyncAgent: 'policy',
  user: 'user', userAbort: 'user', permissionPromptTool: 'permissionPromptTool',
};

/** Who decided, from a decision's `source`: `config` is settings and flags, i.e. policy. */
const SOURCE_BY_DECIDER: Readonly<Record<string, string>> = {
  config: 'policy', user: 'user', hook: 'hook', classifier: 'policy', session: 'user',
};

const STATE_BY_DECISION: Readonly<Record<string, ApprovalState>> = {
  accept: 'approved', allow: 'approved', approve: 'approved',
  reject: 'denied', deny: 'denied',
};

const own = (table: Readonly<Record<string, string>>, key: string | undefined): string | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;

// Runs for nearly every result (its permission decision): one pass, and no object unless a field is set.
function detailOf(fields: Obj): Obj | undefined {
  let detail: Obj | undefined;
  for (const k in fields) {
    const v = fields[k];
    if (v !== undefined && v !== '') (detail ??= {})[k] = v;
  }
  return detail;
}

function approval(state: ApprovalState, source: string, at: number | undefined, reason: string | undefined, detail: Obj): ToolApproval {
  const a: ToolApproval = { state, source };
  if (reason !== undefined && reason !== '') a.reason = reason;
  if (at !== undefined) a.at = at;
  const d = detailOf(detail);
  if (d) a.detail = d;
  return a;
}

/** `control_request` `can_use_tool`: the host is asked, so a person (or the host on their behalf) answers. */
export function requestedApproval(request: Obj, requestId: string | undefined, at: number | undefined): ToolApproval {
  return approval('pending', 'user', at, str(request.decision_reason), {
    requestId, blockedPath: str(request.blocked_path), decisionReasonType: str(request.decision_reason_type), title: str(request.title),
  });
}

/** `control_response` to a `can_use_tool`: `{behavior: allow | deny, message?}`; undefined for another answer. */
export function answeredApproval(answer: Obj, requestId: string, at: number | undefined): ToolApproval | undefined {
  const state = own(STATE_BY_DECISION, str(answer.behavior));
  if (!state) return undefined;
  return approval(state as ApprovalState, 'user', at, str(answer.message), { requestId, interrupt: answer.interrupt === true ? true : undefined });
}

/**
 * `system/permission_denied` (or a `permission_denials[]` entry). Without `decision_reason_type`
 * the source is a person when one was asked (`askedUser`), else policy: headless runs deny what
 * no rule allows without asking anyone.
 */
export function deniedApproval(line: Obj, at: number | undefined, askedUser: boolean): ToolApproval {
  const reasonType = str(line.decision_reason_type);
  const source = own(SOURCE_BY_REASON, reasonType) ?? reasonType ?? (askedUser ? 'user' : 'policy');
  const reason = str(line.decision_reason) ?? str(line.message);
  // The message returned to the model, when it is not already the reason.
  return approval('denied', source, at, reason, { message: reason === line.message ? undefined : str(line.message), decisionReasonType: reasonType });
}

/**
 * `permission_decision` / `permissionDecision` on a result, or undefined when none names a
 * decision. `denied` with no decision object: the transcript's `toolDenialKind` (a person rejected it).
 */
export function decidedApproval(decisions: readonly unknown[], at: number | undefined, denialKind: string | undefined): ToolApproval | undefined {
  for (const raw of decisions) {
    const d = obj(raw);
    const state = own(STATE_BY_DECISION, str(d?.decision));
    if (!d || !state) continue;
    const reasonType = str(d.reason_type) ?? str(d.reasonType);
    const decider = str(d.source);
    const source = own(SOURCE_BY_REASON, reasonType) ?? own(SOURCE_BY_DECIDER, decider) ?? decider ?? reasonType ?? 'policy';
    return approval(state as ApprovalState, source, at, undefined, {
      decision: d.decision, decider, reasonType, ruleSource: str(d.ruleSource), reasonCode: str(d.reasonCode), denialKind,
    });
  }
  if (denialKind) return approval('denied', denialKind === 'user-rejected' ? 'user' : denialKind, at, undefined, { denialKind });
  return undefined;
}
