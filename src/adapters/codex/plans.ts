// Plans and to-do lists: exec `todo_list` items `{text, completed}`, app-server `turn/plan/updated`
// and rollout `update_plan` arguments `{step, status}`. One step shape, one title, one checklist.
import { arr, camel, nonEmpty, obj, text } from './fields.js';

export interface PlanStep {
  step: string;
  status: 'pending' | 'inProgress' | 'completed';
}

/** Steps from `[{step, status}]` or `[{text, completed}]`. */
export function planSteps(raw: unknown): PlanStep[] {
  const out: PlanStep[] = [];
  for (const entry of arr(raw) ?? []) {
    const e = obj(entry);
    if (!e) continue;
    const step = text(e.step) ?? text(e.text) ?? '';
    const s = nonEmpty(e.status);
    const status = s ? camel(s) : e.completed === true ? 'completed' : 'pending';
    out.push({ step, status: status === 'completed' || status === 'inProgress' ? status : 'pending' });
  }
  return out;
}

export function planTitle(steps: readonly PlanStep[]): string {
  if (steps.length === 0) return 'Updating plan';
  const done = steps.filter((s) => s.status === 'completed').length;
  return `Updating plan (${done}/${steps.length} done)`;
}

const MARK: Record<PlanStep['status'], string> = { pending: '[ ]', inProgress: '[~]', completed: '[x]' };

/** `[x] List files\n[ ] Write file`, what a person reads for a plan. */
export function planText(steps: readonly PlanStep[], explanation?: string): string {
  const lines = steps.map((s) => `${MARK[s.status]} ${s.step}`);
  return (explanation ? [explanation, ...lines] : lines).join('\n');
}
