// ACP v2 (draft) output. The v1 encoder decides what each frame says; this translates its frames
// into the v2 shapes, one tool call at a time: every frame is a `tool_call_update` upsert, a
// cancellation is `cancelled`, a diff is `{changes, patch}`, v1's `plan` is a `plan_update` (its
// cancelled entries cancelled again), and display terminals are v2's own `terminal_update` instead of v1's `_meta.terminal_*`.
// v2 patches `_meta` by top-level key without merging nested objects, so `_meta.toolnorm` is
// always sent whole (v1 sends only its changed keys).
import type { NormalizedToolPart } from '../contract/index.js';
import { obj, type Obj } from '../fields.js';
import { AcpEncoder, type AcpEncoderOptions, type AcpFrame } from './encoder.js';
import { gitPatch } from './git-patch.js';
import { sameJson } from './same-json.js';
import { mergeToolnorm } from './wire.js';

/** A v2 `session/update` params object (`UpdateSessionNotification` of schema/v2). */
export interface AcpV2Frame {
  sessionId: string;
  update: { sessionUpdate: string } & Obj;
}

/** toolnorm error codes that mean the call was stopped, not that it failed: v2 `cancelled`. */
export const CANCELLED_CODES: ReadonlySet<string> = new Set(['cancelled', 'interrupted']);

/** What was sent for one call: v2 clients keep the whole `_meta.toolnorm` we last sent. */
interface CallState {
  toolnorm: Obj;
  /** `elided` entries of the rawOutput / the error now stored (both live in `toolnorm.elided`). */
  outputElided: string[];
  errorElided: string[];
  /** The `_meta.toolnorm` last sent, which the client stores. */
  sent?: Obj;
  terminal?: { output?: string; exited?: boolean };
}

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]|^\\\\/.test(p);

/** A v1 diff item as v2's `{changes, patch}`: the change says what happened to which file. */
function diffV2(item: Obj): Obj {
  const path = String(item.path);
  const oldText = typeof item.oldText === 'string' ? item.oldText : null;
  const newText = String(item.newText);
  const change = { operation: oldText === null ? 'add' : 'modify', path };
  const out: Obj = { type: 'diff', changes: [change] };
  const text = isAbsolute(path) ? gitPatch(path, oldText, newText) : undefined;
  if (text !== undefined) out.patch = { format: 'git_patch', text };
  if (item._meta !== undefined) out._meta = item._meta;
  return out;
}

const contentV2 = (content: unknown): unknown => (Array.isArray(content) ? content.map((c) => (obj(c)?.type === 'diff' ? diffV2(obj(c)!) : c)) : content);

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * Translates the v1 frames of one session (or several: calls are keyed by session and id) into
 * v2 frames. Stateful per call until `finish`.
 */
export class AcpV2Translator {
  private readonly calls = new Map<string, CallState>();

  translate(frame: AcpFrame): AcpV2Frame[] {
    const { sessionId } = frame;
    if (frame.update.sessionUpdate === 'plan') return [planUpdate(sessionId, frame.update)];
    const v1 = frame.update as unknown as Obj;
    const id = String(v1.toolCallId);
    const key = `${sessionId}\u0000${id}`;
    let call = this.calls.get(key);
    if (!call) this.calls.set(key, (call = { toolnorm: {}, outputElided: [], errorElided: [] }));
    const out: AcpV2Frame[] = [];
    const update: Obj = { sessionUpdate: 'tool_call_update' };
    const meta = { ...(obj(v1._meta) ?? {}) };
    const incoming = obj(meta.toolnorm);
    delete meta.toolnorm;
    for (const [k, v] of Object.entries(v1)) {
      if (k === 'sessionUpdate' || k === '_meta') continue;
      update[k] = k === 'content' ? contentV2(v) : v;
    }
    // The whole toolnorm value a v2 client now stores, markers included (they describe the stored
    // rawOutput and error, which v2 clients keep until replaced).
    if (incoming) {
      const elided = Array.isArray(incoming.elided) ? (incoming.elided as string[]) : [];
      if ('rawOutput' in v1 || 'elided' in incoming) call.outputElided = elided.filter((e) => !e.startsWith('error.'));
      if ('error' in incoming) call.errorElided = elided.filter((e) => e.startsWith('error.'));
      const { elided: _e, replaced: _r, ...rest } = incoming;
      const merged = mergeToolnorm(call.toolnorm, rest);
      // `replaced` values came whole: they replace instead of merging.
      for (const k of Array.isArray(incoming.replaced) ? (incoming.replaced as string[]) : []) merged[k] = rest[k];
      delete merged.elided;
      delete merged.replaced;
      call.toolnorm = merged;
    } else if ('rawOutput' in v1) call.outputElided = [];
    // v2 reads `null` as "clear the field": a null input or output travels in `_meta.toolnorm`.
    for (const [field, key] of [['rawInput', 'input'], ['rawOutput', 'output']] as const) {
      if (!(field in update)) continue;
      if (update[field] === null) {
        delete update[field];
        call.toolnorm[key] = null;
      } else if (key in call.toolnorm && call.toolnorm[key] === null) delete call.toolnorm[key];
    }
    const markers = [...call.outputElided, ...call.errorElided];
    const toolnorm = markers.length ? { ...call.toolnorm, elided: markers } : { ...call.toolnorm };
    // Sent whole whenever it differs from what the client stores.
    if (!sameJson(toolnorm, call.sent)) meta.toolnorm = toolnorm;
    call.sent = toolnorm;
    // Cancelled, not failed, when the reason says the call was stopped.
    const error = obj(call.toolnorm.error);
    if (update.status === 'failed' && typeof error?.code === 'string' && CANCELLED_CODES.has(error.code)) update.status = 'cancelled';

    const terminal = this.terminalFrames(sessionId, call, meta, update, commandOf(call.toolnorm));
    if (Object.keys(meta).length) update._meta = meta;
    out.push({ sessionId, update: { sessionUpdate: 'tool_call_update', ...withoutKey(update, 'sessionUpdate') } as AcpV2Frame['update'] }, ...terminal);
    return out;
  }

