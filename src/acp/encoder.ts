// NormalizedToolPart / PartRecord → ACP v1 `session/update` params. The first frame of a call is
// `tool_call` with everything; later frames are `tool_call_update` with only what changed.
// Everything ACP has no field for rides under `_meta.toolnorm`, so our own frames decode back to
// the same part. Streamed output is sent as throttled tail snapshots, never whole on every delta.
// A part that wrote `metadata.plan` is also followed by a `plan` update with the session's whole
// plan, and a part waiting for an approval (`metadata.approval.state` pending) is `pending`.
import type { AcpSessionUpdateParams, AcpToolCall, AcpToolCallUpdate, AcpToolnormMeta, NormalizedToolPart } from '../contract/index.js';
import { acpPlanEntries, nextPlan, type SessionPlan } from './plan.js';
import { OwnedMap } from '../collections/persistent-map.js';
import { projectPart, type OutputView } from '../events/projector.js';
import type { PartRecord } from '../events/state.js';
import { contentOf, locationsOf } from './content.js';
import { elideErrorMessage, elideOutput, metaPatch, shownText, TERMINAL_KINDS, type Terminal } from './wire.js';
import { ACP_STATUS_OF, acpKindOf } from './kinds.js';
import { sameJson } from './same-json.js';

export type AcpFrame = AcpSessionUpdateParams;

export interface AcpEncoderOptions {
  /** `compressed` sends a compressed summary where one exists (default `full`). */
  output?: OutputView;
  /** Makes relative input paths absolute for `locations` and diffs. */
  cwd?: string;
  /** Characters of streamed output in one progress snapshot (default 8 KiB). */
  snapshotChars?: number;
  /** Minimum new streamed bytes between two snapshots (default 16 KiB)… */
  snapshotEveryBytes?: number;
  /** …or minimum time between two snapshots, by event time (default 1 s). */
  snapshotEveryMs?: number;
  /**
   * The client announced `clientCapabilities._meta.terminal_output`: commands show as display-only
   * `terminal` content, their output in `_meta.terminal_output` and their end in
   * `_meta.terminal_exit` (the convention of claude-agent-acp and codex-acp). Default false.
   */
  terminal?: boolean;
}

/** The complete ACP view of a part; frames are diffs between consecutive views. */
interface View {
  title: string;
  name: string;
  kind: AcpToolCall['kind'];
  status: AcpToolCall['status'];
  content?: AcpToolCall['content'];
  locations?: AcpToolCall['locations'];
  rawInput: unknown;
  rawOutput?: unknown;
  meta: AcpToolnormMeta;
  /** Set for terminal display (the `terminal` option): what the client's terminal shows. */
  terminal?: Terminal;
}

interface Sent {
  view: View;
  snapshotBytes: number;
  snapshotAt?: number;
}

export class AcpEncoder {
  /**
   * What was last sent per part, until the part is final. An OwnedMap, not a Map: under constant
   * set/delete churn a Map's dead hash tables keep these (large) views alive into the old
   * generation; see OwnedMap.
   */
  private readonly sent = new OwnedMap<Sent>();
  private readonly opts: Required<Omit<AcpEncoderOptions, 'cwd'>> & { cwd?: string };
  /** Per session: the plan last sent (ACP clients replace their plan with each `plan` update). */
  private readonly plans = new Map<string, SessionPlan>();

  constructor(options: AcpEncoderOptions = {}) {
    this.opts = {
      output: options.output ?? 'full',
      cwd: options.cwd,
      snapshotChars: options.snapshotChars ?? 8 * 1024,
      snapshotEveryBytes: options.snapshotEveryBytes ?? 16 * 1024,
      snapshotEveryMs: options.snapshotEveryMs ?? 1000,
      terminal: options.terminal ?? false,
    };
  }

