// The lifecycle bookkeeping shared by the three Codex input forms: it turns "here is what the item
// looks like now" into exactly one tool.started, tool.updated for what changed, and exactly one
// terminal event per part. Terminal parts keep only their key, so memory stays small.
import type { ToolError, ToolKind, ToolMetadata } from '../../contract/index.js';
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
 * Ended part ids kept per session, so a late item does not reopen its part: the most recent
 * 100k–200k, which keeps memory flat on inputs of any size.
 */
const DONE_WINDOW = 100_000;

interface SessionParts {
  live: Map<string, Live>;
  done: BoundedSet<string>;
}

export class PartTracker {
  // Per session, then per part id: no composite string key to build and hash on every lookup.
  private readonly sessions = new Map<string, SessionParts>();
  private readonly groups = new Map<string, Set<Live>>();

  constructor(private readonly out: EventEmitterFor) {}

  private parts(sessionId: string): SessionParts {
    let p = this.sessions.get(sessionId);
    if (!p) this.sessions.set(sessionId, (p = { live: new Map(), done: new BoundedSet(DONE_WINDOW) }));
    return p;
  }

  state(sessionId: string, partId: string): 'none' | 'open' | 'done' {
    const p = this.parts(sessionId);
    return p.live.has(partId) ? 'open' : p.done.has(partId) ? 'done' : 'none';
  }

  /**
   * Starts the part, or refines it with what changed. `group` is the unit a turn end closes (a
   * thread). Returns false when the part already ended: a terminal part is not reopened.
   */
  show(w: Where, group: string, view: View): boolean;
  show(w: Where, group: string, view: Partial<View>): boolean;
  show(w: Where, group: string, view: Partial<View>): boolean {
    const parts = this.parts(w.sessionId);
    if (parts.done.has(w.partId)) return false;
    const env = { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos };
    const cur = parts.live.get(w.partId);
    if (!cur) {
      const name = view.name ?? 'unknown';
      const kind = view.kind ?? 'unknown';
      const title = view.title ?? `Running ${name}`;
      const input = view.input ?? {};
      const metadata = view.metadata ?? {};
      const live: Live = { sessionId: w.sessionId, partId: w.partId, group, name, kind, title, input, meta: { ...metadata } };
      parts.live.set(w.partId, live);
      let members = this.groups.get(group);
      if (!members) this.groups.set(group, (members = new Set()));
      members.add(live);
      this.out.emit('tool.started', env, { name, kind, title, input, metadata });
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
    const parts = this.parts(w.sessionId);
    const cur = parts.live.get(w.partId);
    if (cur) return this.show(w, cur.group, { metadata });
    if (!parts.done.has(w.partId)) return false;
    this.out.emit('tool.updated', { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos }, { metadata });
    return true;
  }

  /** Running / streamed output. False when the part is not open. */
  progress(w: Where, body: { message?: string; outputDelta?: string; elapsedMs?: number; metadata?: ToolMetadata }): boolean {
    if (!this.parts(w.sessionId).live.has(w.partId)) return false;
    this.out.emit('tool.progress', { sessionId: w.sessionId, partId: w.partId, at: w.at, pos: w.pos }, body);
    return true;
  }

  /** The one terminal event. False when the part is not open (never started, or already ended). */
  finish(w: Where, outcome: Outcome): boolean {
    const parts = this.parts(w.sessionId);
    const cur = parts.live.get(w.partId);
    if (!cur) return false;
    parts.live.delete(w.partId);
    this.groups.get(cur.group)?.delete(cur);
    parts.done.add(w.partId);
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
    return this.sessions.get(sessionId)?.live.get(partId)?.title;
  }
}
