// The lifecycle bookkeeping shared by the three Codex input forms: it turns "here is what the item
// looks like now" into exactly one tool.started, tool.updated for what changed, and exactly one
// terminal event per part. Terminal parts keep only their key, so memory stays small.
import type { ToolApproval, ToolError, ToolKind, ToolMetadata } from '../../contract/index.js';
import type { EventEmitterFor } from '../shared/emit.js';
import type { InputPosition } from '../types.js';
import { BoundedSet } from '../../collections/bounded.js';

export interface View {
  name: string;
  kind: ToolKind;
  title: string;
  input: unknown;
  metadata: ToolMetadata;
}

export type Outcome =
  | { ok: true; output?: unknown; elapsedMs?: number; metadata?: ToolMetadata }
  | { ok: false; error: ToolError; elapsedMs?: number; metadata?: ToolMetadata };

export interface Where {
  sessionId: string;
  partId: string;
  at: number | undefined;
  pos?: InputPosition;
}

interface Live {
  sessionId: string;
  partId: string;
  group: string;
  name: string;
  kind: ToolKind;
  title: string;
  /** What was sent, compared (as JSON) only when a refinement brings a new value. */
  input: unknown;
  meta: ToolMetadata;
}

const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/**
 * Caps (docs/robustness.md). Open parts, all sessions together: past MAX_OPEN_CALLS the one open
 * longest is forgotten with an `evicted_call` warning (its part keeps its last known state), and
 * what comes for it later is reported as late. Ended part ids are kept for the last 10k–20k, so a
 * late item does not reopen its part; ids of parts forgotten while open for the last 100k–200k.
 */
export const MAX_OPEN_CALLS = 10_000;
const DONE_WINDOW = 10_000;
const EVICTED_WINDOW = 100_000;

const keyOf = (sessionId: string, partId: string) => `${sessionId}\u0000${partId}`;

export class PartTracker {
  // Open parts per session, then per part id: no composite string key to build and hash on the
  // lookups of every item line. A session's map goes when its last open part does.
  private readonly sessions = new Map<string, Map<string, Live>>();
  private readonly groups = new Map<string, Set<Live>>();
  /** Every open part, oldest first (a Set keeps insertion order): the eviction order. */
  private readonly open = new Set<Live>();
  private readonly done = new BoundedSet<string>(DONE_WINDOW);
  private readonly evicted = new BoundedSet<string>(EVICTED_WINDOW);

  constructor(private readonly out: EventEmitterFor) {}

  private live(sessionId: string, partId: string): Live | undefined {
    return this.sessions.get(sessionId)?.get(partId);
  }

  state(sessionId: string, partId: string): 'none' | 'open' | 'done' | 'evicted' {
    if (this.live(sessionId, partId)) return 'open';
    const key = keyOf(sessionId, partId);
    return this.done.has(key) ? 'done' : this.evicted.has(key) ? 'evicted' : 'none';
  }

  /** What came for a part forgotten while open: one late_result, never "not in the input". */
  reportLate(w: Where, what: string): void {
    this.out.diagnostic('late_result', `${what} for ${w.partId} arrived after the call was forgotten while still open (more than ${MAX_OPEN_CALLS} calls open at once); it is reported here and not applied`, w.pos, { partId: w.partId });
  }

  private drop(cur: Live): void {
    const parts = this.sessions.get(cur.sessionId)!;
    parts.delete(cur.partId);
    if (parts.size === 0) this.sessions.delete(cur.sessionId);
    const members = this.groups.get(cur.group);
    if (members) {
      members.delete(cur);
      if (members.size === 0) this.groups.delete(cur.group);
    }
    this.open.delete(cur);
  }

  private evictOldest(pos: InputPosition | undefined): void {
    const oldest = this.open.values().next().value as Live;
    this.drop(oldest);
    this.evicted.add(keyOf(oldest.sessionId, oldest.partId));
    this.out.diagnostic('evicted_call', `call ${oldest.partId} of session ${oldest.sessionId} was still open when more than ${MAX_OPEN_CALLS} calls were open at once; it is forgotten, its part keeps its last known state, and what comes for it later is reported as late`, pos, { partId: oldest.partId });
  }