  private view(part: NormalizedToolPart, streamedTail?: string): View {
    // The title is the root `title`, and decoding reads it there: not sent twice.
    const meta: AcpToolnormMeta = { toolName: part.name, kind: part.kind, state: part.state };
    if (part.state === 'error') meta.error = part.error;
    if (part.timing) meta.timing = part.timing;
    if (part.metadata) meta.metadata = part.metadata;
    const view: View = {
      title: part.title,
      name: part.name,
      kind: acpKindOf(part),
      status: statusOf(part),
      content: contentOf(part, streamedTail, this.opts.cwd ?? cwdOf(part)),
      locations: locationsOf(part, this.opts.cwd ?? cwdOf(part)),
      rawInput: part.input,
      meta,
    };
    if (part.state === 'complete' && 'output' in part) view.rawOutput = part.output;
    // A failure travels once: in `_meta.toolnorm.error`, its message shown in `content`.
    if (this.opts.terminal && TERMINAL_KINDS.has(part.kind)) {
      // The text the content would show goes to the terminal instead, once.
      const items = view.content ?? [];
      const text = items.length && items[items.length - 1]!.type === 'content' ? items[items.length - 1]! : undefined;
      const data = text && text.type === 'content' && text.content.type === 'text' ? text.content.text : undefined;
      view.content = [...items.filter((i) => i !== text), { type: 'terminal', terminalId: part.id }];
      view.terminal = { ...(data !== undefined ? { data } : {}) };
      if (part.state === 'complete' || part.state === 'error') {
        const code = part.metadata?.command?.exitCode !== undefined ? part.metadata.command.exitCode : part.metadata?.exitCode;
        view.terminal.exit = { terminal_id: part.id, exit_code: code !== undefined ? code : part.state === 'complete' ? 0 : 1, signal: null };
      }
    }
    return view;
  }

  /** `rawOutput` as sent: without the keys whose text the client already shows (see `elided`). */
  private rawOutputOn(update: AcpToolCall | AcpToolCallUpdate, meta: AcpToolnormMeta, v: View): void {
    const { value, elided } = elideOutput(v.rawOutput, shownText(v.content, v.terminal), v.rawInput);
    update.rawOutput = value;
    if (elided.length) (meta.elided ??= []).push(...elided);
  }

  /** `_meta.toolnorm.error` as sent: its message is what `content` shows. */
  private errorOn(meta: AcpToolnormMeta, v: View): void {
    if (!meta.error) return;
    const { error, entry } = elideErrorMessage(meta.error as Record<string, unknown>, shownText(v.content, v.terminal));
    meta.error = error;
    if (entry) (meta.elided ??= []).push(entry);
  }

  /** The terminal extension's `_meta` keys for a frame that goes from `prev` to `v`. */
  private terminalMeta(id: string, prev: View | undefined, v: View): Record<string, unknown> {
    const t = v.terminal;
    if (!t) return {};
    const out: Record<string, unknown> = {};
    if (!prev?.terminal) out.terminal_info = { terminal_id: id };
    if (t.data !== undefined && t.data !== prev?.terminal?.data) out.terminal_output = { terminal_id: id, data: t.data };
    if (t.exit && !prev?.terminal?.exit) out.terminal_exit = t.exit;
    return out;
  }

  private first(sessionId: string, part: NormalizedToolPart, v: View): AcpFrame {
    const update: AcpToolCall = {
      sessionUpdate: 'tool_call',
      toolCallId: part.id,
      title: v.title,
      name: v.name,
      kind: v.kind,
      status: v.status,
      rawInput: v.rawInput,
      _meta: { toolnorm: { ...v.meta }, ...this.terminalMeta(part.id, undefined, v) },
    };
    if (v.content) update.content = v.content;
    if (v.locations) update.locations = v.locations;
    if (v.rawOutput !== undefined) this.rawOutputOn(update, update._meta!.toolnorm!, v);
    this.errorOn(update._meta!.toolnorm!, v);
    return { sessionId, update };
  }

