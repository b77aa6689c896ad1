// What the three input forms share: the per-adapter context and "an item was seen in phase X",
// which looks the item up in the table and drives the tracker.
import type { ToolMetadata } from '../../contract/index.js';
import type { EventEmitterFor } from '../shared/emit.js';
import type { AdapterOptions, InputPosition } from '../types.js';
import { text, type Obj } from './fields.js';
import { NON_TOOL, itemOutcome, itemType, itemView, looksLikeTool, ruleOf, unknownRule, type ItemCtx, type OutcomeHints } from './items.js';
import { PartTracker, type Outcome } from './tracker.js';
import { FAILURES } from './errors.js';

export class CodexContext {
  readonly tracker: PartTracker;
  private readonly warned = new Set<string>();

  constructor(readonly out: EventEmitterFor, readonly options: AdapterOptions) {
    this.tracker = new PartTracker(out);
  }

  /** Time for a line that carries none: the explicit clock's, else none (never invented). */
  now(): number | undefined {
    return this.options.clock?.();
  }

  /** One diagnostic per `key`, so a recurring oddity is reported once, not per line. */
  warnOnce(key: string, code: string, message: string, pos?: InputPosition): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.out.diagnostic(code, message, pos);
  }
}

export type Phase = 'started' | 'updated' | 'completed';

export interface Seen {
  sessionId: string;
  /** The unit a turn end closes: the thread (app-server) or the session. */
  group: string;
  partId: string;
  item: Obj;
  phase: Phase;
  at: number | undefined;
  /** When the item started, if the line says (rollouts and completed-only items). */
  startedAt?: number;
  pos?: InputPosition;
  ctx: ItemCtx;
  extra?: ToolMetadata;
  hints?: OutcomeHints;
  /**
   * The part was started by another record of the same call (a rollout `function_call`): keep its
   * name, input and raw type, take only the title, kind, metadata and outcome from this item.
   */
  refineOnly?: boolean;
}

/** Applies one sighting of an item. Returns false when it is not a tool item or already ended. */
export function observeItem(c: CodexContext, s: Seen): boolean {
  const rawType = text(s.item.type) ?? '';
  const type = itemType(rawType);
  let rule = ruleOf(type);
  if (!rule) {
    if (!rawType || NON_TOOL.has(type) || !looksLikeTool(s.item)) return false;
    c.warnOnce(`type:${type}`, 'unknown_event', `Codex item type "${rawType}" is not in the item table; its items are kept as parts of kind unknown`, s.pos);
    rule = unknownRule(type);
  }
  const state = c.tracker.state(s.sessionId, s.partId);
  if (state === 'done') return false;
  if (state === 'evicted') {
    c.tracker.reportLate(s, `an item (${s.phase})`);
    return false;
  }
  const view = itemView(rule, type, rawType, s.item, s.ctx, s.extra);
  const startAt = state === 'none' && s.startedAt !== undefined ? s.startedAt : s.at;
  const where = { sessionId: s.sessionId, partId: s.partId, at: startAt, pos: s.pos };
  if (s.refineOnly && state === 'open') {
    const { rawType: _raw, ...metadata } = view.metadata;
    c.tracker.show(where, s.group, { kind: view.kind, title: view.title, metadata });
  } else {
    c.tracker.show(where, s.group, view);
  }
  if (s.phase === 'completed') finishItem(c, s, itemOutcome(rule, s.item, s.ctx, view.title, s.hints));
  return true;
}

export function finishItem(c: CodexContext, s: Pick<Seen, 'sessionId' | 'partId' | 'at' | 'pos'>, outcome: Outcome): boolean {
  return c.tracker.finish({ sessionId: s.sessionId, partId: s.partId, at: s.at, pos: s.pos }, outcome);
}

/** Ends every open part of a group as interrupted (a turn that stopped under them). */
export function interruptGroup(c: CodexContext, group: string, why: string, at: number | undefined, pos?: InputPosition): number {
  const open = c.tracker.openIn(group);
  for (const p of open) {
    const title = c.tracker.titleOf(p.sessionId, p.partId) ?? 'Tool call';
    c.tracker.finish({ ...p, at, pos }, { ok: false, error: FAILURES.turnEnded(title, why) });
  }
  return open.length;
}
