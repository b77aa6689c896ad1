// Builds `metadata.plan` from any provider's todo list. Providers spell statuses their own way
// (`in-progress`, `inProgress`, `done`); one table maps them, and an entry whose status is not in
// it is kept as pending with the provider's word in a diagnostic by the caller.
import type { PlanEntry, PlanEntryPriority, PlanEntryStatus, ToolPlan } from '../contract/index.js';

const STATUS: Record<string, PlanEntryStatus> = {
  pending: 'pending', todo: 'pending', not_started: 'pending', open: 'pending',
  in_progress: 'in_progress', 'in-progress': 'in_progress', inprogress: 'in_progress', active: 'in_progress', running: 'in_progress',
  completed: 'completed', complete: 'completed', done: 'completed', finished: 'completed',
  cancelled: 'cancelled', canceled: 'cancelled', deleted: 'cancelled', skipped: 'cancelled',
};

const PRIORITY: Record<string, PlanEntryPriority> = { high: 'high', medium: 'medium', low: 'low' };

/** The contract's status for a provider's word, or undefined when the table does not know it. */
// Own keys only: a provider's word is data, and `constructor` or `__proto__` must not find the prototype's.
const lookup = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

export const planStatus = (word: unknown): PlanEntryStatus | undefined =>
  typeof word === 'string' ? lookup(STATUS, word.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()) : undefined;

export const planPriority = (word: unknown): PlanEntryPriority | undefined =>
  typeof word === 'string' ? lookup(PRIORITY, word.toLowerCase()) : undefined;

export interface PlanEntryInput { content: unknown; status?: unknown; priority?: unknown; id?: unknown; activeForm?: unknown }

/** One entry, or undefined when it has no content to show. An unknown status reads as pending. */
export function planEntry(e: PlanEntryInput): PlanEntry | undefined {
  if (typeof e.content !== 'string' || e.content.trim() === '') return undefined;
  const entry: PlanEntry = { content: e.content, status: planStatus(e.status) ?? 'pending' };
  const priority = planPriority(e.priority);
  if (priority) entry.priority = priority;
  if ((typeof e.id === 'string' && e.id !== '') || typeof e.id === 'number') entry.id = String(e.id);
  if (typeof e.activeForm === 'string' && e.activeForm !== '') entry.activeForm = e.activeForm;
  return entry;
}

export function toolPlan(entries: readonly PlanEntryInput[], extra: { explanation?: string; partial?: boolean } = {}): ToolPlan {
  const plan: ToolPlan = { entries: entries.map(planEntry).filter((x): x is PlanEntry => x !== undefined) };
  if (extra.explanation) plan.explanation = extra.explanation;
  if (extra.partial) plan.partial = true;
  return plan;
}