  /** What changed between the view last sent and this one, compared as JSON (see sameJson). */
  private delta(sessionId: string, id: string, prev: View, v: View): AcpFrame | undefined {
    const update: AcpToolCallUpdate = { sessionUpdate: 'tool_call_update', toolCallId: id };
    let changed = false;
    // Fields named one by one, not looped over by key: a load by a variable key from views and
    // metas of several shapes is a slow (megamorphic) lookup, and this runs on every change.
    if (prev.title !== v.title) { update.title = v.title; changed = true; }
    if (prev.name !== v.name) { update.name = v.name; changed = true; }
    if (prev.kind !== v.kind) { update.kind = v.kind; changed = true; }
    if (prev.status !== v.status) { update.status = v.status; changed = true; }
    // ACP replaces content and locations wholesale, so a changed list is resent whole.
    if (!sameJson(prev.content, v.content)) { update.content = v.content ?? []; changed = true; }
    if (!sameJson(prev.locations, v.locations)) { update.locations = v.locations ?? []; changed = true; }
    if (!sameJson(prev.rawInput, v.rawInput)) { update.rawInput = v.rawInput; changed = true; }
    // In the order of the keys of `_meta.toolnorm` (the view's meta has no title and no output:
    // the title is the root one, the output is `rawOutput`).
    const meta: AcpToolnormMeta = {};
    const was = prev.meta;
    const now = v.meta;
    if (now.toolName !== undefined && now.toolName !== was.toolName) meta.toolName = now.toolName;
    if (now.kind !== undefined && now.kind !== was.kind) meta.kind = now.kind;
    if (now.state !== undefined && now.state !== was.state) meta.state = now.state;
    if (now.error !== undefined && !sameJson(was.error, now.error)) meta.error = now.error;
    this.patchOn(meta, 'timing', was.timing, now.timing);
    this.patchOn(meta, 'metadata', was.metadata, now.metadata);
    if (v.rawOutput !== undefined && !sameJson(prev.rawOutput, v.rawOutput)) { this.rawOutputOn(update, meta, v); changed = true; }
    this.errorOn(meta, v);
    const terminal = this.terminalMeta(id, prev, v);
    if (Object.keys(meta).length || Object.keys(terminal).length) {
      update._meta = { ...(Object.keys(meta).length ? { toolnorm: meta } : {}), ...terminal };
      changed = true;
    }
    return changed ? { sessionId, update } : undefined;
  }

  /** `meta[key]`: the changed sub-keys of `next` (decoding merges them into the previous value), or the whole of it, `replaced`. */
  private patchOn(meta: AcpToolnormMeta, key: 'timing' | 'metadata', before: unknown, next: unknown): void {
    if (next === undefined || next === before) return;
    // The patch compares the values key by key, which is most of what sameJson would walk again.
    const patch = metaPatch(before, next);
    if ((before !== undefined && patch ? patchVerdict(patch) : undefined) ?? sameJson(before, next)) return;
    if (patch) (meta as Record<string, unknown>)[key] = patch;
    else { (meta as Record<string, unknown>)[key] = next; (meta.replaced ??= []).push(key); }
  }

  /** Frames for a part that just changed (streaming use: call after every reduced event). */
  onPart(sessionId: string, record: PartRecord): AcpFrame[] {
    const part = projectPart(record, { output: this.opts.output });
    const prev = this.sent.get(record.id);
    let tail: string | undefined;
    let snapshotBytes = prev?.snapshotBytes ?? 0;
    let snapshotAt = prev?.snapshotAt ?? record.startedAt;
    if (record.streamed && (part.state === 'running' || part.state === 'started')) {
      const due = !prev || snapshotBytes === 0 || record.streamed.bytes - snapshotBytes >= this.opts.snapshotEveryBytes || (record.lastAt !== undefined && snapshotAt !== undefined && record.lastAt - snapshotAt >= this.opts.snapshotEveryMs);
      if (due) {
        tail = record.streamed.tail.slice(-this.opts.snapshotChars);
        snapshotBytes = record.streamed.bytes;
        snapshotAt = record.lastAt ?? snapshotAt;
      } else {
        // Not due: keep showing the previous snapshot rather than re-sending.
        tail = prev ? undefined : record.streamed.tail.slice(-this.opts.snapshotChars);
      }
    }
    const v = this.view(part, tail);
    if (tail === undefined && prev && (part.state === 'running' || part.state === 'started')) {
      v.content = prev.view.content;
      if (v.terminal) v.terminal = prev.view.terminal;
    }
    this.sent.set(record.id, { view: v, snapshotBytes, snapshotAt });
    const frame = prev ? this.delta(sessionId, record.id, prev.view, v) : this.first(sessionId, part, v);
    const frames = frame ? [frame] : [];
    return this.withPlan(sessionId, part, frames);
  }

