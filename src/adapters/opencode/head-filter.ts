// Reading a busy `/event` stream without parsing most of it: text deltas, heartbeats, status and
// catalog events, updates of text parts and repeats of known session info carry nothing for tool
// parts, and their type sits at the head of the line. Also the memory of recent event ids that
// drops `/global/event`'s `sync` duplicates.
import { BUS_HANDLERS, looksLikeToolEvent } from './forms/bus-events.js';
import type { Sessions } from './sessions.js';

/** Recently seen bus event ids: `/global/event` repeats every durable event as a `sync` payload. */
export class RecentIds {
  private readonly set = new Set<string>();
  private readonly ring: (string | undefined)[];
  private next = 0;
  constructor(capacity = 1024) {
    this.ring = new Array<string | undefined>(capacity);
  }

  has(id: string): boolean {
    return this.set.has(id);
  }

  /** True when `id` was seen recently; remembers it otherwise. */
  seen(id: string): boolean {
    if (this.set.has(id)) return true;
    const old = this.ring[this.next];
    if (old !== undefined) this.set.delete(old);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.ring.length;
    this.set.add(id);
    return false;
  }
}

export class HeadFilter {
  /** Per event type: skipped without parsing (nothing to read) or not. */
  private readonly skipType = new Map<string, boolean>();

  constructor(private readonly recent: RecentIds, private readonly sessions: Sessions) {}

  /**
   * Most of a busy `/event` stream is text deltas, heartbeats, status and catalog events, and
   * updates of text parts. Their type sits at the head of the line (OpenCode writes `id` then
   * `type`, or the global envelope then `payload`), so they are recognised without parsing. A
   * skipped line is never read, so beyond ending in `}` it is not checked for being valid JSON.
   */
  skippable(data: string): boolean {
    // A line cut short is left to the parser, which reports it.
    if (data.charCodeAt(data.length - 1) !== 0x7d /* } */) return false;
    let type = headType(data);
    if (type === undefined) return false;
    if (type === 'sync') {
      const sync = SYNC_HEAD.exec(data);
      if (!sync) return false;
      if (this.recent.has(sync[1]!)) return true;
      type = sync[2]!.replace(/\.\d+$/, '');
    }
    if (type === 'message.part.updated') return !data.includes('"tool"');
    // Repeats of session and message info only matter until the session's place is known.
    if (type === 'session.updated' || type === 'message.updated') return this.sessions.settled(sessionOfHead(data));
    let skip = this.skipType.get(type);
    if (skip === undefined) {
      skip = !Object.hasOwn(BUS_HANDLERS, type) && !looksLikeToolEvent(type);
      if (this.skipType.size < 512) this.skipType.set(type, skip);
    }
    return skip;
  }
}

const GLOBAL_HEAD = /^\{(?:"(?:directory|project|workspace)":"[^"\\]*",)*"payload":\{(?:"id":"[^"\\]*",)?"type":"([^"\\]+)"/;

/**
 * The event type at the head of a line, when the first key of the object (or of its `payload`)
 * is `id` or `type`: OpenCode writes `{"id":"evt_…","type":"…"`. String scanning, no regex, on the
 * common `/event` shape; the global envelope goes through GLOBAL_HEAD.
 */
function headType(data: string): string | undefined {
  let at = 1;
  if (data.startsWith('{"id":"')) {
    const end = data.indexOf('"', 7);
    if (end < 0 || data.charCodeAt(end - 1) === 0x5c /* \ */) return undefined;
    at = end + 2;
  }
  if (data.startsWith('"type":"', at)) {
    const start = at + 8;
    const end = data.indexOf('"', start);
    return end > start && data.charCodeAt(end - 1) !== 0x5c ? data.slice(start, end) : undefined;
  }
  return data.startsWith('{"directory":"') || data.startsWith('{"payload":') || data.startsWith('{"project":"') ? GLOBAL_HEAD.exec(data)?.[1] : undefined;
}

const SYNC_HEAD = /^[^]*?"payload":\{"type":"sync","syncEvent":\{"id":"([^"\\]+)","type":"([^"\\]+)"/;

const PROPS_SESSION = '"properties":{"sessionID":"';

/** The `properties.sessionID` at the head of a 1.18.33 event line, when it is there. */
function sessionOfHead(data: string): string | undefined {
  const at = data.indexOf(PROPS_SESSION);
  if (at < 0 || at > 400) return undefined;
  const start = at + PROPS_SESSION.length;
  const end = data.indexOf('"', start);
  return end > start ? data.slice(start, end) : undefined;
}
