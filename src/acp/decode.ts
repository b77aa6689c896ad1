// ACP `session/update` frames → parts. Frames are merged the way ACP clients merge them (root
// fields overwrite, content/locations replace, `_meta` merges by key); our own frames then decode
// exactly through `_meta.toolnorm`, and frames of any other agent map back through the kind table.
import type { AcpToolKind, Diagnostic, NormalizedToolPart, ToolError, ToolMetadata, ToolState } from '../contract/index.js';
import { outputText } from './content.js';
import { TOOL_KIND_OF, TOOL_STATE_OF } from './kinds.js';
import { toolKindByName } from '../adapters/tool-kinds.js';
import { splitMcpName } from '../adapters/shared/mcp-names.js';
import { kindFromName } from '../adapters/shared/kinds.js';
import { mcpTitle } from '../adapters/shared/mcp.js';
import { mergeToolnorm, restoreErrorMessage, restoreOutput, shownTextOf } from './wire.js';
import { nonEmpty, obj, type Obj } from '../fields.js';
import { applyExit, nextTerminal, readExtensions, type TerminalState } from '../adapters/acp/extensions.js';
import { classifyAcpFailure } from '../adapters/acp/errors.js';
import { substanceOf } from '../adapters/acp/substance.js';

/** Our own fields are exact: any non-empty string the contract allowed is kept as it was. */
const present = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** What a client knows about one tool call after merging its frames. */
export interface MergedCall {
  sessionId: string;
  toolCallId: string;
  fields: Obj;
  meta: Obj;
  toolnorm: Obj;
  /**
   * Non-text content (diffs, terminals) and locations of every frame so far. Clients replace
   * `content` whole, so a failure's text would drop the diff its call was announced with; the part
   * keeps both.
   */
  seen: { blocks: unknown[]; keys: Set<string>; locations?: unknown[] };
  /** The display terminal (Zed's `_meta.terminal_*` convention, or a v2 `terminal_update`). */
  terminal?: TerminalState;
  /** The client refused the call's permission request (set by the input adapter). */
  denied?: true;
  /**
   * v2 only: the `elided` list of the stored `_meta.toolnorm`. A v2 client keeps `rawOutput`, the
   * error and the markers until replaced, and a terminal's text may come after them, so what
   * they leave out is derived when the part is read (partOf), from the text shown then.
   */
  elided?: unknown[];
}

/** How a frame's fields merge: v1 `null` leaves a typed field unchanged, v2 `null` clears it. */
export interface MergeOptions {
  v2?: boolean;
}

const isTextItem = (c: unknown) => obj(c)?.type === 'content' && obj(obj(c)?.content)?.type === 'text';

const ROOT_FIELDS = ['title', 'name', 'kind', 'status', 'content', 'locations', 'rawInput', 'rawOutput'];

/** The maps a reader of terminal frames keeps: who owns a terminal, and output that came before its call named it. */
interface TerminalMaps {
  owners: { set(key: string, call: string): unknown };
  early: { get(key: string): TerminalState | undefined; delete(key: string): unknown };
}

/**
 * A frame's `terminal` content items name terminals: each becomes this call's, and output its
 * terminal sent before (v2 `terminal_update` can come first) is put in front of what the call has.
 */
export function adoptTerminals(merged: MergedCall, content: unknown, callKey: string, terminalKey: (terminalId: string) => string, maps: TerminalMaps): MergedCall {
  for (const c of Array.isArray(content) ? content : []) {
    const terminalId = obj(c)?.type === 'terminal' ? obj(c)?.terminalId : undefined;
    if (typeof terminalId !== 'string') continue;
    const tkey = terminalKey(terminalId);
    maps.owners.set(tkey, callKey);
    const t = maps.early.get(tkey);
    if (t) {
      maps.early.delete(tkey);
      merged = { ...merged, terminal: { ...t, data: (merged.terminal?.data ?? '') + t.data } };
    }
  }
  return merged;
}