  /**
   * `frames`, then the session's plan when this part changed it. A failed call wrote no plan; a
   * partial plan (only the entries a call touched) is merged into the session's by entry id.
   */
  private withPlan(sessionId: string, part: NormalizedToolPart, frames: AcpFrame[]): AcpFrame[] {
    const plan = part.metadata?.plan;
    if (!plan || part.state === 'error') return frames;
    const next = nextPlan(this.plans.get(sessionId), part.id, plan);
    if (!next) return frames;
    const entries = acpPlanEntries(next.entries);
    const json = JSON.stringify([entries, plan.explanation]);
    this.plans.set(sessionId, { ...next, sent: json });
    if (next.sent === json) return frames;
    const toolnorm = { partId: part.id, ...(plan.explanation ? { explanation: plan.explanation } : {}) };
    return [...frames, { sessionId, update: { sessionUpdate: 'plan', entries, _meta: { toolnorm } } }];
  }

  /** Forget a part that is final (its last frame was already sent by `onPart`). */
  finish(_sessionId: string, record: PartRecord): AcpFrame[] {
    this.sent.delete(record.id);
    return [];
  }

  /**
   * Frames for a finished part in one go: `tool_call` with its identity and input, then one
   * `tool_call_update` with the outcome when the part is past `started`.
   */
  encodePart(sessionId: string, part: NormalizedToolPart): AcpFrame[] {
    const startedView = this.view({ id: part.id, name: part.name, kind: part.kind, title: part.title, input: part.input, state: 'started', ...(part.timing ? { timing: { startedAt: part.timing.startedAt } } : {}), ...(part.metadata ? { metadata: part.metadata } : {}) } as NormalizedToolPart);
    if (part.timing?.startedAt === undefined) delete startedView.meta.timing;
    const frames = [this.first(sessionId, part, startedView)];
    const v = this.view(part);
    const d = this.delta(sessionId, part.id, startedView, v);
    if (d) frames.push(d);
    return this.withPlan(sessionId, part, frames);
  }
}

/** ACP's status; a call still waiting for its approval is `pending` ("awaiting approval", says ACP). */
function statusOf(part: NormalizedToolPart): AcpToolCall['status'] {
  if ((part.state === 'started' || part.state === 'running') && part.metadata?.approval?.state === 'pending') return 'pending';
  return ACP_STATUS_OF[part.state];
}

/**
 * What a patch of a previous value (see metaPatch) proves about the value's JSON: the same when
 * empty (same keys in the same order, each value the same JSON), changed when it has a key JSON
 * writes (one the previous value did not write the same), else nothing (undefined: sameJson decides).
 */
function patchVerdict(patch: Record<string, unknown>): boolean | undefined {
  let same = true;
  for (const k in patch) {
    const x = patch[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') return undefined;
    same = false;
  }
  return same;
}

function cwdOf(part: NormalizedToolPart): string | undefined {
  const cwd = (part.metadata as Record<string, unknown> | undefined)?.cwd;
  return typeof cwd === 'string' ? cwd : undefined;
}

/**
 * Stateless helper: every frame for a list of parts of one session.
 * @contract AcpSessionUpdateParams
 */
export function encodeParts(sessionId: string, parts: readonly NormalizedToolPart[], options: AcpEncoderOptions = {}): AcpFrame[] {
  const encoder = new AcpEncoder(options);
  return parts.flatMap((p) => encoder.encodePart(sessionId, p));
}
