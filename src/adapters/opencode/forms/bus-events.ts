// OpenCode bus events (`GET /event`, the `payload` of `GET /global/event`) that matter for tool
// parts, one handler each. Everything else on the bus (text deltas, plugin/catalog/heartbeat
// events, session status, file watcher…) carries no tool data and is skipped without a word.
import type { InputPosition } from '../../types.js';
import type { Calls } from '../calls.js';
import { obj, text, type Obj } from '../part-view.js';

export interface EventContext {
  pos: InputPosition;
  /** `properties.time` (1.18.33) or the global envelope's time, epoch ms. */
  at?: number;
  /** The global envelope's `directory` (the session's project directory). */
  directory?: string;
}

export interface BusTarget {
  readonly calls: Calls;
  /** A time field of an event (epoch ms); undefined when absent or unreadable (reported). */
  time(field: string, value: unknown, pos: InputPosition): number | undefined;
  /** A `Part` of any type; only `type: "tool"` parts become tool events. */
  part(part: unknown, sessionId: string | undefined, ctx: EventContext): void;
}

type Handler = (target: BusTarget, props: Obj, ctx: EventContext) => void;

const session: Handler = (t, p) => {
  const info = obj(p.info);
  if (info) t.calls.sessions.onSession(info);
};

export const BUS_HANDLERS: Readonly<Record<string, Handler>> = {
  // v1: {part, delta?}; 1.18.33 / v2: {sessionID, part, time}.
  'message.part.updated': (t, p, ctx) => {
    const time = t.time('properties.time', p.time, ctx.pos);
    if (time !== undefined) ctx.at = time;
    t.part(p.part, text(p.sessionID), ctx);
  },
  'session.created': session,
  'session.updated': session,
  'message.updated': (t, p) => {
    const info = obj(p.info);
    const sessionId = text(info?.sessionID) ?? text(p.sessionID);
    if (sessionId) t.calls.sessions.noteCwd(sessionId, text(obj(info?.path)?.cwd));
  },
  'permission.asked': (t, p, ctx) => t.calls.permissionAsked(p, ctx),
  'permission.updated': (t, p, ctx) => t.calls.permissionAsked(p, ctx),
  'permission.v2.asked': (t, p, ctx) => t.calls.permissionAsked(p, ctx),
  'permission.replied': (t, p, ctx) => t.calls.permissionReplied(p, ctx),
  'permission.v2.replied': (t, p, ctx) => t.calls.permissionReplied(p, ctx),
  'message.part.removed': (t, p, ctx) => t.calls.partRemoved(text(p.partID), ctx),
  // SDK `EventMcpToolsChanged {server}`: the stream names an MCP server, so `<server>_<tool>` ids split.
  'mcp.tools.changed': (t, p) => t.calls.addMcpServer(text(p.server)),
};

/**
 * Event types that look like tool data but that this adapter does not read: the SDK v2
 * `session.next.tool.*` family (docs/providers/opencode.md#sdk-v2-events, never emitted by 1.18.33). Tool calls are
 * read from `message.part.updated`, which the same servers also send.
 */
export const looksLikeToolEvent = (type: string) => /(^|\.)tool(\.|$)/.test(type);
