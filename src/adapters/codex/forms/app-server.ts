// App-server v2 JSON-RPC, as a client sees it: item/* notifications and deltas, server requests
// for approval with the client's answers and `serverRequest/resolved`, and turn/*.
//
// Threads: every thread is its own session (session id = thread id), so a sub-agent's calls are
// kept in the session of the thread they ran in and linked to the call that spawned that thread
// (`metadata.parentId`, `metadata.parentThreadId`); the spawning call gets `childSessionId`. When a
// child's calls arrive before the link is known, they are linked by `tool.updated` once it is.
import type { ApprovalOption, ToolApproval, ToolMetadata } from '../../../contract/index.js';
import { lineTitle } from '../../shared/command-title.js';
import type { InputPosition } from '../../types.js';
import { SPAWNING_TOOLS, receiversOf } from '../subagents.js';
import { arr, camel, get, nonEmpty, obj, pathOf, text, type Obj } from '../fields.js';
import { timeField, toEpochMs } from '../../shared/time.js';
import { itemType, type ItemCtx } from '../items.js';
import { finishItem, observeItem, type CodexContext, type Phase } from '../observe.js';
import type { Direction } from './rpc.js';
import { ownKeysOnly } from '../../shared/table.js';
import { FAILURES } from '../errors.js';
import { BoundedMap } from '../../../collections/bounded.js';
import { MAX_OPEN_CALLS } from '../tracker.js';

interface Thread {
  cwd?: string;
  parentThreadId?: string;
  parentPartId?: string;
  /** Parts shown before the thread's parent call was known (not kept for the root thread). */
  unlinked?: string[];
}

interface ServerRequest {
  method: string;
  sessionId: string;
  partId?: string;
  /** The part was started from this request, not from an item. */
  fromRequest: boolean;
}

/** An approval the server asked for: the typed record as last sent, and how the user said no. */
interface Asked {
  approval: ToolApproval;
  refused?: 'declined' | 'cancelled';
}

const ITEM_METHODS: Record<string, Phase> = { 'item/started': 'started', 'item/updated': 'updated', 'item/completed': 'completed' };
ownKeysOnly(ITEM_METHODS);
const OUTPUT_DELTAS = new Set(['item/commandExecution/outputDelta', 'item/fileChange/outputDelta', 'item/plan/delta']);
const APPROVALS: Record<string, string> = {
  'item/commandExecution/requestApproval': 'commandExecution',
  'item/fileChange/requestApproval': 'fileChange',
  'item/permissions/requestApproval': '',
  execCommandApproval: 'commandExecution',
  applyPatchApproval: 'fileChange',
};
ownKeysOnly(APPROVALS);
const SERVER_REQUESTS = new Set([...Object.keys(APPROVALS), 'item/tool/requestUserInput', 'item/tool/call', 'mcpServer/elicitation/request', 'account/chatgptAuthTokens/refresh', 'attestation/generate']);

/** A decision's name: the string, or the key of `{acceptWithExecpolicyAmendment: {…}}`. */
const decisionName = (decision: unknown): string => (typeof decision === 'string' ? decision : Object.keys(obj(decision) ?? {})[0] ?? '');

/** The fields of an approval request kept as its `detail`, besides the request's id and method. */
const REQUEST_DETAIL = ['kind', 'approvalId', 'grantRoot', 'networkApprovalContext', 'proposedExecpolicyAmendment'];

/**
 * How the user answered: accept/acceptForSession/approved… → approved; decline/denied → declined;
 * cancel/abort (no, and stop the turn) → cancelled. Both refusals are a denied approval.
 */
function decisionStatus(decision: unknown): 'approved' | 'declined' | 'cancelled' | 'unknown' {
  const c = camel(decisionName(decision));
  if (c === 'decline' || c === 'denied' || c === 'deny' || c === 'reject') return 'declined';
  if (c === 'cancel' || c === 'abort') return 'cancelled';
  if (c.startsWith('accept') || c.startsWith('approved') || c.startsWith('apply') || c === 'allow') return 'approved';
  return 'unknown';
}

