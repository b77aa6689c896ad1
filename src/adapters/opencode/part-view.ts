// Reads an OpenCode ToolPart leniently into one flat view. The same call is seen through several
// shapes: SDK v1/v2 `ToolPart` (`tool`, `state.status`, `state.error: string`, `time{start,end}`)
// and the v2 message model (`name`, `error{type,message}`, `content[]`, `time{created,ran,completed}`).
// Everything downstream reads this view, never the raw part.
import { parseBounded } from '../../events/depth.js';
import { obj, text, num, type Obj } from '../../fields.js';
import { UnreadableTime, readTime } from '../shared/time.js';

// Re-exported so this folder's files read fields from one place.
export { obj, text, num, type Obj };

/** A time field of the part that held something that is not a time (src/adapters/shared/time.ts). */
export interface UnreadablePartTime {
  field: string;
  value: unknown;
  why: string;
}

/** An OpenCode time (epoch ms, `Date.now()`) of the part; an unreadable one is noted on the view for the reader to report. */
function timeIn(view: ToolPartView, field: string, value: unknown): number | undefined {
  const t = readTime(value, 'ms');
  if (!(t instanceof UnreadableTime)) return t;
  (view.unreadableTimes ??= []).push({ field, value, why: t.why });
  return undefined;
}

export type RawStatus = 'pending' | 'running' | 'completed' | 'error';
const STATUSES: ReadonlySet<string> = new Set(['pending', 'running', 'completed', 'error']);

export interface ToolPartView {
  /** Stable key of the call: `part.id` (docs/providers/opencode.md#identity). */
  id: string;
  callId?: string;
  messageId?: string;
  sessionId?: string;
  /** The raw tool name of this update (it can change mid-life: `no_such_tool` → `invalid`). */
  tool: string;
  status: RawStatus;
  input: unknown;
  /** `state.title`; only ever used after `usableTitle`. */
  title?: string;
  /** `state.metadata` (the tool's own metadata), `{}` when absent. */
  metadata: Obj;
  output?: string;
  /** Structured result of the v2 message model. */
  structured?: unknown;
  error?: string;
  start?: number;
  end?: number;
  compacted?: number;
  attachments?: unknown[];
  /** `part.metadata`: provider metadata such as `providerExecuted`. */
  partMetadata?: Obj;
  /**
   * An error state that still carries pending's `raw`: the processor failed the call before it
   * ever ran, and its `time.start` is the moment of that failure, not of a start.
   */
  neverRan?: boolean;
  /** Time fields present but unreadable: dropped from the view, reported by the reader. */
  unreadableTimes?: UnreadablePartTime[];
}

/** Text of v2 `LlmToolContent[]` (text items joined). */
function contentText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((c) => text(obj(c)?.text)).filter((t): t is string => t !== undefined);
  return parts.length ? parts.join('\n') : undefined;
}

function inputOf(raw: unknown): unknown {
  // v2 pending input is the raw JSON text streamed so far.
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return parseBounded(raw);
  } catch {
    return raw;
  }
}

/** The view of a tool part, or the reason it cannot be read as one. */
export function readToolPart(part: Obj, fallbackSessionId?: string): ToolPartView | string {
  const tool = text(part.tool) ?? text(part.name);
  if (!tool) return 'tool part without a tool name';
  const callId = text(part.callID);
  const id = text(part.id) || undefined;
  const messageId = text(part.messageID);
  const key = id ?? (callId ? `${messageId ?? 'call'}:${callId}` : undefined);
  if (!key) return `tool part "${tool}" has neither an id nor a callID`;
  const state = obj(part.state);
  if (!state) return `tool part ${key} has no state`;
  const status = text(state.status);
  if (!status || !STATUSES.has(status)) return `tool part ${key} has an unknown status ${JSON.stringify(state.status)}`;
  const time = obj(state.time) ?? obj(part.time) ?? {};
  const errorRaw = state.error;
  const view: ToolPartView = {
    id: key,
    tool,
    status: status as RawStatus,
    input: inputOf(state.input),
    metadata: obj(state.metadata) ?? {},
  };
  if (callId) view.callId = callId;
  if (messageId) view.messageId = messageId;
  const sessionId = text(part.sessionID) ?? fallbackSessionId;
  if (sessionId) view.sessionId = sessionId;
  if (typeof state.title === 'string') view.title = state.title;
  const output = text(state.output) ?? contentText(state.content);
  if (output !== undefined) view.output = output;
  if (state.structured !== undefined) view.structured = state.structured;
  const error = text(errorRaw) ?? text(obj(errorRaw)?.message);
  if (error !== undefined) view.error = error;
  else if (status === 'error') view.error = errorRaw === undefined ? '' : JSON.stringify(errorRaw);
  const start = timeIn(view, 'time.start', time.start) ?? timeIn(view, 'time.ran', time.ran) ?? timeIn(view, 'time.created', time.created);
  const end = timeIn(view, 'time.end', time.end) ?? timeIn(view, 'time.completed', time.completed);
  if (start !== undefined) view.start = start;
  if (end !== undefined) view.end = end;
  const compacted = timeIn(view, 'time.compacted', time.compacted) ?? timeIn(view, 'time.pruned', time.pruned);
  if (compacted !== undefined) view.compacted = compacted;
  if (Array.isArray(state.attachments) && state.attachments.length) view.attachments = state.attachments;
  if (status === 'error' && 'raw' in state) view.neverRan = true;
  const pm = obj(part.metadata);
  if (pm && Object.keys(pm).length) view.partMetadata = pm;
  return view;
}
