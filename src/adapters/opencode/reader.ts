// One OpenCode input, whatever its form, down to tool parts. Each file's form is told from its
// first non-empty line:
//   - `data:` / `event:` / `:` → SSE (`/event`, or `/global/event` with `payload` envelopes);
//   - a complete JSON line → JSON lines: `run --format json` lines, bare bus events, or an export /
//     messages array that happens to sit on one line (the messages API answers on one line);
//   - anything else starting with `{` or `[` → one JSON document (a pretty-printed export or
//     messages array), buffered and parsed when the file ends.
import type { EventEmitterFor } from '../shared/emit.js';
import { reportUnreadableTime, timeField } from '../shared/time.js';
import type { AdapterOptions, InputPosition } from '../types.js';
import { BUS_HANDLERS, looksLikeToolEvent, type BusTarget, type EventContext } from './forms/bus-events.js';
import { HeadFilter, RecentIds } from './head-filter.js';
import { Calls } from './calls.js';
import { obj, readToolPart, text, type Obj } from './part-view.js';
import { SseFramer } from './forms/sse.js';
import { ToolNames } from './tool-names.js';
import { parseBounded } from '../../events/depth.js';

type Form = 'sse' | 'json-lines' | 'document';

/** `run --format json` line types (BIN 1.18.33, SRC run.ts). Only `tool_use` carries a tool part. */
export const RUN_LINE_TYPES: ReadonlySet<string> = new Set(['step_start', 'tool_use', 'text', 'reasoning', 'step_finish', 'error', 'done']);

/** Part types that are not tool calls (SDK v1/v2 Part union). */
const OTHER_PART_TYPES: ReadonlySet<string> = new Set(['text', 'reasoning', 'file', 'step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'retry', 'compaction', 'subtask']);

export class OpenCodeReader implements BusTarget {
  readonly calls: Calls;
  private form?: Form;
  private file?: string;
  private sse: SseFramer;
  private doc: { text: string; pos: InputPosition }[] = [];
  private readonly recent = new RecentIds();
  private readonly filter: HeadFilter;
  private readonly clock: () => number | undefined;

  constructor(private readonly out: EventEmitterFor, private readonly options: AdapterOptions) {
    // Without an explicit clock, an event with no time of its own has none (never invented).
    this.clock = options.clock ?? (() => undefined);
    this.calls = new Calls(out, new ToolNames(options.mcpServers ?? []), { clock: this.clock, cwd: options.cwd, time: (field, value, pos) => timeField(out, field, value, 'ms', pos) });
    this.filter = new HeadFilter(this.recent, this.calls.sessions);
    this.sse = this.newFramer();
  }

  private newFramer(): SseFramer {
    return new SseFramer({
      data: (value, pos, event) => this.value(value, pos, event),
      skip: (data) => this.filter.skippable(data),
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
        if (this.doc.length <= DOCUMENT_PROBE_LINES && this.doc.length > 1 && isWholeObjectLine(t)) this.notADocument();
        return;
      case 'json-lines':
        return this.jsonLine(t, pos);
    }
  }

  private jsonLine(t: string, pos: InputPosition): void {
    if (!t.trim()) return;
    let v: unknown;
    try {
      v = parseBounded(t);
    } catch (err) {
      // A data line in a JSON-lines file: someone concatenated streams; read it as SSE.
      if (/^(data|event|id|retry):|^:/.test(t)) return this.sse.line(t, pos);
      this.out.malformed(t, `not JSON (${(err as Error).message})`, pos);
      return;
    }
    this.value(v, pos);
  }

  /**
   * A first line that starts like JSON but does not parse made the file look like one document;
   * a later line that is a whole JSON object by itself says it is JSON lines whose first line was
   * cut. The few lines held are read as JSON lines and nothing more is buffered: a 990 MB file
   * with a cut first line once took 3.5 GB waiting for a document that never closed.
   */
  private notADocument(): void {
    this.form = 'json-lines';
    const held = this.doc;
    this.doc = [];
    for (const l of held) this.jsonLine(l.text, l.pos);
  }

  private flushDocument(): void {
    if (!this.doc.length) return;
    const lines = this.doc;
    this.doc = [];
    let v: unknown;
    try {
      v = parseBounded(lines.map((l) => l.text).join('\n'));
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

  /** An already-parsed value (an SDK `Event`, a run line, an export), as its JSON text would be read. */
  input(v: unknown, pos: InputPosition): void {
    this.value(v, pos);
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
    // A typed record of none of OpenCode's forms (a Claude or Codex line, say): not this format.
    if (type) return this.out.unrecognized(pos);
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
      return this.busEvent({ id, properties: obj(sync.data) ?? {} }, type, pos, ctx, true);
    }
    this.busEvent(payload, text(payload.type) ?? '', pos, ctx, true);
  }

  private busEvent(e: Obj, type: string, pos: InputPosition, ctx: Omit<EventContext, 'pos'>, dedupe = false): void {
    // Only `/global/event` repeats events; `/event` ids are not remembered.
    const id = dedupe ? text(e.id) : undefined;
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
    this.part(o.part, text(o.sessionID), { pos, at: timeField(this.out, 'timestamp', o.timestamp, 'ms', pos) });
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
    const at = timeField(this.out, 'info.time.created', obj(info.time)?.created, 'ms', pos);
    for (const p of m.parts) this.part(p, sessionId, { pos, ...(at !== undefined ? { at } : {}) });
  }

  /** A time of a bus event, by the one rule (src/adapters/shared/time.ts); an unreadable one is reported. */
  time(field: string, value: unknown, pos: InputPosition): number | undefined {
    return timeField(this.out, field, value, 'ms', pos);
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
    for (const u of view.unreadableTimes ?? []) reportUnreadableTime(this.out, `part.${u.field}`, u.value, u.why, ctx.pos, view.id);
    const sid = view.sessionId ?? this.fallbackSession();
    if (ctx.directory) this.calls.sessions.noteCwd(sid, ctx.directory);
    this.calls.apply(view, { sessionId: sid, at: ctx.at, pos: ctx.pos });
  }

  end(): void {
    this.endFile();
    this.calls.flush();
  }
}

/** Lines after a first line that does not parse that may still show the file is JSON lines. */
const DOCUMENT_PROBE_LINES = 8;

/** A line that is a JSON object by itself, unindented as JSON lines are (a pretty-printed document's inner lines never are). */
const isWholeObjectLine = (t: string): boolean => t.charCodeAt(0) === 123 && t.trimEnd().endsWith('}') && parses(t);

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