export function mergeFrame(prev: MergedCall | undefined, sessionId: string, update: Obj, options: MergeOptions = {}): MergedCall {
  const fields: Obj = { ...(prev?.fields ?? {}) };
  // In a v1 ToolCallUpdate `null` means "unchanged" for the typed fields; rawInput/rawOutput are any
  // JSON, where null is a value like any other. In v2 every `null` clears the field.
  for (const f of ROOT_FIELDS) {
    if (!(f in update)) continue;
    if (update[f] === null && options.v2) delete fields[f];
    else if (update[f] !== null || f === 'rawInput' || f === 'rawOutput') fields[f] = update[f];
  }
  const incomingMeta = obj(update._meta) ?? {};
  const meta: Obj = { ...(prev?.meta ?? {}) };
  const isUpdate = update.sessionUpdate === 'tool_call_update';
  for (const [k, v] of Object.entries(incomingMeta)) {
    // v2 patches `_meta` by top-level key (null removes it); v1 clients merge nested objects.
    if (options.v2) {
      if (v === null) delete meta[k];
      else meta[k] = v;
    } else meta[k] = obj(v) && obj(meta[k]) ? (k === 'toolnorm' && isUpdate ? mergeToolnorm(meta[k] as Obj, v as Obj) : { ...(meta[k] as Obj), ...(v as Obj) }) : v;
  }
  let toolnorm = obj(meta.toolnorm) ?? {};
  let v2elided: unknown[] | undefined;
  if (options.v2) {
    // The stored value is whole and its markers describe the stored rawOutput and error: kept, applied in partOf.
    const { elided, replaced: _replaced, ...rest } = toolnorm;
    toolnorm = rest;
    if (Array.isArray(elided) && elided.length) v2elided = elided;
  }
  // v1: the wire markers describe this frame only (see wire.ts): applied here, never kept.
  const incoming = options.v2 ? undefined : obj(incomingMeta.toolnorm);
  if (incoming && ('elided' in incoming || 'replaced' in incoming)) {
    const { elided, replaced: _replaced, ...rest } = toolnorm;
    toolnorm = rest;
    meta.toolnorm = rest;
    if (Array.isArray(elided)) {
      const shown = shownTextOf(fields.content, meta);
      if ('rawOutput' in update) fields.rawOutput = restoreOutput(update.rawOutput, elided, shown, fields.rawInput);
      if (obj(incoming.error) && obj(toolnorm.error)) {
        toolnorm = { ...toolnorm, error: restoreErrorMessage(toolnorm.error as Obj, elided, shown) };
        meta.toolnorm = toolnorm;
      }
    }
  }
  const seen = prev?.seen ?? { blocks: [], keys: new Set<string>() };
  if (Array.isArray(update.content)) {
    for (const c of update.content) {
      if (isTextItem(c)) continue;
      const key = JSON.stringify(c);
      if (!seen.keys.has(key)) {
        seen.keys.add(key);
        seen.blocks.push(c);
      }
    }
  }
  if (Array.isArray(update.locations) && update.locations.length) seen.locations = update.locations;
  const merged: MergedCall = { sessionId, toolCallId: String(update.toolCallId), fields, meta, toolnorm, seen };
  const terminal = nextTerminal(prev?.terminal, incomingMeta);
  if (terminal) merged.terminal = terminal;
  if (prev?.denied) merged.denied = true;
  if (v2elided) merged.elided = v2elided;
  return merged;
}

