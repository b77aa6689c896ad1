// The life of one OpenCode tool part as ToolEvents. Every input form (SSE, global SSE, run JSON,
// exports, the messages API) ends here with a ToolPartView; this class turns the sequence of
// views of one `part.id` into started → updated/progress → exactly one completed or failed.
//
// OpenCode states map as: pending → tool.started; running → tool.progress (state running, with
// streamed output); completed → tool.completed; error → tool.failed. Three `completed` states are
// failures here, because the call did not do what was asked: the `invalid` tool (the model asked for
// a tool that does not exist), a bash command that was killed (`exit: null` plus a
// `<shell_metadata>` note) and one that exited non-zero. They keep `metadata.opencodeStatus`.
import type { ApprovalOption, ToolApproval, ToolKind, ToolMetadata } from '../../contract/index.js';
import { BoundedMap, BoundedSet } from '../../collections/bounded.js';
import { OwnedMap } from '../../collections/persistent-map.js';
import type { EventEmitterFor } from '../shared/emit.js';
import type { InputPosition } from '../types.js';
import { describe, MUTABLE_META, type Description } from './describe.js';
import { DENY_RULE, errorCode, nonZeroExit, stoppedCommand } from './errors.js';
import { completedOutput, outputDelta, terminalMetadata } from './output.js';
import { obj, text, type Obj, type RawStatus, type ToolPartView } from './part-view.js';
import { Sessions, type TaskRef } from './sessions.js';
import { SUBSTANCE_KEYS, substanceOf, type Substance } from './substance.js';
import type { ToolNames } from './tool-names.js';

export interface ApplyContext {
  sessionId: string;
  /** The time the transport gives this update (SSE `properties.time`, run `timestamp`). */
  at?: number;
  pos?: InputPosition;
}

interface OpenCall {
  sessionId: string;
  name: string;
  kind: ToolKind;
  title: string;
  inputKey: string;
  metaKeys: Record<string, string>;
  running: boolean;
  /** The last streamed output preview (`state.metadata.output` while running). */
  streamed: string;
  callKey?: string;
  /** The last description and what it was computed from (see `signature`). */
  desc: Description;
  sig: string | undefined;
  /** JSON of the substance last emitted (metadata.files, command, search, plan), by key. */
  substance: Record<string, string>;
  approval?: ToolApproval;
  permissionReply?: string;
}

/**
 * The answers OpenCode's permission API takes (`permission.replied` `reply`, v1 `response`), in
 * ACP's words for what each means.
 */