export class AppServerForm {
  // Bounded like every table keyed by input (docs/robustness.md): threads seen lately (2k–4k; an
  // older thread's cwd and parent are no longer known), and requests, approvals and plans of the
  // last 10k–20k calls.
  private readonly threads = new BoundedMap<string, Thread>(2_000);
  private rootThread: string | undefined;
  private lastThread: string | undefined;
  private startCwd: string | undefined;
  private readonly requests = new BoundedMap<string, ServerRequest>(MAX_OPEN_CALLS);
  private readonly approvals = new BoundedMap<string, Asked>(MAX_OPEN_CALLS);
  /** The last `turn/plan/updated` of each turn, to complete its part when the turn ends. */
  private readonly plans = new BoundedMap<string, Obj>(MAX_OPEN_CALLS);

  constructor(private readonly c: CodexContext, private readonly fallbackSession: () => string, private readonly defaultCwd: () => string | undefined) {}

  line(msg: Obj, dir: Direction | undefined, pos: InputPosition): void {
    const method = text(msg.method);
    const hasId = msg.id !== undefined && msg.id !== null;
    const at = this.timeOf(msg, pos);
    if (method && hasId) {
      if (SERVER_REQUESTS.has(method) || dir === 'in') this.serverRequest(method, msg, at, pos);
      else this.clientRequest(method, obj(msg.params) ?? {});
      return;
    }
    if (method) return this.notification(method, obj(msg.params) ?? {}, at, pos);
    this.response(msg, dir, at, pos);
  }

  /** Latest provider time seen (emittedAtMs, startedAtMs, completedAtMs). */
  private lastAt: number | undefined;

  /**
   * The time of a message: its own `emittedAtMs` (0.163+), else the latest provider time seen in the
   * recording (item `startedAtMs`/`completedAtMs`, turn `startedAt`/`completedAt` in seconds)
   * — an undated notification happened at or after it — else the injected clock. Mixing
   * provider times with clock zeros would make nonsense durations.
   */
  private timeOf(msg: Obj, pos: InputPosition): number | undefined {
    const p = obj(msg.params);
    const turn = obj(p?.turn);
    // Every time field is read (and an unreadable one reported) even when an earlier one answers.
    const out = this.c.out;
    const emitted = timeField(out, 'emittedAtMs', msg.emittedAtMs, 'ms', pos);
    const completed = timeField(out, 'params.completedAtMs', p?.completedAtMs, 'ms', pos);
    const started = timeField(out, 'params.startedAtMs', p?.startedAtMs, 'ms', pos);
    const turnEnded = timeField(out, 'params.turn.completedAt', turn?.completedAt, 's', pos);
    const turnStarted = timeField(out, 'params.turn.startedAt', turn?.startedAt, 's', pos);
    const own = emitted ?? completed ?? started ?? turnEnded ?? turnStarted;
    if (own !== undefined) this.lastAt = Math.max(this.lastAt ?? own, own);
    return emitted ?? this.lastAt ?? this.c.now();
  }

  // ---- threads and sessions ----

  private thread(id: string): Thread {
    let t = this.threads.get(id);
    if (!t) {
      t = {};
      this.threads.set(id, t);
      if (this.rootThread === undefined) this.rootThread = id;
      else t.unlinked = [];
    }
    this.lastThread = id;
    return t;
  }

  private registerThread(raw: unknown, cwd?: unknown): void {
    const th = obj(raw);
    const id = th && nonEmpty(th.id);
    if (!th || !id) return;
    const t = this.thread(id);
    t.cwd = pathOf(th.cwd) ?? pathOf(cwd) ?? t.cwd;
    const parent = nonEmpty(get(th, 'parentThreadId'));
    if (parent && !t.parentThreadId) this.link(id, parent, undefined, 0);
  }

  private sessionOf(threadId: unknown): string {
    const id = nonEmpty(threadId) ?? this.lastThread;
    if (!id) return this.fallbackSession();
    this.thread(id);
    return id;
  }

  private ctxOf(sessionId: string): ItemCtx {
    const cwd = this.threads.get(sessionId)?.cwd ?? this.startCwd ?? this.defaultCwd();
    return cwd ? { cwd } : {};
  }

