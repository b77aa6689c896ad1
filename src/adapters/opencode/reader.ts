// One OpenCode input, whatever its form, down to tool parts. Each file's form is told from its
// first non-empty line:
//   - `data:` / `event:` / `:` → SSE (`/event`, or `/global/event` with `payload` envelopes);
//   - a complete JSON line → JSON lines: `run --format json` lines, bare bus events, or an export /
//     messages array that happens to sit on one line (the messages API answers on one line);
//   - anything else starting with `{` or `[` → one JSON document (a pretty-printed export or
//     messages array), buffered and parsed when the file ends.
import type { EventEmitterFor } from '../shared/emit.js';
import { toEpochMs } from '../shared/emit.js';
import type { AdapterOptions, InputPosition } from '../types.js';
import { BUS_HANDLERS, looksLikeToolEvent, type BusTarget, type EventContext } from './bus-events.js';
import { Calls } from './calls.js';
import { num, obj, readToolPart, text, type Obj } from './part-view.js';
import { SseFramer } from './sse.js';
import { ToolNames } from './tool-names.js';

type Form = 'sse' | 'json-lines' | 'document';

/** `run --format json` line types (BIN 1.18.33, SRC run.ts). Only `tool_use` carries a tool part. */
export const RUN_LINE_TYPES: ReadonlySet<string> = new Set(['step_start', 'tool_use', 'text', 'reasoning', 'step_finish', 'error', 'done']);

