// The plan of a session, from the `metadata.plan` of its todo calls, for outputs whose clients
// keep one plan and replace it with each update (ACP `plan`, AG-UI's plan activity). A call's plan
// replaces the session's, except a partial one (Claude's Task* tools write one entry at a time),
// whose entries replace those of the same id and add the rest.
import type { AcpPlanEntry, PlanEntry, ToolPlan } from '../contract/index.js';

export interface SessionPlan {
  entries: PlanEntry[];
  /** JSON of what was last sent, so an unchanged plan is not sent again. */
  sent?: string;
  /**
   * The call that last changed it, its plan as JSON, and the entries before it: a call's plan
   * is seen again on each of its events, and a partial one must merge into the plan before the
   * call (merging it twice would add its entries without an id twice).
   */
  last?: { partId: string; plan: string; before: PlanEntry[] };
}

function merge(before: readonly PlanEntry[], plan: ToolPlan): PlanEntry[] {
  if (!plan.partial) return [...plan.entries];
  const entries = [...before];
  for (const e of plan.entries) {
    const at = e.id !== undefined ? entries.findIndex((x) => x.id === e.id) : -1;
    if (at >= 0) entries[at] = { ...entries[at]!, ...e };
    else entries.push(e);
  }
  return entries;
}

/** The session's plan after `partId` wrote `plan`, or undefined when that call's plan is unchanged. */
export function nextPlan(cur: SessionPlan | undefined, partId: string, plan: ToolPlan): SessionPlan | undefined {
  const json = JSON.stringify(plan);
  const again = cur?.last?.partId === partId;
  if (again && cur!.last!.plan === json) return undefined;
  const before = again ? cur!.last!.before : cur?.entries ?? [];
  return { entries: merge(before, plan), ...(cur?.sent ? { sent: cur.sent } : {}), last: { partId, plan: json, before } };
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