  private parentMeta(sessionId: string): ToolMetadata {
    const t = this.threads.get(sessionId);
    if (!t) return {};
    const m: ToolMetadata = {};
    if (t.parentPartId) m.parentId = t.parentPartId;
    if (t.parentThreadId) m.parentThreadId = t.parentThreadId;
    return m;
  }

  /** Records that `child` runs under `parentPartId` of `parentThread`; links parts already shown. */
  private link(child: string, parentThread: string, parentPartId: string | undefined, at: number | undefined, pos?: InputPosition): void {
    if (child === parentThread) return;
    const t = this.thread(child);
    this.lastThread = parentThread;
    if (t.parentPartId) return;
    t.parentThreadId = parentThread;
    if (!parentPartId) return;
    t.parentPartId = parentPartId;
    const meta = this.parentMeta(child);
    for (const partId of t.unlinked ?? []) this.c.tracker.annotate({ sessionId: child, partId, at, pos }, meta);
    delete t.unlinked;
  }

  // ---- items ----

  private keyOf(sessionId: string, partId: string): string {
    return `${sessionId}\u0000${partId}`;
  }

  private observe(sessionId: string, partId: string, item: Obj, phase: Phase, at: number | undefined, pos: InputPosition): void {
    const asked = this.approvals.get(this.keyOf(sessionId, partId));
    const extra: ToolMetadata = this.parentMeta(sessionId);
    const before = this.c.tracker.state(sessionId, partId);
    if (phase === 'completed' && before === 'open' && asked?.approval.state === 'pending') this.answerFromItem(sessionId, partId, asked, item, at, pos);
    const shown = observeItem(this.c, {
      sessionId,
      group: sessionId,
      partId,
      item,
      phase,
      at,
      pos,
      ctx: this.ctxOf(sessionId),
      extra,
      ...(asked?.refused ? { hints: { refused: asked.refused } } : {}),
    });
    if (!shown) return;
    const t = this.threads.get(sessionId);
    if (before === 'none' && t?.unlinked && t.unlinked.length < MAX_OPEN_CALLS) t.unlinked.push(partId);
    this.learnChildren(sessionId, partId, item, at, pos);
  }

  /** Spawning calls name the threads they create: those threads' calls are linked to them. */
  private learnChildren(sessionId: string, partId: string, item: Obj, at: number | undefined, pos: InputPosition): void {
    const type = itemType(text(item.type) ?? '');
    if (type === 'collabAgentToolCall' && SPAWNING_TOOLS.has(camel(text(item.tool) ?? ''))) {
      for (const child of receiversOf(item)) this.link(child, sessionId, partId, at, pos);
    } else if (type === 'subAgentActivity' && camel(text(item.kind) ?? '') === 'started') {
      const child = nonEmpty(get(item, 'agentThreadId'));
      if (child) this.link(child, sessionId, partId, at, pos);
    }
  }