/** Part types that are not tool calls (SDK v1/v2 Part union). */
const OTHER_PART_TYPES: ReadonlySet<string> = new Set(['text', 'reasoning', 'file', 'step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'retry', 'compaction', 'subtask']);

/** Recently seen bus event ids: `/global/event` repeats every durable event as a `sync` payload. */
class RecentIds {
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

export class OpenCodeReader implements BusTarget {
  readonly calls: Calls;
  private form?: Form;
  private file?: string;
  private sse: SseFramer;
  private doc: { text: string; pos: InputPosition }[] = [];
  private readonly recent = new RecentIds();
  /** Per event type: skipped without parsing (nothing to read) or not. */
  private readonly skipType = new Map<string, boolean>();
  private readonly clock: () => number;

  constructor(private readonly out: EventEmitterFor, private readonly options: AdapterOptions) {
    this.clock = options.clock ?? (() => 0);
    this.calls = new Calls(out, new ToolNames(options.mcpServers ?? []), { clock: this.clock, cwd: options.cwd });
    this.sse = this.newFramer();
  }

  private newFramer(): SseFramer {
    return new SseFramer({
      data: (value, pos, event) => this.value(value, pos, event),
      skip: (data) => this.skippable(data),
      malformed: (t, reason, pos) => this.out.malformed(t, reason, pos),
    });
  }

  beginFile(file: string): void {
    this.endFile();
    this.file = file;
  }

  endFile(): void {
    this.sse.flush();
    this.flushDocument();
    this.form = undefined;
    this.sse = this.newFramer();
  }

  /** Session id for parts that name none: the option, else one derived from the file name. */
  private fallbackSession(): string {
    if (this.options.sessionId) return this.options.sessionId;
    const base = (this.file ?? '-').split(/[\\/]/).pop() || '-';
    return `opencode:${base === '-' ? 'stdin' : base}`;
  }

  line(t: string, pos: InputPosition): void {
    if (!this.form) {
      if (!t.trim()) return;
      this.form = formOf(t);
      if (!this.form) {
        this.out.malformed(t, 'not OpenCode SSE, run JSON or an export', pos);
        return;
      }
    }
    switch (this.form) {
      case 'sse':
        this.sse.line(t, pos);
        return;
      case 'document':
        this.doc.push({ text: t, pos });
        return;
      case 'json-lines':
        return this.jsonLine(t, pos);
    }
  }

  private jsonLine(t: string, pos: InputPosition): void {
    if (!t.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (err) {
      // A data line in a JSON-lines file: someone concatenated streams; read it as SSE.
      if (/^(data|event|id|retry):|^:/.test(t)) return this.sse.line(t, pos);
      this.out.malformed(t, `not JSON (${(err as Error).message})`, pos);
      return;
    }
    this.value(v, pos);
  }

  /**
   * Most of a busy `/event` stream is text deltas, heartbeats, status and catalog events, and
   * updates of text parts. Their type sits at the head of the line (OpenCode writes `id` then
   * `type`, or the global envelope then `payload`), so they are recognised without parsing. A
   * skipped line is never read, so beyond ending in `}` it is not checked for being valid JSON.
   */
  private skippable(data: string): boolean {
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
    if (type === 'session.updated' || type === 'message.updated') return this.calls.sessions.settled(sessionOfHead(data));
    let skip = this.skipType.get(type);
    if (skip === undefined) {
      skip = !Object.hasOwn(BUS_HANDLERS, type) && !looksLikeToolEvent(type);
      if (this.skipType.size < 512) this.skipType.set(type, skip);
    }
    return skip;
  }

  private flushDocument(): void {
    if (!this.doc.length) return;
    const lines = this.doc;
    this.doc = [];
    let v: unknown;
    try {
      v = JSON.parse(lines.map((l) => l.text).join('\n'));
    } catch (err) {
      // JSON lines whose first line is broken look like a document; read them line by line.
      const nonEmpty = lines.filter((l) => l.text.trim());
      const whole = nonEmpty.filter((l) => /^\s*[[{]/.test(l.text) && parses(l.text)).length;
      if (whole > 0 && whole >= (nonEmpty.length - 1) / 2) {
        for (const l of lines) this.jsonLine(l.text, l.pos);
        return;
      }
      this.out.malformed(lines[0]!.text, `the file starts like a JSON document (export or messages list) but is not valid JSON (${(err as Error).message})`, lines[0]!.pos);
      return;
    }
    this.value(v, lines[0]!.pos);
  }

  /** Any parsed JSON value of any form. */
  private value(v: unknown, pos: InputPosition, sseEvent?: string): void {
    if (Array.isArray(v)) {
      for (const item of v) this.value(item, pos);
      return;
    }
    const o = obj(v);
    if (!o) {
      this.out.malformed(JSON.stringify(v) ?? String(v), 'a JSON value that is not an object', pos);
      return;
    }
    if (obj(o.payload)) return this.globalEvent(o, pos);
    if (Array.isArray(o.messages)) return this.exportDoc(o, pos);
    if (obj(o.info) && Array.isArray(o.parts)) return this.message(o, undefined, pos);
    const type = text(o.type) ?? sseEvent;
    if (type && RUN_LINE_TYPES.has(type) && !('properties' in o)) return this.runLine(o, type, pos);
    if (type && ('properties' in o || type.includes('.'))) return this.busEvent(o, type, pos, {});
    if (type === 'tool') return this.part(o, undefined, { pos });
    if (type) return; // a well-formed record of a type with no tool data
    this.out.malformed(JSON.stringify(o), 'a JSON object that is not an OpenCode event, run line, export or message', pos);
  }

  private globalEvent(o: Obj, pos: InputPosition): void {
    const payload = obj(o.payload)!;
    const directory = text(o.directory);
    const ctx: EventContext = { pos, ...(directory && directory !== 'global' ? { directory } : {}) };
    if (payload.type === 'sync') {
      // Durable events are sent twice: as themselves and as `sync {syncEvent}` right after.
      // Only a sync whose plain twin was not seen is read (as the event it wraps).
      const sync = obj(payload.syncEvent);
      if (!sync) return;
      const id = text(sync.id);
      const type = (text(sync.type) ?? '').replace(/\.\d+$/, '');
      return this.busEvent({ id, properties: obj(sync.data) ?? {} }, type, pos, ctx);
    }
    this.busEvent(payload, text(payload.type) ?? '', pos, ctx);
  }

  private busEvent(e: Obj, type: string, pos: InputPosition, ctx: Omit<EventContext, 'pos'>): void {
    const id = text(e.id);
    if (id && this.recent.seen(id)) return;
    const handler = Object.hasOwn(BUS_HANDLERS, type) ? BUS_HANDLERS[type] : undefined;
    const props = obj(e.properties) ?? {};
    if (handler) return handler(this, props, { pos, at: ctx.at, directory: ctx.directory });
    if (looksLikeToolEvent(type)) {
      this.out.diagnostic('unknown_event', `OpenCode event "${type}" may carry tool data but is not read; tool calls are read from message.part.updated`, pos);
    }
  }

  private runLine(o: Obj, type: string, pos: InputPosition): void {
    if (type !== 'tool_use') return;
    this.part(o.part, text(o.sessionID), { pos, at: toEpochMs(o.timestamp) });
  }

  private exportDoc(o: Obj, pos: InputPosition): void {
    const info = obj(o.info);
    if (info) this.calls.sessions.onSession(info);
    for (const m of o.messages as unknown[]) {
      const msg = obj(m);
      if (msg) this.message(msg, text(info?.id), pos);
    }
  }

  private message(m: Obj, sessionHint: string | undefined, pos: InputPosition): void {
    const info = obj(m.info) ?? {};
    const sessionId = text(info.sessionID) ?? sessionHint;
    if (sessionId) this.calls.sessions.noteCwd(sessionId, text(obj(info.path)?.cwd));
    if (!Array.isArray(m.parts)) return;
    // A part that never ran has no time of its own; its message's creation is the closest.
    const at = num(obj(info.time)?.created);
    for (const p of m.parts) this.part(p, sessionId, { pos, ...(at !== undefined ? { at } : {}) });
  }

  part(raw: unknown, sessionId: string | undefined, ctx: EventContext): void {
    const p = obj(raw);
    if (!p) return;
    const type = text(p.type);
    if (type !== 'tool') {
      if ((!type || !OTHER_PART_TYPES.has(type)) && ('callID' in p || 'tool' in p)) {
        this.out.diagnostic('unknown_event', `part of type ${JSON.stringify(p.type)} with tool fields is not read as a tool call`, ctx.pos);
      }
      return;
    }
    const view = readToolPart(p, sessionId);
    if (typeof view === 'string') {
      this.out.diagnostic('unreadable_tool_part', view, ctx.pos);
      return;
    }
    const sid = view.sessionId ?? this.fallbackSession();
    if (ctx.directory) this.calls.sessions.noteCwd(sid, ctx.directory);
    this.calls.apply(view, { sessionId: sid, at: ctx.at, pos: ctx.pos });
  }

  end(): void {
    this.endFile();
    this.calls.flush();
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

const parses = (t: string): boolean => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

/** The form of a file from its first non-empty line. */
export function formOf(first: string): Form | undefined {
  const t = first.trimStart();
  if (/^(data|event|id|retry):/.test(t) || t.startsWith(':')) return 'sse';
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      JSON.parse(t);
      return 'json-lines';
    } catch {
      return 'document';
    }
  }
  return undefined;
}