/** A v2 `terminal_update` (a snapshot: base64 `output` replaces the text, `exitStatus` ends it) or `terminal_output_chunk` (base64 `data`, appended). */
export function applyTerminalUpdate(t: TerminalState, update: Obj): TerminalState {
  const next = { ...t };
  if (update.sessionUpdate === 'terminal_output_chunk') {
    next.data += decode64(update.data);
    return next;
  }
  if (typeof update.command === 'string' && update.command) next.command = update.command;
  if (typeof update.cwd === 'string' && update.cwd) next.cwd = update.cwd;
  if (obj(update.output)) next.data = decode64(obj(update.output)!.data);
  const exit = obj(update.exitStatus);
  if (exit) applyExit(next, exit.exitCode, exit.signal);
  return next;
}

const decode64 = (s: unknown) => (typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '');

/** The text a client shows for a merged call now: its terminal's text, or the last text item. */
function shownNow(m: MergedCall): string | undefined {
  const content = m.fields.content;
  if (Array.isArray(content) && content.some((c) => obj(c)?.type === 'terminal')) return m.terminal?.data;
  return shownTextOf(content, m.meta);
}

/** v2: the call with what its stored markers leave out put back, from the text shown now. */
function restored(m: MergedCall): MergedCall {
  const elided = m.elided!;
  const shown = shownNow(m);
  const fields = 'rawOutput' in m.fields ? { ...m.fields, rawOutput: restoreOutput(m.fields.rawOutput, elided, shown, m.fields.rawInput) } : m.fields;
  const error = obj(m.toolnorm.error);
  const toolnorm = error ? { ...m.toolnorm, error: restoreErrorMessage(error, elided, shown) } : m.toolnorm;
  return { ...m, fields, toolnorm };
}

/** Session updates only v2 sends: seeing one first (without `initialize`) makes a stream v2. */
export const V2_ONLY_UPDATES: ReadonlySet<string> = new Set(['tool_call_content_chunk', 'terminal_update', 'terminal_output_chunk', 'state_update', 'user_message', 'agent_message', 'agent_thought']);

/**
 * The stream's version from one more frame, until it is known: `initialize` (the answer's
 * `protocolVersion` wins over the request's), else the first frame only one version sends. A
 * call's first frame is `tool_call` in v1; v2 has no `tool_call`, so a stream whose first tool
 * frame is a `tool_call_update` is v2.
 */
export function versionOf(version: 1 | 2 | undefined, message: Obj): 1 | 2 | undefined {
  const pv = message.method === 'initialize' ? obj(message.params)?.protocolVersion : obj(message.result)?.protocolVersion;
  if (pv === 1 || pv === 2) return pv;
  if (version !== undefined) return version;
  const kind = updateParamsOf(message)?.update.sessionUpdate;
  if (kind === 'tool_call') return 1;
  if (kind === 'tool_call_update' || (typeof kind === 'string' && V2_ONLY_UPDATES.has(kind))) return 2;
  return undefined;
}

/** A v2 `tool_call_content_chunk`: one more content item, appended. */
export function appendContent(prev: MergedCall, item: unknown): MergedCall {
  const content = Array.isArray(prev.fields.content) ? [...(prev.fields.content as unknown[]), item] : [item];
  return mergeFrame(prev, prev.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: prev.toolCallId, content }, { v2: true });
}

const STATES = new Set<ToolState>(['started', 'running', 'complete', 'error']);
/** v1 statuses, and the two v2 adds (`paused` is still under way; `cancelled` ended it). */
const STATE_OF_STATUS: Readonly<Record<string, ToolState>> = { ...TOOL_STATE_OF, paused: 'running', cancelled: 'error' };

/** codex-acp's MCP rawInput is `{server, tool, arguments}`: the title registry reads the arguments. */
const mcpArgs = (raw: unknown) => {
  const o = obj(raw);
  return o && 'arguments' in o && typeof o.server === 'string' && typeof o.tool === 'string' ? o.arguments : raw;
};