  private notification(method: string, p: Obj, at: number | undefined, pos: InputPosition): void {
    const phase = ITEM_METHODS[method];
    if (phase) {
      const item = obj(p.item);
      const partId = item && nonEmpty(item.id);
      if (!item || !partId) {
        this.c.out.diagnostic('malformed_event', `${method} without an item id; ignored`, pos);
        return;
      }
      const when = toEpochMs(phase === 'completed' ? get(p, 'completedAtMs') : get(p, 'startedAtMs'), 'ms') ?? at;
      this.observe(this.sessionOf(p.threadId), partId, item, phase, when, pos);
      return;
    }
    const itemId = nonEmpty(get(p, 'itemId'));
    if (OUTPUT_DELTAS.has(method) && itemId) {
      const delta = text(p.delta);
      if (delta) this.progress(this.sessionOf(p.threadId), itemId, { outputDelta: delta }, at, pos, method);
      return;
    }
    switch (method) {
      case 'item/mcpToolCall/progress':
        if (itemId) this.progress(this.sessionOf(p.threadId), itemId, { message: text(p.message) ?? 'working' }, at, pos, method);
        return;
      case 'item/commandExecution/terminalInteraction':
        if (itemId) this.progress(this.sessionOf(p.threadId), itemId, { message: `Input: ${lineTitle(text(p.stdin) ?? '', 80)}` }, at, pos, method);
        return;
      case 'item/fileChange/patchUpdated':
        if (itemId) this.observe(this.sessionOf(p.threadId), itemId, { type: 'fileChange', id: itemId, changes: p.changes ?? [], status: 'inProgress' }, 'updated', at, pos);
        return;
      case 'turn/plan/updated': {
        const turnId = nonEmpty(get(p, 'turnId')) ?? 'turn';
        const sessionId = this.sessionOf(p.threadId);
        const item: Obj = { type: 'turnPlan', id: `${turnId}/plan`, plan: p.plan ?? [], explanation: p.explanation };
        this.plans.set(this.keyOf(sessionId, `${turnId}/plan`), item);
        this.observe(sessionId, `${turnId}/plan`, item, 'updated', at, pos);
        return;
      }
      case 'turn/completed':
        this.turnCompleted(this.sessionOf(p.threadId), obj(p.turn) ?? {}, at, pos);
        return;
      case 'thread/started':
        this.registerThread(p.thread);
        return;
      case 'serverRequest/resolved':
        this.resolved(p.requestId, at, pos);
        return;
      default:
        if (method.startsWith('item/') && !/agentMessage|reasoning|autoApprovalReview/.test(method)) {
          this.c.warnOnce(`rpc:${method}`, 'unknown_event', `app-server notification "${method}" is not known; it may carry tool data and is ignored`, pos);
        } else if (method.startsWith('codex/event/')) {
          this.c.warnOnce('rpc:v1', 'unknown_event', `app-server v1 notifications ("${method}") are not read; record the v2 protocol`, pos);
        }
    }
  }

  private progress(sessionId: string, partId: string, body: { outputDelta?: string; message?: string }, at: number | undefined, pos: InputPosition, method: string): void {
    if (!this.c.tracker.progress({ sessionId, partId, at, pos }, body)) {
      this.c.out.diagnostic('orphan_event', `${method} for item ${partId}, which is not running; ignored`, pos, { partId });
    }
  }

  private turnCompleted(sessionId: string, turn: Obj, at: number | undefined, pos: InputPosition): void {
    const status = camel(text(turn.status) ?? 'completed');
    // `turn.completedAt` is in seconds: only used when it is later than what the recording showed.
    const ended = toEpochMs(turn.completedAt, 's');
    const when = ended !== undefined && (at === undefined || ended > at) ? ended : at;
    // A full item list is authoritative: it closes what is still open, with the items' final state.
    for (const raw of arr(turn.items) ?? []) {
      const item = obj(raw);
      const id = item && nonEmpty(item.id);
      if (item && id && this.c.tracker.state(sessionId, id) === 'open') this.observe(sessionId, id, item, 'completed', when, pos);
    }
    // The turn's plan ends with the turn (exec closes its todo_list the same way), whatever the status.
    const turnId = nonEmpty(turn.id);
    const planKey = turnId && this.keyOf(sessionId, `${turnId}/plan`);
    const plan = planKey ? this.plans.get(planKey) : undefined;
    if (planKey && plan) {
      this.plans.delete(planKey);
      this.observe(sessionId, `${turnId}/plan`, plan, 'completed', when, pos);
    }
    const open = this.c.tracker.openIn(sessionId);
    if (!open.length) return;
    const error = nonEmpty(obj(turn.error)?.message);
    for (const p of open) {
      const asked = this.approvals.get(this.keyOf(p.sessionId, p.partId));
      const title = this.c.tracker.titleOf(p.sessionId, p.partId) ?? 'Tool call';
      const where = { ...p, at: when, pos };
      // Still unanswered when its turn ended: nobody will answer it now.
      if (asked?.approval.state === 'pending') this.answer(where, asked, { state: 'expired', source: 'user' });
      if (asked?.refused) {
        finishItem(this.c, where, { ok: false, error: FAILURES.denied(title, asked.refused === 'cancelled') });
      } else if (status === 'interrupted') {
        finishItem(this.c, where, { ok: false, error: FAILURES.turnInterrupted(title) });
      } else if (status === 'failed') {
        finishItem(this.c, where, { ok: false, error: FAILURES.turnFailed(title, error) });
      } else {
        this.c.out.diagnostic('unfinished_item', `turn ended (${status}) while ${p.partId} was still running; it is left open`, pos, { partId: p.partId });
      }
    }
  }