  /** v1's display-terminal `_meta` keys as v2 `terminal_update`s (sent after the call frame that shows them). */
  private terminalFrames(sessionId: string, call: CallState, meta: Obj, update: Obj, command: string | undefined): AcpV2Frame[] {
    const info = obj(meta.terminal_info);
    const output = obj(meta.terminal_output);
    const exit = obj(meta.terminal_exit);
    delete meta.terminal_info;
    delete meta.terminal_output;
    delete meta.terminal_exit;
    const terminalId = String((info ?? output ?? exit)?.terminal_id ?? '');
    if (!terminalId) return [];
    const t: Obj = { sessionUpdate: 'terminal_update', terminalId };
    if (info && command !== undefined) t.command = command;
    if (output && typeof output.data === 'string') t.output = { data: b64(output.data) };
    if (exit) t.exitStatus = { exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null, signal: typeof exit.signal === 'string' ? exit.signal : null };
    call.terminal = { output: typeof output?.data === 'string' ? output.data : call.terminal?.output, exited: !!exit || call.terminal?.exited };
    return [{ sessionId, update: t as AcpV2Frame['update'] }];
  }

  /** Forget a call whose last frame was translated. */
  finish(sessionId: string, toolCallId: string): void {
    this.calls.delete(`${sessionId}\u0000${toolCallId}`);
  }
}

/** The command a call ran, from its `metadata.command` (the adapters' reading of the input). */
const commandOf = (toolnorm: Obj): string | undefined => {
  const c = obj(obj(toolnorm.metadata)?.command)?.command;
  return typeof c === 'string' && c !== '' ? c : undefined;
};

type V1Plan = Extract<AcpFrame['update'], { sessionUpdate: 'plan' }>;

/**
 * v1's `plan` as v2's `plan_update`. v1 has one plan per session, which each update replaces:
 * in v2 that is one plan id per session (the session id). v2 has `cancelled`, which v1 sent as
 * completed with `_meta.toolnorm.status`.
 */
function planUpdate(sessionId: string, plan: V1Plan): AcpV2Frame {
  const entries = plan.entries.map((e) => {
    const { status: was, ...rest } = e._meta?.toolnorm ?? {};
    const entry: Obj = { content: e.content, priority: e.priority, status: was ?? e.status };
    if (Object.keys(rest).length) entry._meta = { toolnorm: rest };
    return entry;
  });
  return { sessionId, update: { sessionUpdate: 'plan_update', plan: { type: 'items', planId: sessionId, entries }, _meta: plan._meta } };
}

function withoutKey(o: Obj, k: string): Obj {
  const { [k]: _drop, ...rest } = o;
  return rest;
}

/**
 * Every v2 frame for a list of parts of one session (the v2 twin of `encodeParts`).
 * Frames are `UpdateSessionNotification` params of the SDK's schema/v2.
 */
export function encodePartsV2(sessionId: string, parts: readonly NormalizedToolPart[], options: AcpEncoderOptions = {}): AcpV2Frame[] {
  const encoder = new AcpEncoder(options);
  const translator = new AcpV2Translator();
  const frames: AcpV2Frame[] = [];
  for (const p of parts) {
    for (const f of encoder.encodePart(sessionId, p)) frames.push(...translator.translate(f));
    translator.finish(sessionId, p.id);
  }
  return frames;
}