function foreignError(m: MergedCall, exitCode: number | null | undefined, shell: boolean): { error: ToolError; exitCode?: number } {
  const text = outputText(m.fields.rawOutput) ?? '';
  const contentText = Array.isArray(m.fields.content)
    ? (m.fields.content as unknown[]).map((c) => nonEmpty(obj(obj(c)?.content)?.text)).filter(Boolean).join('\n')
    : '';
  const raw = obj(m.fields.rawOutput);
  const message = nonEmpty(contentText) ?? nonEmpty(m.terminal?.data) ?? nonEmpty(typeof m.fields.rawOutput === 'string' ? m.fields.rawOutput : undefined) ?? nonEmpty(obj(raw?.error)?.message) ?? nonEmpty(raw?.error) ?? nonEmpty(text) ?? (m.fields.status === 'cancelled' ? 'the tool call was cancelled' : 'the tool call failed');
  const clean = message.replace(/^```\w*\n?|\n?```$/g, '').trim() || 'the tool call failed';
  const c = classifyAcpFailure({ text: clean, status: m.fields.status, denied: !!m.denied, exitCode, shell });
  return { error: { message: clean, code: c.code }, ...(c.exitCode !== undefined ? { exitCode: c.exitCode } : {}) };
}

function foreignOutput(m: MergedCall): unknown {
  // A display terminal holds the output a client shows; rawOutput (when sent too) stays beside it.
  if (m.terminal?.data) return 'rawOutput' in m.fields ? { text: m.terminal.data, rawOutput: m.fields.rawOutput } : { text: m.terminal.data };
  if ('rawOutput' in m.fields) return m.fields.rawOutput;
  if (Array.isArray(m.fields.content)) {
    const text = (m.fields.content as unknown[]).map((c) => nonEmpty(obj(obj(c)?.content)?.text)).filter(Boolean).join('\n');
    if (text) return { text };
  }
  return undefined;
}

/**
 * The part a merged call describes.
 * @contract NormalizedToolPart
 */