  // ---- requests and responses ----

  private clientRequest(method: string, p: Obj): void {
    if (method === 'thread/start' || method === 'thread/resume' || method === 'thread/fork') {
      const cwd = pathOf(p.cwd);
      if (cwd) this.startCwd = cwd;
    }
  }

  private serverRequest(method: string, msg: Obj, at: number | undefined, pos: InputPosition): void {
    const p = obj(msg.params) ?? {};
    const requestId = String(msg.id);
    const sessionId = this.sessionOf(p.threadId ?? p.conversationId);
    const partId = nonEmpty(get(p, 'itemId')) ?? nonEmpty(get(p, 'callId'));
    if (method in APPROVALS) {
      this.requests.set(requestId, { method, sessionId, ...(partId ? { partId } : {}), fromRequest: false });
      if (!partId) return;
      const approval = requestedApproval(msg.id, method, p, at);
      const asked: Asked = { approval };
      this.approvals.set(this.keyOf(sessionId, partId), asked);
      const state = this.c.tracker.state(sessionId, partId);
      const type = APPROVALS[method];
      if (state === 'none' && type) {
        // Asked before the item started (or the item never comes): start it from the request.
        const pseudo: Obj = type === 'commandExecution'
          ? { type, id: partId, command: p.command ?? '', cwd: p.cwd, commandActions: get(p, 'commandActions') ?? get(p, 'parsedCmd'), status: 'inProgress' }
          : { type, id: partId, changes: get(p, 'fileChanges') ?? p.changes ?? [], status: 'inProgress' };
        this.observe(sessionId, partId, pseudo, 'started', at, pos);
        this.requests.get(requestId)!.fromRequest = true;
      }
      if (!this.c.tracker.approval({ sessionId, partId, at, pos }, 'tool.approval.requested', approval) && this.c.tracker.state(sessionId, partId) === 'done') {
        this.c.out.diagnostic('late_event', `${method} for ${partId}, which already ended; ignored`, pos, { partId });
      }
      return;
    }
    if (method === 'item/tool/requestUserInput') {
      const id = partId ?? `request-${requestId}`;
      this.requests.set(requestId, { method, sessionId, partId: id, fromRequest: true });
      this.observe(sessionId, id, { type: 'requestUserInput', id, questions: p.questions ?? [] }, 'started', at, pos);
      return;
    }
    if (method === 'item/tool/call') {
      const id = partId ?? `request-${requestId}`;
      const fresh = this.c.tracker.state(sessionId, id) === 'none';
      this.requests.set(requestId, { method, sessionId, partId: id, fromRequest: fresh });
      if (fresh) this.observe(sessionId, id, { type: 'dynamicToolCall', id, tool: p.tool, namespace: p.namespace, arguments: p.arguments, status: 'inProgress' }, 'started', at, pos);
    }
  }

