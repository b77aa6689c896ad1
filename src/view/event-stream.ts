// The live viewer's server-sent-event clients. Each message is serialized once, into one Buffer
// that every client's connection shares by reference, so N clients cost one copy, not N.
//
// A client is written to only as fast as its socket takes data: its connection holds at most a
// window of bytes, and the next messages wait in a list until 'drain'. Each message holds whole
// parts (the page upserts them), so a client that falls further behind than `behindBytes` does
// not need the messages it missed: the list is given up and, once it catches up, it gets the
// current whole view instead (one Buffer, shared by the clients that need it at that moment).
// What the server holds for slow clients is therefore bounded in bytes, not by how much the
// session grows or how many clients there are.
//
// A client whose socket takes nothing for `stallMs` is dropped: its stream ends with a last
// `dropped` message saying by how much it fell behind, which the page shows (it does not
// reconnect by itself). If it does not take even that within `stallMs`, the connection is cut.
import type { ServerResponse } from 'node:http';
import { scriptSafeJson } from './html.js';

export interface StreamLimits {
  /** Bytes of messages kept for a client that is not keeping up; past it, it gets the full view once it catches up. */
  behindBytes: number;
  /** A client whose socket takes nothing for this long, while it has data waiting, is dropped. */
  stallMs: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = { behindBytes: 64 * 1024 * 1024, stallMs: 30_000 };

/** The last message a dropped client gets (`event: dropped`). */
export interface DroppedMessage {
  reason: 'stalled';
  /** Bytes the server had for the client and it had not taken: what its connection still held plus the messages kept for it. */
  behindBytes: number;
  limits: StreamLimits;
}

export interface StreamStats {
  clients: number;
  /** Bytes in the clients' waiting lists; a message shared by several clients counts once per client. */
  pendingBytes: number;
  /** Times a client fell more than `behindBytes` behind and was switched to the full view. */
  resyncs: number;
  /** Clients dropped for stalling. */
  dropped: number;
}

/**
 * One server-sent event, as the bytes written to every client. The JSON is encoded straight into
 * the Buffer: joining it to its head and tail first would copy a string as large as the session.
 */
export function sseFrame(event: string, payload: unknown): Buffer {
  const head = `event: ${event}\ndata: `;
  const json = scriptSafeJson(payload);
  const at = Buffer.byteLength(head);
  const length = Buffer.byteLength(json);
  const frame = Buffer.allocUnsafe(at + length + 2);
  frame.write(head, 0, 'utf8');
  frame.write(json, at, 'utf8');
  frame.write('\n\n', at + length, 'latin1');
  return frame;
}

/**
 * What a client's connection may hold at once, written and not yet taken by its socket. Messages
 * are handed over in slices that fill this window (a slice shares the message's memory), and the
 * next ones wait for 'drain'. A socket that takes a window's worth thus shows progress even within
 * one large message, so a slow client reading it is not taken for a stalled one, while a fast one
 * gets as much per turn of the event loop as its socket takes.
 */
const WINDOW_BYTES = 1024 * 1024;

interface Client {
  res: ServerResponse;
  /** Messages to write, in order; the first may be partly written already (up to `offset`). */
  queue: Buffer[];
  offset: number;
  /** Bytes of the messages queued behind the first one (the first is being written). */
  behind: number;
  /** The messages it missed were given up: it gets the full view once its queue is written. */
  resync: boolean;
  /** Set while waiting for 'drain': drops the client if its socket takes nothing until then. */
  stall?: NodeJS.Timeout;
}

export class EventStreamClients {
  private readonly clients = new Set<Client>();
  private resyncs = 0;
  private dropped = 0;

  /**
   * `snapshot()` is the full view as one message (the caller caches it between batches, so the
   * clients that need it at the same time share it); `notice` gets one line per dropped client.
   */
  constructor(
    private readonly limits: StreamLimits,
    private readonly snapshot: () => Buffer,
    private readonly notice: (message: string) => void = () => {},
  ) {}

