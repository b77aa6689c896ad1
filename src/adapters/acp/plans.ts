// ACP plans → one `todo` part per plan, as Codex's plan items are: v1 `plan {entries}` (one plan
// per session, each update replaces it whole) and v2 / v1-unstable `plan_update {plan: {type,
// planId, entries | text | path}}` (plans by id).
import { planText, planTitle, type PlanStep } from '../codex/plans.js';
import { toolPlan } from '../../substance/index.js';
import type { ToolPlan } from '../../contract/index.js';
import { arr, nonEmpty, obj, type Obj } from '../../fields.js';

export interface PlanView {
  /** The plan's id within its session (`plan` for v1's one plan). */
  planId: string;
  title: string;
  input: Obj;
  text: string;
  /** Every entry is completed. */
  done: boolean;
  /** `metadata.plan`: the entries (`content`, `status`, `priority`) as the contract has them; absent for a markdown or file plan. */
  plan?: ToolPlan;
}

/** ACP plan entries (`{content, status, priority}`) as `metadata.plan`. */
const planMeta = (entries: unknown): ToolPlan => toolPlan((arr(entries) ?? []).map((e) => obj(e) ?? { content: undefined }) as { content: unknown }[]);

const STATUS: Readonly<Record<string, PlanStep['status']>> = { pending: 'pending', in_progress: 'inProgress', completed: 'completed' };

function stepsOf(entries: unknown): PlanStep[] {
  return (arr(entries) ?? []).map((e) => {
    const o = obj(e) ?? {};
    const s = typeof o.status === 'string' && Object.hasOwn(STATUS, o.status) ? STATUS[o.status]! : 'pending';
    return { step: typeof o.content === 'string' ? o.content : '', status: s };
  });
}

/** The plan an update describes, or undefined when it holds none. */
export function planOf(update: Obj): PlanView | undefined {
  if (update.sessionUpdate === 'plan') {
    const steps = stepsOf(update.entries);
    return { planId: 'plan', title: planTitle(steps), input: { entries: arr(update.entries) ?? [] }, text: planText(steps), done: steps.length > 0 && steps.every((s) => s.status === 'completed'), plan: planMeta(update.entries) };
  }
  const plan = obj(update.plan);
  if (!plan) return undefined;
  const planId = nonEmpty(plan.planId) ?? 'plan';
  if (Array.isArray(plan.entries)) {
    const steps = stepsOf(plan.entries);
    return { planId, title: planTitle(steps), input: { ...plan }, text: planText(steps), done: steps.length > 0 && steps.every((s) => s.status === 'completed'), plan: planMeta(plan.entries) };
  }
  // `markdown {text}`, `file {path}` or a type this draft does not know: kept whole as the input.
  const text = nonEmpty(plan.text) ?? nonEmpty(plan.markdown) ?? nonEmpty(plan.path) ?? JSON.stringify(plan);
  return { planId, title: 'Updating plan', input: { ...plan }, text, done: false };
}