export const PERMISSION_OPTIONS: readonly ApprovalOption[] = [
  { id: 'once', name: 'Allow once', kind: 'allow_once' },
  { id: 'always', name: 'Always allow', kind: 'allow_always' },
  { id: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** A reply word → the approval's state; a word not here is reported, not guessed. */
const REPLY_STATE: Readonly<Record<string, 'approved' | 'denied'>> = { once: 'approved', always: 'approved', reject: 'denied' };

const TERMINAL: ReadonlySet<RawStatus> = new Set(['completed', 'error']);
/** Calls open at once (pending ones count separately, to the same cap): docs/robustness.md. */
export const MAX_OPEN_CALLS = 10_000;

const keyOf = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

export interface CallsOptions {
  clock: () => number | undefined;
  /** Reads a provider time by the one rule (reporting an unreadable one). */
  time?: (field: string, value: unknown, pos: InputPosition | undefined) => number | undefined;
  cwd?: string;
}

export class Calls {
  /** Calls in flight. An OwnedMap: a Map under this set/delete churn keeps finished calls alive into the old generation (see OwnedMap). */
  private readonly open = new OwnedMap<OpenCall>();
  /**
   * Final raw status of the last 100k–200k finished parts: later copies (sync duplicates, exports,
   * compaction re-sends) are dropped. Bounded so memory stays flat on streams of any length; a
   * copy of a part finished longer ago than that reaches the pipeline, which reports it as late.
   */
  private readonly closed = new BoundedMap<string, RawStatus>(100_000);
  /** Ids of calls forgotten while open (MAX_OPEN_CALLS), the last 100k–200k: what comes for one later is late. */
  private readonly evicted = new BoundedSet<string>(100_000);
  private readonly byCall = new BoundedMap<string, string>(MAX_OPEN_CALLS);
  private readonly byRequest = new BoundedMap<string, string>(MAX_OPEN_CALLS);
  private readonly deferred = new Map<string, { view: ToolPartView; ctx: ApplyContext }>();
  readonly sessions: Sessions;

  constructor(private readonly out: EventEmitterFor, private readonly names: ToolNames, private readonly opts: CallsOptions) {
    this.sessions = new Sessions(
      {
        parent: (sessionId, partId, parentId) => this.out.emit('tool.updated', { sessionId, partId, at: this.opts.clock() }, { metadata: { parentId } }),
        child: (task: TaskRef, childSessionId) => {
          this.ensureStarted(task.partId);
          const call = this.open.get(task.partId);
          if (call) call.metaKeys.childSessionId = keyOf(childSessionId);
          this.out.emit('tool.updated', { sessionId: task.sessionId, partId: task.partId, at: this.opts.clock() }, { metadata: { childSessionId } });
        },
      },
      opts.cwd,
    );
  }

  /** An MCP server named by the input (`mcp.tools.changed`): its tools split from now on. */
  addMcpServer(server: string | undefined): void {
    if (server) this.names.addServer(server);
  }

  private describe(view: ToolPartView, sessionId: string): Description {
    return describe(view, this.names, this.sessions.cwdOf(sessionId));
  }

  apply(view: ToolPartView, ctx: ApplyContext): void {
    const done = this.closed.get(view.id);
    if (done) {
      if (TERMINAL.has(view.status) && view.status !== done) {
        this.out.diagnostic('conflicting_update', `tool part ${view.id} ended ${done} and is now reported ${view.status}; the first final state is kept`, ctx.pos, { partId: view.id });
      }
      return;
    }
    let call = this.open.get(view.id);
    let d: Description;
    if (!call) {
      if (this.evicted.has(view.id)) {
        this.out.diagnostic('late_result', `tool part ${view.id} (${view.status}) arrived after the call was forgotten while still open (more than ${MAX_OPEN_CALLS} calls open at once); it is reported here and not applied`, ctx.pos, { partId: view.id });
        return;
      }
      const waiting = this.deferred.get(view.id);
      if (view.status === 'pending') {
        if (waiting) waiting.view = view;
        else this.defer(view, ctx);
        return;
      }
      if (waiting) {
        this.startDeferredBefore(view.id);
        this.deferred.delete(view.id);
      } else {
        this.flush(); // seen before this one
      }
      const sessionId = waiting?.ctx.sessionId ?? ctx.sessionId;
      d = this.describe(view, sessionId);
      // A call seen pending started then; one seen first in a later state started at its own start time.
      const at = waiting ? waiting.ctx.at ?? waiting.view.start : view.start ?? ctx.at;
      call = this.start(view, ctx, sessionId, d, at);
    } else {
      const sig = signature(view, this.sessions.cwdOf(call.sessionId));
      if (sig !== undefined && sig === call.sig) {
        d = call.desc; // same tool, input, title and cwd: same description, nothing to refine
      } else {
        d = this.describe(view, call.sessionId);
        this.refine(view, ctx, call, d);
        call.desc = d;
        call.sig = sig;
      }
    }
    const sessionId = call.sessionId;
    // After start: linking may emit updates on this very part.
    if (view.tool === 'task') this.sessions.onTask(sessionId, view.id, text(obj(view.input)?.description), d.meta.childSessionId);

    if (view.status === 'running') {
      const preview = text(view.metadata.output);
      const delta = preview !== undefined ? outputDelta(call.streamed, preview) : '';
      if (preview !== undefined) call.streamed = preview;
      if (!call.running || delta) {
        call.running = true;
        this.out.emit('tool.progress', this.env(sessionId, view.id, ctx.at ?? view.start, ctx), delta ? { outputDelta: delta } : {});
      }
    } else if (TERMINAL.has(view.status)) {
      this.finish(view, ctx, call, d, sessionId);
    }
  }

  /**
   * A pending state says only which tool, and the running state follows within milliseconds
   * (docs/providers/opencode.md#tool-parts-and-states), so the part is started once, with its input, when the next state arrives: one
   * event fewer per call. Anything that needs the part earlier, and the end of input, starts it
   * as it was when pending.
   */
  private defer(view: ToolPartView, ctx: ApplyContext): void {
    this.deferred.set(view.id, { view, ctx });
    if (view.messageId && view.callId) this.byCall.set(`${view.messageId}\u0000${view.callId}`, view.id);
    // Parts that stay pending count as open calls too: past the cap the oldest is started as it is.
    if (this.deferred.size > MAX_OPEN_CALLS) {
      const [id, w] = this.deferred.entries().next().value as [string, { view: ToolPartView; ctx: ApplyContext }];
      this.startDeferred(id, w);
    }
  }

  private startDeferred(partId: string, w: { view: ToolPartView; ctx: ApplyContext }): void {
    this.deferred.delete(partId);
    const d = this.describe(w.view, w.ctx.sessionId);
    this.start(w.view, w.ctx, w.ctx.sessionId, d, w.ctx.at ?? w.view.start);
    if (w.view.tool === 'task') this.sessions.onTask(w.ctx.sessionId, partId, undefined, undefined);
  }

  /** Parts deferred before `partId` start first, so parts keep the order OpenCode created them in. */
  private startDeferredBefore(partId: string): void {
    for (const [id, w] of this.deferred) {
      if (id === partId) break;
      this.startDeferred(id, w);
    }
  }

  /** Starts a deferred part now (something refers to it). */
  private ensureStarted(partId: string): void {
    const w = this.deferred.get(partId);
    if (!w) return;
    this.startDeferredBefore(partId);
    this.startDeferred(partId, w);
  }

  /** End of input: every part still pending is started as it is. */
  flush(): void {
    for (const [id, w] of this.deferred) this.startDeferred(id, w);
  }

  private env(sessionId: string, partId: string, at: number | undefined, ctx: { pos?: InputPosition }) {
    return { sessionId, partId, at: at ?? this.opts.clock(), ...(ctx.pos ? { pos: ctx.pos } : {}) };
  }

  private start(view: ToolPartView, ctx: ApplyContext, sessionId: string, d: Description, at: number | undefined): OpenCall {
    const metadata: ToolMetadata = { provider: 'opencode', ...d.meta };
    if (view.callId) metadata.callId = view.callId;
    const cwd = this.sessions.cwdOf(sessionId);
    if (cwd) metadata.cwd = cwd;
    if (view.partMetadata?.providerExecuted === true) metadata.providerExecuted = true;
    const parentId = this.sessions.parentFor(sessionId, view.id);
    if (parentId) metadata.parentId = parentId;
    const substance = substanceOf(view, cwd, TERMINAL.has(view.status));
    Object.assign(metadata, substance);
    this.out.emit('tool.started', this.env(sessionId, view.id, at, ctx), { name: d.name, kind: d.kind, title: d.title, input: d.input, metadata });
    const call: OpenCall = {
      sessionId,
      name: d.name,
      kind: d.kind,
      title: d.title,
      inputKey: keyOf(d.input),
      metaKeys: metaKeysOf(d.meta),
      desc: d,
      sig: signature(view, this.sessions.cwdOf(sessionId)),
      running: false,
      streamed: '',
      substance: keysOf(substance),
    };
    if (view.messageId && view.callId) {
      call.callKey = `${view.messageId}\u0000${view.callId}`;
      this.byCall.set(call.callKey, view.id);
    }
    this.open.set(view.id, call);
    if (this.open.size > MAX_OPEN_CALLS) this.evictOldest(ctx);
    return call;
  }

  /** Past MAX_OPEN_CALLS the call open longest is forgotten; its part keeps its last known state. */
  private evictOldest(ctx: { pos?: InputPosition }): void {
    const [id, oldest] = this.open.entries().next().value as [string, OpenCall];
    this.open.delete(id);
    if (oldest.callKey) this.byCall.delete(oldest.callKey);
    this.evicted.add(id);
    this.out.diagnostic('evicted_call', `call ${id} of session ${oldest.sessionId} was still open when more than ${MAX_OPEN_CALLS} calls were open at once; it is forgotten, its part keeps its last known state, and what comes for it later is reported as late`, ctx.pos, { partId: id });
  }

  private refine(view: ToolPartView, ctx: ApplyContext, call: OpenCall, d: Description): void {
    const body: { name?: string; kind?: ToolKind; title?: string; input?: unknown; metadata?: ToolMetadata } = {};
    if (d.name !== call.name) body.name = call.name = d.name;
    if (d.kind !== call.kind) body.kind = call.kind = d.kind;
    if (d.title !== call.title) body.title = call.title = d.title;
    const inputKey = keyOf(d.input);
    if (inputKey !== call.inputKey) {
      body.input = d.input;
      call.inputKey = inputKey;
    }
    const metadata: ToolMetadata = {};
    for (const k of MUTABLE_META) {
      const v = keyOf(d.meta[k]);
      if (v !== call.metaKeys[k] && d.meta[k] !== undefined) {
        (metadata as Obj)[k] = d.meta[k];
        call.metaKeys[k] = v;
      }
    }
    Object.assign(metadata, changedSubstance(call, substanceOf(view, this.sessions.cwdOf(call.sessionId), false)));
    if (Object.keys(metadata).length) body.metadata = metadata;
    if (Object.keys(body).length) this.out.emit('tool.updated', this.env(call.sessionId, view.id, ctx.at ?? view.start, ctx), body);
  }

  private finish(view: ToolPartView, ctx: ApplyContext, call: OpenCall, d: Description, sessionId: string): void {
    const env = this.env(sessionId, view.id, view.end ?? ctx.at, ctx);
    const ran = view.start !== undefined && view.end !== undefined && view.end >= view.start && !view.neverRan;
    const elapsed = ran ? { elapsedMs: view.end! - view.start! } : {};
    // What the result adds to the call's substance (the real diff, the exit status, the paths found).
    const substance = d.invalid ? {} : changedSubstance(call, substanceOf(view, this.sessions.cwdOf(sessionId), true));
    if (d.invalid) {
      const message = [view.output, view.error, d.invalid.error].find((m) => m?.trim()) ?? `the model called ${d.name}, which could not be run`;
      const details: Obj = {};
      if (d.invalid.tool) details.requestedTool = d.invalid.tool;
      if (d.invalid.error) details.reason = d.invalid.error;
      this.out.emit('tool.failed', env, { error: { message, code: d.invalid.code, ...(Object.keys(details).length ? { details } : {}) }, ...elapsed, ...withMeta(providerStatus(view)) });
    } else if (view.status === 'completed') {
      const stopped = d.kind === 'bash' ? stoppedCommand(view.output, view.metadata) ?? nonZeroExit(view.output, view.metadata) : undefined;
      if (stopped) {
        this.settleApproval(call, env, 'approved');
        this.out.emit('tool.failed', env, {
          error: { message: stopped.message, code: stopped.code, details: { output: view.output, opencodeStatus: 'completed' } },
          ...elapsed,
          ...withMeta({ ...providerStatus(view), ...substance }),
        });
      } else {
        const built = completedOutput(view);
        this.settleApproval(call, env, 'approved');
        this.out.emit('tool.completed', env, { output: built.output, ...elapsed, ...withMeta({ ...built.metadata, ...substance }) });
      }
    } else {
      const message = view.error?.trim() ? view.error : 'the tool call failed without an error message';
      const code = errorCode(message, { metadata: view.metadata, permissionReply: call.permissionReply });
      const details = Object.keys(view.metadata).length ? { details: { metadata: view.metadata } } : {};
      if (code === 'denied') this.denied(call, env, message);
      else this.settleApproval(call, env, 'expired');
      this.out.emit('tool.failed', env, { error: { message, code, ...details }, ...elapsed, ...withMeta({ ...terminalMetadata(view), ...substance }) });
    }
    this.closed.set(view.id, view.status);
    this.open.delete(view.id);
    if (call.callKey) this.byCall.delete(call.callKey);
  }

  /** `permission.asked` (v2) / `permission.updated` (v1): the call waits for the user's answer. */
  permissionAsked(p: Obj, ctx: Omit<ApplyContext, 'sessionId'>): void {
    const tool = obj(p.tool);
    const messageId = text(tool?.messageID) ?? text(p.messageID);
    const callId = text(tool?.callID) ?? text(p.callID);
    const requestId = text(p.id);
    if (!messageId || !callId) return; // not about a tool call (OpenCode also asks for external directories, doom loops)
    const partId = this.byCall.get(`${messageId}\u0000${callId}`);
    if (partId) this.ensureStarted(partId);
    const call = partId ? this.open.get(partId) : undefined;
    if (!partId || !call) {
      this.out.diagnostic('unknown_part', `permission request ${requestId ?? '(no id)'} names tool call ${callId}, which is not an open tool part here`, ctx.pos);
      return;
    }
    if (requestId) this.byRequest.set(requestId, partId);
    // OpenCode asks the person (a rule that says `ask`); a rule that allows or denies asks nobody.
    const approval: ToolApproval = { state: 'pending', source: 'user', options: [...PERMISSION_OPTIONS] };
    const reason = text(p.title); // v1 Permission.title
    if (reason) approval.reason = reason;
    const created = obj(p.time)?.created;
    const at = created === undefined ? undefined : this.opts.time?.('properties.time.created', created, ctx.pos);
    if (at !== undefined) approval.at = at;
    const detail: Obj = {};
    if (requestId) detail.requestId = requestId;
    const permission = text(p.permission) ?? text(p.type);
    if (permission) detail.permission = permission;
    const patterns = Array.isArray(p.patterns) ? p.patterns : p.pattern !== undefined ? [p.pattern].flat() : undefined;
    if (patterns) detail.patterns = patterns;
    if (Array.isArray(p.always) && p.always.length) detail.always = p.always;
    if (Object.keys(detail).length) approval.detail = detail;
    call.approval = approval;
    this.out.emit('tool.approval.requested', this.env(call.sessionId, partId, ctx.at, ctx), { approval });
  }

  /** `permission.replied`: v2 `{requestID, reply}`, v1 `{permissionID, response}`. */
  permissionReplied(p: Obj, ctx: Omit<ApplyContext, 'sessionId'>): void {
    const requestId = text(p.requestID) ?? text(p.permissionID);
    const partId = requestId ? this.byRequest.get(requestId) : undefined;
    if (!requestId || !partId) return; // a request we never tied to a tool call
    this.byRequest.delete(requestId);
    const call = this.open.get(partId);
    if (!call) return;
    const reply = text(p.reply) ?? text(p.response);
    const state = reply !== undefined && Object.hasOwn(REPLY_STATE, reply) ? REPLY_STATE[reply]! : undefined;
    if (!state) {
      this.out.diagnostic('unknown_reply', `permission reply ${JSON.stringify(p.reply ?? p.response)} to request ${requestId} is not one of once, always, reject; the approval stays pending`, ctx.pos, { partId });
      return;
    }
    call.permissionReply = reply;
    this.resolve(call, this.env(call.sessionId, partId, ctx.at, ctx), { state, source: 'user', optionId: reply! });
  }

  private resolve(call: OpenCall, env: ReturnType<Calls['env']>, approval: ToolApproval): void {
    call.approval = approval;
    this.out.emit('tool.approval.resolved', env, { approval });
  }

  /**
   * A call that ends with its approval still pending: it ran (so it was allowed, though no reply
   * was read), or it stopped first and the question was never answered.
   */
  private settleApproval(call: OpenCall, env: ReturnType<Calls['env']>, state: 'approved' | 'expired'): void {
    if (call.approval?.state !== 'pending') return;
    const reason = state === 'approved' ? 'the call ran after the request; no reply was read' : 'the call ended before the request was answered';
    this.resolve(call, env, { state, source: 'opencode', reason });
  }

  /** A call that failed as denied: the reply read, else a deny rule (policy) or the rejection OpenCode reports. */
  private denied(call: OpenCall, env: ReturnType<Calls['env']>, message: string): void {
    if (call.approval && call.approval.state !== 'pending') return;
    const source = DENY_RULE.test(message) ? 'policy' : 'user';
    this.resolve(call, env, { state: 'denied', source, reason: message });
  }

  /** `message.part.removed` for a tool part still open: reported, the part itself stays. */
  partRemoved(partId: string | undefined, ctx: Omit<ApplyContext, 'sessionId'>): void {
    if (partId && (this.open.has(partId) || this.deferred.has(partId))) {
      this.out.diagnostic('part_removed', `OpenCode removed tool part ${partId} before it finished (revert or undo); the part is kept in its last state`, ctx.pos, { partId });
    }
  }
}

/**
 * What a description depends on, for the views whose description depends on nothing else:
 * streamed running updates and the final state usually repeat the same tool, input and title.
 * Task parts (their child comes from metadata and output) and action descriptors are always
 * described afresh.
 */
function signature(view: ToolPartView, cwd: string | undefined): string | undefined {
  if (view.tool === 'task' || view.tool === 'invalid' || view.metadata.actionDescriptor !== undefined) return undefined;
  return `${view.tool}\u0000${view.title ?? ''}\u0000${cwd ?? ''}\u0000${keyOf(view.input)}`;
}

function keysOf(substance: Substance): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const k of SUBSTANCE_KEYS) if (substance[k] !== undefined) keys[k] = keyOf(substance[k]);
  return keys;
}

/** The keys of `next` that differ from what the call last emitted (remembered as emitted). */
function changedSubstance(call: OpenCall, next: Substance): Substance {
  const out: Substance = {};
  for (const k of SUBSTANCE_KEYS) {
    if (next[k] === undefined) continue;
    const key = keyOf(next[k]);
    if (key === call.substance[k]) continue;
    call.substance[k] = key;
    (out as Obj)[k] = next[k];
  }
  return out;
}

function metaKeysOf(meta: ToolMetadata): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const k of MUTABLE_META) keys[k] = keyOf(meta[k]);
  return keys;
}

/** Terminal metadata of a call OpenCode stored as `completed` that failed by the rule: its own status is kept. */
function providerStatus(view: ToolPartView): ToolMetadata {
  return { ...terminalMetadata(view), opencodeStatus: view.status };
}

function withMeta(m: ToolMetadata): { metadata?: ToolMetadata } {
  return Object.keys(m).length ? { metadata: m } : {};
}
