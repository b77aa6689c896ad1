// What the adapter knows about OpenCode sessions: working directory, parent session, and which
// `task` part spawned a child session, so the child's tool calls get `metadata.parentId`.
//
// Links, best first: the task's `state.metadata.sessionId` (running and completed, 1.18.33 and
// REAL Jan 2026), the child id printed in the task output (`<task id="ses_…">`, `session_id:` or
// `task_id:` in older versions), and last the child session's `parentID`: among the parent
// session's task parts without a child, the one whose description starts the child's title
// (`Find txt files (@general subagent)`), or the only one.
import { BoundedMap } from '../../collections/bounded.js';
import { text, type Obj } from './part-view.js';

interface SessionRecord {
  /** `undefined`: not known; `null`: known to be a root session. */
  parent?: string | null;
  cwd?: string;
  title?: string;
}

export interface TaskRef {
  sessionId: string;
  partId: string;
  description?: string;
  child?: string;
}

export interface LinkSink {
  /** A part of `sessionId` now knows the task part it ran under. */
  parent(sessionId: string, partId: string, parentPartId: string): void;
  /** A task part now knows its child session (learnt from the child, not from the task). */
  child(task: TaskRef, childSessionId: string): void;
}

const CHILD_IN_OUTPUT = [/<task id="(ses_[A-Za-z0-9]+)"/, /\bsession_id:\s*(ses_[A-Za-z0-9]+)/, /\btask_id:\s*(ses_[A-Za-z0-9]+)/];

/** The child session a task output names, for versions whose metadata does not. */
export function childSessionInOutput(output: string | undefined): string | undefined {
  if (!output) return undefined;
  for (const re of CHILD_IN_OUTPUT) {
    const m = re.exec(output);
    if (m) return m[1];
  }
  return undefined;
}

const SESSIONS_KEPT = 2_000;
const WAITING_PARTS = 1_000;

export class Sessions {
  // Sessions seen lately, the last 2k–4k (docs/robustness.md): an older session's directory,
  // parent and tasks are no longer known, so its later parts are not linked.
  private readonly records = new BoundedMap<string, SessionRecord>(SESSIONS_KEPT);
  private readonly taskOf = new BoundedMap<string, TaskRef>(SESSIONS_KEPT);
  private readonly tasks = new BoundedMap<string, TaskRef[]>(SESSIONS_KEPT);
  /** Parts of sessions not known to be roots, waiting for the task part that spawned them (at most WAITING_PARTS each). */
  private readonly waiting = new BoundedMap<string, string[]>(SESSIONS_KEPT);

  constructor(private readonly sink: LinkSink, private readonly defaultCwd?: string) {}

  private record(id: string): SessionRecord {
    let r = this.records.get(id);
    if (!r) this.records.set(id, (r = {}));
    return r;
  }

  /** `Session` info from session.created/updated or an export: id, parentID, directory, title. */
  onSession(info: Obj): void {
    const id = text(info.id);
    if (!id) return;
    const r = this.record(id);
    const parent = text(info.parentID);
    r.parent = parent ?? (r.parent === undefined ? null : r.parent);
    const dir = text(info.directory);
    if (dir) r.cwd = dir;
    const title = text(info.title);
    if (title) r.title = title;
    if (r.parent === null) this.waiting.delete(id);
    else this.tryParentLink(id);
  }

  /** A directory seen for a session without its info (message `path.cwd`, global event `directory`). */
  noteCwd(sessionId: string, cwd: string | undefined): void {
    if (!cwd) return;
    const r = this.record(sessionId);
    r.cwd ??= cwd;
  }

  /**
   * Nothing more to learn from this session's info: its cwd and whether it is a root are known,
   * and a child is already linked to its task.
   */
  settled(sessionId: string | undefined): boolean {
    const r = sessionId === undefined ? undefined : this.records.get(sessionId);
    return !!r && !!r.cwd && (r.parent === null || (r.parent !== undefined && this.taskOf.has(sessionId!)));
  }

  cwdOf(sessionId: string): string | undefined {
    const r = this.records.get(sessionId);
    if (r?.cwd) return r.cwd;
    if (r?.parent) return this.records.get(r.parent)?.cwd ?? this.defaultCwd;
    return this.defaultCwd;
  }

  /** A `task` part: remembered for the parentID fallback, linked when its child is known. */
  onTask(sessionId: string, partId: string, description: string | undefined, child: string | undefined): void {
    const list = this.tasks.get(sessionId) ?? [];
    let ref = list.find((t) => t.partId === partId);
    if (!ref) {
      ref = { sessionId, partId };
      list.push(ref);
      this.tasks.set(sessionId, list);
    }
    if (description) ref.description = description;
    if (child && !ref.child && !this.taskOf.has(child)) this.link(child, ref, false);
    else if (!ref.child) for (const [waitingChild] of [...this.waiting.entries()]) this.tryParentLink(waitingChild);
  }

  /** The task part a part of `sessionId` ran under; remembered as waiting when not known yet. */
  parentFor(sessionId: string, partId: string): string | undefined {
    if (this.records.get(sessionId)?.parent === null) return undefined;
    if (!this.taskOf.has(sessionId)) this.tryParentLink(sessionId);
    const task = this.taskOf.get(sessionId);
    if (task) return task.partId;
    const list = this.waiting.get(sessionId) ?? [];
    if (list.length < WAITING_PARTS) list.push(partId);
    this.waiting.set(sessionId, list);
    return undefined;
  }

  private link(child: string, task: TaskRef, fromChild: boolean): void {
    this.taskOf.set(child, task);
    task.child = child;
    if (fromChild) this.sink.child(task, child);
    const parts = this.waiting.get(child);
    this.waiting.delete(child);
    for (const partId of parts ?? []) this.sink.parent(child, partId, task.partId);
  }

  private tryParentLink(child: string): void {
    if (this.taskOf.has(child)) return;
    const r = this.records.get(child);
    if (!r?.parent) return;
    const free = (this.tasks.get(r.parent) ?? []).filter((t) => !t.child);
    const byTitle = r.title ? free.filter((t) => t.description && (r.title === t.description || r.title!.startsWith(`${t.description} (@`))) : [];
    const pick = byTitle.length === 1 ? byTitle[0] : free.length === 1 && free[0]!.description ? free[0] : undefined;
    if (pick) this.link(child, pick, true);
  }
}
