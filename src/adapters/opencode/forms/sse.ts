// Server-sent-events framing, line by line. OpenCode writes one `data: <json>` line and a blank
// line per event (no `event:`/`id:` lines, CAP), but SSE allows an event's data to span several
// `data:` lines; those are joined with "\n" as the SSE spec says. A data line that is complete JSON
// on its own is handed on at once, so the common case parses each line exactly once.
import type { InputPosition } from '../../types.js';
import { parseBounded } from '../../../events/depth.js';

export interface SseSink {
  data(value: unknown, pos: InputPosition, event?: string): void;
  /** True for a one-line data payload that is known to carry nothing of interest: it is not parsed. */
  skip?(data: string): boolean;
  malformed(text: string, reason: string, pos: InputPosition): void;
}

const FIELDS = new Set(['event', 'id', 'retry']);

export class SseFramer {
  private pending: string[] = [];
  private pendingPos?: InputPosition;
  private event?: string;

  constructor(private readonly sink: SseSink) {}

  line(text: string, pos: InputPosition): void {
    if (text === '' || text.trim() === '') {
      this.flush();
      this.event = undefined;
      return;
    }
    if (text.startsWith(':')) return; // comment / keep-alive
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') return this.dataLine(value, pos);
    if (field === 'event') this.event = value;
    else if (!FIELDS.has(field)) this.sink.malformed(text, `not an SSE line (field "${field.slice(0, 40)}")`, pos);
  }

  private dataLine(value: string, pos: InputPosition): void {
    if (this.pending.length === 0) {
      if (this.sink.skip?.(value)) return;
      try {
        this.sink.data(parseBounded(value), pos, this.event);
        return;
      } catch {
        this.pending.push(value);
        this.pendingPos = pos;
        return;
      }
    }
    this.pending.push(value);
    try {
      const parsed = parseBounded(this.pending.join('\n'));
      const first = this.pendingPos!;
      this.pending = [];
      this.pendingPos = undefined;
      this.sink.data(parsed, first, this.event);
    } catch {
      // Still incomplete: wait for the next data line or the blank line that ends the event.
    }
  }

  /** End of an event (blank line) or of the input: data that never became JSON is malformed. */
  flush(): void {
    if (!this.pending.length) return;
    const joined = this.pending.join('\n');
    const pos = this.pendingPos!;
    this.pending = [];
    this.pendingPos = undefined;
    let reason = 'SSE data is not JSON';
    try {
      JSON.parse(joined);
    } catch (err) {
      reason = `SSE data is not JSON (${(err as Error).message})`;
    }
    this.sink.malformed(`data: ${joined}`, reason, pos);
  }
}