export function partOf(call: MergedCall): NormalizedToolPart {
  const m = call.elided ? restored(call) : call;
  const tn = m.toolnorm;
  const claude = obj(m.meta.claudeCode);
  const ours = Object.keys(tn).length > 0;
  const ext = ours ? undefined : readExtensions(m.meta, m.fields, m.terminal);
  const facts = ext?.facts ?? {};
  const rawName = present(tn.toolName) ?? nonEmpty(m.fields.name) ?? nonEmpty(claude?.toolName) ?? (facts.mcp ? `mcp__${facts.mcp.server}__${facts.mcp.tool}` : undefined) ?? nonEmpty(m.fields.kind) ?? 'tool';
  // A foreign MCP call (`mcp__github__create_issue`, an AIR `mcp` stamp, codex-acp's
  // `is_mcp_tool_call`) is named and titled as our adapters name it: the tool's own name, and the
  // registry's title when the agent's title is the raw name.
  const mcp = ours ? undefined : facts.mcp ?? splitMcpName(rawName) ?? splitMcpName(nonEmpty(m.fields.title) ?? '');
  const name = mcp && rawName.startsWith('mcp__') ? mcp.tool : rawName;
  // Foreign frames may hold anything here (0, false, an object, ""): only a non-empty string is a kind
  // (`"" && …` would be "", which `??` keeps).
  const acpKind = typeof m.fields.kind === 'string' ? (m.fields.kind as AcpToolKind) : undefined;
  const status = typeof m.fields.status === 'string' ? m.fields.status : 'pending';
  const state: ToolState = STATES.has(tn.state as ToolState) ? (tn.state as ToolState) : (Object.hasOwn(STATE_OF_STATUS, status) ? STATE_OF_STATUS[status] : undefined) ?? 'started';
  const kind = ours && typeof tn.kind === 'string' ? (tn.kind as NormalizedToolPart['kind']) : (mcp ? toolKindByName(`mcp__${mcp.server}__${mcp.tool}`) : undefined) ?? toolKindByName(rawName) ?? (acpKind && Object.hasOwn(TOOL_KIND_OF, acpKind) ? TOOL_KIND_OF[acpKind] : undefined) ?? kindFromName(rawName);
  const foreignTitle = nonEmpty(m.fields.title);
  // Our own frames send the title once, at the root (older ones also in `_meta.toolnorm.title`).
  const rawTitle = !foreignTitle || !!splitMcpName(foreignTitle) || /^mcp\./.test(foreignTitle);
  const title = present(tn.title) ?? (ours ? present(m.fields.title) : mcp && rawTitle ? mcpTitle(mcp.server, mcp.tool, mcpArgs(m.fields.rawInput)) : foreignTitle) ?? name;
  // v2 cannot send a null rawInput (null clears): our frames then carry it as `_meta.toolnorm.input`.
  const input = 'rawInput' in m.fields ? m.fields.rawInput : ours && 'input' in tn ? tn.input : {};
  const base = { id: m.toolCallId, name, kind, title, input } as Obj;
  if (ours) {
    if (tn.timing) base.timing = tn.timing;
    if (tn.metadata) base.metadata = tn.metadata;
  } else {
    const metadata: ToolMetadata = { provider: 'acp', rawType: `acp:${acpKind ?? 'other'}` };
    if (facts.parentId) metadata.parentId = facts.parentId;
    if (mcp) metadata.mcp = mcp;
    if (facts.exitCode !== undefined) metadata.exitCode = facts.exitCode;
    // What ACP shows beside text — diffs, terminals, other blocks — the locations, and every
    // `_meta` key no extension table knows: kept as sent.
    const { blocks, locations } = m.seen;
    if (blocks.length || locations || ext?.unknown) metadata.acp = { ...(blocks.length ? { content: [...blocks] } : {}), ...(locations ? { locations } : {}), ...(ext?.unknown ? { meta: ext.unknown } : {}) };
    base.metadata = metadata;
  }
  let part: Obj;
  if (state === 'complete') {
    const output = ours ? ('output' in tn ? tn.output : 'rawOutput' in m.fields ? m.fields.rawOutput : undefined) : foreignOutput(m);
    part = output === undefined ? { ...base, state } : { ...base, state, output };
  } else if (state === 'error') {
    if (ours && obj(tn.error)) return { ...base, state, error: tn.error as ToolError } as NormalizedToolPart;
    const { error, exitCode } = foreignError(m, facts.exitCode, kind === 'bash');
    const metadata = base.metadata as ToolMetadata;
    if (exitCode !== undefined && metadata.exitCode === undefined) metadata.exitCode = exitCode;
    part = { ...base, state, error };
  } else part = { ...base, state };
  if (!ours) {
    // What the call did, in the contract's words, from what ACP shows of it.
    const metadata = part.metadata as ToolMetadata;
    Object.assign(metadata, substanceOf({ kind, ...(acpKind ? { acpKind } : {}), ...(foreignTitle ? { title: foreignTitle } : {}), input, blocks: m.seen.blocks, ...(m.seen.locations ? { locations: m.seen.locations } : {}), ...(m.terminal ? { terminal: m.terminal } : {}), ...(metadata.exitCode !== undefined ? { exitCode: metadata.exitCode } : {}), ...(facts.description ? { description: facts.description } : {}) }));
  }
  return part as unknown as NormalizedToolPart;
}

/** Finds the session/update params in a JSON-RPC message, bare params, or a bare update. */
export function updateParamsOf(message: unknown): { sessionId: string; update: Obj } | undefined {
  const m = obj(message);
  if (!m) return undefined;
  const params = m.method === 'session/update' ? obj(m.params) : m.method === undefined && 'update' in m ? m : undefined;
  if (params && obj(params.update) && typeof params.sessionId === 'string') return { sessionId: params.sessionId, update: params.update as Obj };
  return undefined;
}

export const isToolUpdate = (u: Obj) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && typeof u.toolCallId === 'string' && u.toolCallId !== '';