  /** Starts a stream on `res` (headers already sent): `head`, then the full view. */
  add(res: ServerResponse, head: Buffer): void {
    const c: Client = { res, queue: [head, this.snapshot()], offset: 0, behind: 0, resync: false };
    this.clients.add(c);
    res.on('close', () => this.forget(c));
    this.pump(c);
  }

  broadcast(frame: Buffer): void {
    for (const c of this.clients) this.send(c, frame);
  }

  stats(): StreamStats {
    let pendingBytes = 0;
    for (const c of this.clients) pendingBytes += this.unsent(c);
    return { clients: this.clients.size, pendingBytes, resyncs: this.resyncs, dropped: this.dropped };
  }

  /** Ends every stream (the server stops). */
  endAll(): void {
    for (const c of [...this.clients]) {
      this.forget(c);
      c.res.end();
    }
  }

  private unsent(c: Client): number {
    return c.queue.length ? c.queue[0]!.length - c.offset + c.behind : 0;
  }

  private send(c: Client, frame: Buffer): void {
    if (c.resync) return;
    if (!c.queue.length) {
      c.queue.push(frame);
      if (!c.stall) this.pump(c);
      return;
    }
    if (c.behind + frame.length > this.limits.behindBytes) {
      // Keep the message being written (a message cannot be cut), give up the rest.
      c.queue.length = 1;
      c.behind = 0;
      c.resync = true;
      this.resyncs++;
      return;
    }
    c.queue.push(frame);
    c.behind += frame.length;
  }

  /** Fills the client's window from its queue; waits for 'drain' once the window is full. */
  private pump(c: Client): void {
    for (;;) {
      if (!c.queue.length) {
        if (!c.resync) return;
        c.resync = false;
        c.queue.push(this.snapshot());
      }
      const held = c.res.writableLength;
      if (held >= WINDOW_BYTES) {
        this.wait(c);
        return;
      }
      const frame = c.queue[0]!;
      const end = Math.min(frame.length, c.offset + WINDOW_BYTES - held);
      // Past Node's high-water mark write() says false; the window, not that, bounds what is held.
      c.res.write(c.offset === 0 && end === frame.length ? frame : frame.subarray(c.offset, end));
      if (end === frame.length) {
        c.queue.shift();
        c.offset = 0;
        if (c.queue.length) c.behind -= c.queue[0]!.length;
      } else c.offset = end;
    }
  }

  private wait(c: Client): void {
    c.stall = setTimeout(() => this.drop(c), this.limits.stallMs);
    c.stall.unref();
    c.res.once('drain', () => {
      clearTimeout(c.stall);
      c.stall = undefined;
      if (this.clients.has(c)) this.pump(c);
    });
  }

  private forget(c: Client): void {
    clearTimeout(c.stall);
    c.stall = undefined;
    c.queue = [];
    c.offset = 0;
    c.behind = 0;
    c.resync = false;
    this.clients.delete(c);
  }

  private drop(c: Client): void {
    const behindBytes = c.res.writableLength + this.unsent(c) + (c.resync ? this.snapshot().length : 0);
    // The message being written is finished first, so the stream stays well-formed.
    const rest = c.queue.length && c.offset > 0 ? c.queue[0]!.subarray(c.offset) : undefined;
    this.forget(c);
    this.dropped++;
    const message: DroppedMessage = { reason: 'stalled', behindBytes, limits: { ...this.limits } };
    if (rest) c.res.write(rest);
    c.res.end(sseFrame('dropped', message));
    // What its socket holds is freed once the client reads it, or when it is cut off.
    const cut = setTimeout(() => c.res.destroy(), this.limits.stallMs);
    cut.unref();
    c.res.once('close', () => clearTimeout(cut));
    this.notice(`dropped a live page that took nothing for ${this.limits.stallMs} ms, ${behindBytes} bytes behind; it was told to reload`);
  }
}
