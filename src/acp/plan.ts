// The ACP `plan` of a session, from the `metadata.plan` of its todo calls. ACP clients replace
// their plan with every `plan` update, so the encoder keeps the session's whole plan: a call's
// plan replaces it, except a partial one (Claude's Task* tools write one entry at a time), whose
// entries replace those of the same id and add the rest.
import type { AcpPlanEntry, PlanEntry, ToolPlan } from '../contract/index.js';

export interface SessionPlan {
  entries: PlanEntry[];
  /** JSON of what was last sent, so an unchanged plan is not sent again. */
  sent?: string;
}

export function mergePlan(prev: SessionPlan | undefined, plan: ToolPlan): SessionPlan {
  if (!plan.partial || !prev) return { entries: [...plan.entries], ...(prev?.sent ? { sent: prev.sent } : {}) };
  const entries = [...prev.entries];
  for (const e of plan.entries) {
    const at = e.id !== undefined ? entries.findIndex((x) => x.id === e.id) : -1;
    // A partial update may name only the id and the new status: it keeps the content it had.
    if (at >= 0) entries[at] = { ...entries[at]!, ...e };
    else entries.push(e);
  }
  return { entries, ...(prev.sent ? { sent: prev.sent } : {}) };
}

/** ACP v1 entries: priority is required (medium when the provider gave none); v1 has no cancelled. */
export function acpPlanEntries(entries: readonly PlanEntry[]): AcpPlanEntry[] {
  return entries.map((e) => {
    const toolnorm: { status?: 'cancelled'; id?: string } = {};
    if (e.status === 'cancelled') toolnorm.status = 'cancelled';
    if (e.id !== undefined) toolnorm.id = e.id;
    const out: AcpPlanEntry = { content: e.content, priority: e.priority ?? 'medium', status: e.status === 'cancelled' ? 'completed' : e.status };
    if (Object.keys(toolnorm).length) out._meta = { toolnorm };
    return out;
  });
}