  /**
   * Starts the part, or refines it with what changed. `group` is the unit a turn end closes (a
   * thread). Returns false when the part already ended: a terminal part is not reopened.
   */
  show(w: Where, group: string, view: View): boolean;
  show(w: Where, group: string, view: Partial<View>): boolean;
  show(w: Where, group: string, view: Partial<View>): boolean {
    const env = { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos };
    const cur = this.live(w.sessionId, w.partId);
    if (!cur) {
      const state = this.state(w.sessionId, w.partId);
      if (state === 'evicted') this.reportLate(w, 'an item');
      if (state !== 'none') return false;
      const name = view.name ?? 'unknown';
      const kind = view.kind ?? 'unknown';
      const title = view.title ?? `Running ${name}`;
      const input = view.input ?? {};
      const metadata = view.metadata ?? {};
      const live: Live = { sessionId: w.sessionId, partId: w.partId, group, name, kind, title, input, meta: { ...metadata } };
      let parts = this.sessions.get(w.sessionId);
      if (!parts) this.sessions.set(w.sessionId, (parts = new Map()));
      parts.set(w.partId, live);
      this.open.add(live);
      let members = this.groups.get(group);
      if (!members) this.groups.set(group, (members = new Set()));
      members.add(live);
      this.out.emit('tool.started', env, { name, kind, title, input, metadata });
      if (this.open.size > MAX_OPEN_CALLS) this.evictOldest(w.pos);
      return true;
    }
    const body: { name?: string; kind?: ToolKind; title?: string; input?: unknown; metadata?: ToolMetadata } = {};
    if (view.name !== undefined && view.name !== cur.name) body.name = cur.name = view.name;
    if (view.kind !== undefined && view.kind !== cur.kind) body.kind = cur.kind = view.kind;
    if (view.title !== undefined && view.title !== cur.title) body.title = cur.title = view.title;
    if (view.input !== undefined && view.input !== cur.input && json(view.input) !== json(cur.input)) {
      cur.input = view.input;
      body.input = view.input;
    }
    if (view.metadata) {
      const changed = this.changedMeta(cur, view.metadata);
      if (changed) body.metadata = changed;
    }
    if (Object.keys(body).length) this.out.emit('tool.updated', env, body);
    return true;
  }

  private changedMeta(cur: Live, metadata: ToolMetadata): ToolMetadata | undefined {
    let changed: ToolMetadata | undefined;
    for (const [mk, v] of Object.entries(metadata)) {
      if (v === undefined) continue;
      const before = cur.meta[mk];
      if (before === v || (typeof v === 'object' && json(before) === json(v))) continue;
      cur.meta[mk] = v;
      (changed ??= {})[mk] = v;
    }
    return changed;
  }

  /** Metadata only, on an open or ended part (e.g. an approval resolved after the item ended). */
  annotate(w: Where, metadata: ToolMetadata): boolean {
    const cur = this.live(w.sessionId, w.partId);
    if (cur) return this.show(w, cur.group, { metadata });
    const state = this.state(w.sessionId, w.partId);
    if (state === 'evicted') this.reportLate(w, 'metadata');
    if (state !== 'done') return state === 'evicted';
    this.out.emit('tool.updated', { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos }, { metadata });
    return true;
  }

  /**
   * An approval asked for (the part must be open: an ended call waits for nothing) or answered
   * (open or ended: a denial may be reported with, or after, the failure). False when there is no
   * such part to carry it.
   */
  approval(w: Where, type: 'tool.approval.requested' | 'tool.approval.resolved', approval: ToolApproval): boolean {
    const cur = this.live(w.sessionId, w.partId);
    const state = cur ? 'open' : this.state(w.sessionId, w.partId);
    if (state === 'evicted') this.reportLate(w, 'an approval');
    if (state !== 'open' && (state !== 'done' || type === 'tool.approval.requested')) return state === 'evicted';
    if (cur) cur.meta.approval = approval;
    this.out.emit(type, { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos }, { approval });
    return true;
  }

  /** Running / streamed output. False when the part is not open. */
  progress(w: Where, body: { message?: string; outputDelta?: string; elapsedMs?: number; metadata?: ToolMetadata }): boolean {
    if (!this.live(w.sessionId, w.partId)) {
      if (this.state(w.sessionId, w.partId) !== 'evicted') return false;
      this.reportLate(w, 'output');
      return true;
    }
    this.out.emit('tool.progress', { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos }, body);
    return true;
  }

  /** The one terminal event. False when the part is not open (never started, or already ended). */
  finish(w: Where, outcome: Outcome): boolean {
    const cur = this.live(w.sessionId, w.partId);
    if (!cur) {
      if (this.state(w.sessionId, w.partId) === 'evicted') this.reportLate(w, 'the result');
      return false;
    }
    this.drop(cur);
    this.done.add(keyOf(w.sessionId, w.partId));
    const env = { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos };
    // Bodies built field by field in one order (no spreads of optional pieces): fewer object shapes.
    const hasMeta = outcome.metadata !== undefined && Object.keys(outcome.metadata).length !== 0;
    if (outcome.ok) {
      const body: { output?: unknown; elapsedMs?: number; metadata?: ToolMetadata } = {};
      if (outcome.output !== undefined) body.output = outcome.output;
      if (outcome.elapsedMs !== undefined) body.elapsedMs = outcome.elapsedMs;
      if (hasMeta) body.metadata = outcome.metadata;
      this.out.emit('tool.completed', env, body);
    } else {
      const body: { error: ToolError; elapsedMs?: number; metadata?: ToolMetadata } = { error: outcome.error };
      if (outcome.elapsedMs !== undefined) body.elapsedMs = outcome.elapsedMs;
      if (hasMeta) body.metadata = outcome.metadata;
      this.out.emit('tool.failed', env, body);
    }
    return true;
  }

  /** Parts still open in a group, in start order. */
  openIn(group: string): { sessionId: string; partId: string }[] {
    const members = this.groups.get(group);
    if (!members) return [];
    return [...members].map((l) => ({ sessionId: l.sessionId, partId: l.partId }));
  }

  /** Title of an open part (used to word the error of an interrupted call). */
  titleOf(sessionId: string, partId: string): string | undefined {
    return this.live(sessionId, partId)?.title;
  }
}