export interface Decoded {
  parts: NormalizedToolPart[];
  /** Parts per session, in first-seen order. */
  sessions: Map<string, NormalizedToolPart[]>;
  diagnostics: Diagnostic[];
}

/**
 * Decodes a list of frames (JSON-RPC notifications or bare params, of either version; an
 * `initialize` exchange among them names the version) into the tool calls a client holds at the
 * end. v2 terminals (`terminal_update`, `terminal_output_chunk`) and content chunks are applied to
 * the call that shows them; other updates (plans, messages) hold no call and are skipped. For
 * everything an input provider reads (permissions, plans, child sessions), use `--from acp`.
 */
export function decodeFrames(frames: readonly unknown[]): Decoded {
  const calls = new Map<string, MergedCall>();
  /** `session\0terminalId` → the key of the call whose content shows it. */
  const terminalOwner = new Map<string, string>();
  /** Terminal updates that came before the call showing the terminal. */
  const early = new Map<string, TerminalState>();
  const diagnostics: Diagnostic[] = [];
  let version: 1 | 2 | undefined;
  const keyOf = (sessionId: string, id: string) => `${sessionId}\u0000${id}`;
  frames.forEach((frame, i) => {
    const message = obj(frame);
    if (message && (message.method === 'initialize' || typeof obj(message.result)?.protocolVersion === 'number')) {
      version = versionOf(version, message);
      return;
    }
    const p = updateParamsOf(frame);
    if (!p) {
      diagnostics.push({ severity: 'warning', code: 'not_a_session_update', message: `frame ${i} is not an ACP session/update notification`, source: { provider: 'acp' } });
      return;
    }
    version = versionOf(version, { method: 'session/update', params: p });
    const u = p.update;
    if (u.sessionUpdate === 'terminal_update' || u.sessionUpdate === 'terminal_output_chunk') {
      if (typeof u.terminalId !== 'string') return;
      const tkey = keyOf(p.sessionId, u.terminalId);
      const owner = terminalOwner.get(tkey) ?? (calls.has(tkey) ? tkey : undefined);
      const call = owner ? calls.get(owner) : undefined;
      if (call) calls.set(owner!, { ...call, terminal: applyTerminalUpdate(call.terminal ?? { data: '' }, u) });
      else early.set(tkey, applyTerminalUpdate(early.get(tkey) ?? { data: '' }, u));
      return;
    }
    if (u.sessionUpdate === 'tool_call_content_chunk' && typeof u.toolCallId === 'string') {
      const prev = calls.get(keyOf(p.sessionId, u.toolCallId));
      if (prev) calls.set(keyOf(p.sessionId, u.toolCallId), appendContent(prev, u.content));
      else calls.set(keyOf(p.sessionId, u.toolCallId), mergeFrame(undefined, p.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: u.toolCallId, content: [u.content] }, { v2: true }));
      return;
    }
    if (!isToolUpdate(u)) return;
    const key = keyOf(p.sessionId, String(u.toolCallId));
    const prev = calls.get(key);
    if (!prev && u.sessionUpdate === 'tool_call_update' && version !== 2) {
      diagnostics.push({ severity: 'warning', code: 'unknown_part', message: `tool_call_update for ${String(u.toolCallId)} before its tool_call; decoded from the update alone`, source: { provider: 'acp' }, partId: String(u.toolCallId) });
    }
    const merged = adoptTerminals(mergeFrame(prev, p.sessionId, u, { v2: version === 2 }), u.content, key, (id) => keyOf(p.sessionId, id), { owners: terminalOwner, early });
    calls.set(key, merged);
  });
  const sessions = new Map<string, NormalizedToolPart[]>();
  for (const m of calls.values()) {
    const list = sessions.get(m.sessionId) ?? [];
    list.push(partOf(m));
    sessions.set(m.sessionId, list);
  }
  return { parts: [...sessions.values()].flat(), sessions, diagnostics };
}