  private response(msg: Obj, dir: Direction | undefined, at: number | undefined, pos: InputPosition): void {
    const result = obj(msg.result);
    const req = this.requests.get(String(msg.id));
    const answers = req && dir !== 'in' && (dir === 'out' || this.fits(req.method, result, msg.error));
    if (!answers) {
      if (result?.thread) this.registerThread(result.thread, result.cwd);
      return;
    }
    const { sessionId, partId } = req!;
    if (!partId) return;
    const where = { sessionId, partId, at, pos };
    if (req!.method in APPROVALS) {
      const key = this.keyOf(sessionId, partId);
      let asked = this.approvals.get(key);
      if (!asked) this.approvals.set(key, (asked = { approval: { state: 'pending', source: 'user', detail: { requestId: msg.id, method: req!.method } } }));
      if (!result) {
        // The client answered with a JSON-RPC error: no decision was made.
        const why = nonEmpty(obj(msg.error)?.message) ?? 'error';
        this.answer(where, asked, { state: 'expired', source: 'user', detail: { error: why } });
        return;
      }
      const status = decisionStatus(result.decision);
      if (status === 'unknown') {
        this.c.out.diagnostic('unknown_decision', `approval decision ${JSON.stringify(result.decision)} for ${partId} is not known; the approval stays pending`, pos, { partId });
        return;
      }
      if (status !== 'approved') asked.refused = status;
      const name = decisionName(result.decision);
      this.answer(where, asked, { state: status === 'approved' ? 'approved' : 'denied', source: 'user', ...(name ? { optionId: name } : {}), detail: { decision: result.decision } });
      return;
    }
    if (req!.method === 'item/tool/requestUserInput') {
      if (result) finishItem(this.c, where, { ok: true, output: { structured: result } });
      else finishItem(this.c, where, { ok: false, error: FAILURES.unanswered(nonEmpty(obj(msg.error)?.message) ?? 'the client did not answer') });
      this.requests.delete(String(msg.id));
      return;
    }
    // A dynamic tool call the client ran: only ends the part when no item reports it.
    if (req!.method === 'item/tool/call' && req!.fromRequest) {
      const item: Obj = { type: 'dynamicToolCall', id: partId, ...(result ?? {}), status: result ? (result.success === false ? 'failed' : 'completed') : 'failed' };
      this.observe(sessionId, partId, item, 'completed', at, pos);
      this.requests.delete(String(msg.id));
    }
  }

  /** Without a recorded direction: does this response look like the answer to that request? */
  private fits(method: string, result: Obj | undefined, error: unknown): boolean {
    if (error !== undefined) return true;
    if (!result) return false;
    if (method in APPROVALS) return 'decision' in result;
    if (method === 'item/tool/call') return 'contentItems' in result || 'success' in result;
    if (method === 'item/tool/requestUserInput') return 'answers' in result;
    return false;
  }

  /**
   * `serverRequest/resolved`: the server no longer waits for the answer. The answer itself is the
   * client's response (or, when the recording lacks it, the item's final status): nothing to apply.
   */
  private resolved(requestId: unknown, _at: number | undefined, _pos: InputPosition): void {
    this.requests.delete(String(requestId));
  }

  /** Sends the answer of an approval (tool.approval.resolved) and keeps it as the approval's state. */
  private answer(where: { sessionId: string; partId: string; at: number | undefined; pos?: InputPosition }, asked: Asked, approval: ToolApproval): void {
    const next: ToolApproval = where.at !== undefined ? { ...approval, at: where.at } : approval;
    asked.approval = next;
    this.c.tracker.approval(where, 'tool.approval.resolved', next);
  }

  /**
   * An item ended while its approval had no recorded answer (a recording of the server side only):
   * the item's status says what the answer was. Declined: denied. It ran: approved. It never got
   * to run (interrupted): the approval expired. `detail.itemStatus` says the answer was read so.
   */
  private answerFromItem(sessionId: string, partId: string, asked: Asked, item: Obj, at: number | undefined, pos: InputPosition): void {
    const status = camel(text(item.status) ?? 'completed');
    const where = { sessionId, partId, at, pos };
    if (status === 'declined') {
      asked.refused = 'declined';
      this.answer(where, asked, { state: 'denied', source: 'user', detail: { itemStatus: status } });
    } else if (status === 'interrupted' || status === 'inProgress') {
      this.answer(where, asked, { state: 'expired', source: 'user', detail: { itemStatus: status } });
    } else {
      this.answer(where, asked, { state: 'approved', source: 'user', detail: { itemStatus: status } });
    }
  }
}

/** The pending approval of a server request: its reason, the answers it offers, the rest as detail. */
function requestedApproval(requestId: unknown, method: string, p: Obj, at: number | undefined): ToolApproval {
  const detail: Record<string, unknown> = { requestId, method };
  for (const k of REQUEST_DETAIL) {
    const v = get(p, k);
    if (v !== undefined) detail[k] = v;
  }
  const approval: ToolApproval = { state: 'pending', source: 'user', detail };
  const reason = nonEmpty(p.reason);
  if (reason) approval.reason = reason;
  if (at !== undefined) approval.at = at;
  const options = (arr(get(p, 'availableDecisions')) ?? []).map(decisionName).filter((id) => id !== '').map((id): ApprovalOption => ({ id }));
  if (options.length) approval.options = options;
  return approval;
}
