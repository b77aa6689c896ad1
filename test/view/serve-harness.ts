// The real `toolnorm view --serve --follow` for the server suites: a writer process appending to
// SQLite, the CLI serving it, and plain HTTP clients on loopback (raw sockets where a test needs
// a Host header of its choosing or a client that never reads).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { ToolEvent } from '../../src/contract/index.js';
import { REPO_ROOT } from '../helpers/corpus.js';

export function tsx(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
}

export const exited = (p: ChildProcessWithoutNullStreams) =>
  p.exitCode !== null ? Promise.resolve(p.exitCode) : new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));

/** The lines of a child's stream, kept from the start, so a wait never misses one. */
export class Lines {
  private readonly seen: string[] = [];
  private read = 0;
  private ended = false;
  private wake: () => void = () => {};
  constructor(stream: NodeJS.ReadableStream) {
    const rl = createInterface({ input: stream });
    rl.on('line', (l) => { this.seen.push(l); this.wake(); });
    rl.on('close', () => { this.ended = true; this.wake(); });
  }
  /** The next unread line that matches (lines before it are passed over). */
  async next(re: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      while (this.read < this.seen.length) {
        const m = this.seen[this.read++]!.match(re);
        if (m) return m;
      }
      if (this.ended) throw new Error(`stream ended before a line matching ${re}; it said: ${this.seen.join(' | ')}`);
      await new Promise<void>((resolve) => { this.wake = resolve; });
    }
  }
  get all(): readonly string[] { return this.seen; }
}

const src = (line: number) => ({ provider: 'claude' as const, line });

/** The output text of bulk part `i`: its id, then filler up to `bytes` (ASCII, so bytes = chars). */
export const bulkOutput = (i: number, bytes: number) => {
  const head = `bulk-${i}:`;
  return head + 'x'.repeat(Math.max(0, bytes - head.length));
};

export function bulkEvents(sessionId: string, i: number, bytes: number): ToolEvent[] {
  const env = { sessionId, partId: `bulk-${i}` };
  return [
    { type: 'tool.started', ...env, at: 1_000 + i, source: src(2 * i + 1), name: 'Bash', kind: 'bash', title: `Bulk ${i}`, input: { command: `cat big-${i}` }, metadata: { provider: 'claude' } },
    { type: 'tool.completed', ...env, at: 1_000 + i + 1, source: src(2 * i + 2), output: { text: bulkOutput(i, bytes) } },
  ] as ToolEvent[];
}

export interface Writer {
  /** Appends the events; resolves with the new head. */
  events(events: ToolEvent[]): Promise<number>;
  /** Appends bulk parts FIRST … FIRST+COUNT-1 of BYTES output each; resolves with the new head. */
  bulk(first: number, count: number, bytes: number): Promise<number>;
  close(): Promise<void>;
}

export async function startWriter(dbPath: string, session: string): Promise<Writer> {
  const p = tsx(['test/view/bulk-writer.ts', dbPath, session]);
  const out = new Lines(p.stdout);
  await out.next(/^ready \d+$/);
  const head = async () => Number((await out.next(/^appended (\d+)$/))[1]);
  return {
    events(events) { p.stdin.write(`${JSON.stringify(events)}\n`); return head(); },
    bulk(first, count, bytes) { p.stdin.write(`bulk ${first} ${count} ${bytes}\n`); return head(); },
    async close() { p.stdin.end(); await exited(p); },
  };
}

export interface Server {
  proc: ChildProcessWithoutNullStreams;
  port: number;
  url: string;
  stderr: Lines;
  stop(): Promise<number | null>;
}

/** `toolnorm view --store sqlite:DB --session S --serve --follow`, as a user runs it. */
export async function startServer(dbPath: string, session: string): Promise<Server> {
  const proc = tsx(['src/cli/main.ts', 'view', '--store', `sqlite:${dbPath}`, '--session', session, '--serve', '--follow']);
  const stderr = new Lines(proc.stderr);
  const [, url, port] = await stderr.next(/serving (http:\/\/127\.0\.0\.1:(\d+)\/)/);
  return {
    proc, port: Number(port), url: url!, stderr,
    async stop() {
      if (proc.exitCode !== null) return proc.exitCode;
      // Stopped as a person stops it, with Ctrl-C: the viewer exits 130 (docs/live.md).
      proc.kill('SIGINT');
      return exited(proc);
    },
  };
}

/** Linux: the peak resident set (VmHWM) or the current one (VmRSS) of a process, in bytes. */
export function rss(pid: number, which: 'VmHWM' | 'VmRSS'): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${which}:\\s+(\\d+) kB$`, 'm'));
  if (!m) throw new Error(`no ${which} in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body; for an event stream, what came before `until` matched (or the stream ended). */
  body: string;
}

/**
 * One GET on loopback with exactly these headers (the Host is whatever the test says). An event
 * stream is read until `until` matches its text, then the connection is closed.
 */
export function get(port: number, path: string, headers: Record<string, string>, until = /\n\n(?:event: view\ndata: [^\n]*\n\n)/): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers, setHost: false, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = () => { resolve({ status: res.statusCode!, headers: res.headers, body }); req.destroy(); };
      res.on('data', (c: string) => {
        body += c;
        if (String(res.headers['content-type']).startsWith('text/event-stream') && until.test(body)) done();
      });
      res.on('end', done);
      res.on('error', () => done());
    });
    req.on('error', reject);
    req.end();
  });
}

export interface SseMessage { event: string; data: string }

/**
 * A client that reads the event stream as fast as it comes, and hands each message over;
 * `pause()` stops it reading (its socket then fills), `resume()` reads on.
 */
export function readStream(port: number, onMessage: (m: SseMessage) => void): { done: Promise<number>; close(): void; pause(): void; resume(): void } {
  let close = () => {};
  let response: IncomingMessage | undefined;
  const done = new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/events', headers: { host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      response = res;
      // Joined only when a message is complete: messages can be tens of MB, in 64 KiB chunks.
      let chunks: string[] = [];
      let last = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        const complete = (last === '\n' && c.startsWith('\n')) || c.includes('\n\n');
        chunks.push(c);
        last = c.slice(-1);
        if (!complete) return;
        let buf = chunks.join('');
        for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const m: SseMessage = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) m.event = line.slice(7);
            else if (line.startsWith('data: ')) m.data += line.slice(6);
          }
          if (m.data) onMessage(m);
        }
        chunks = [buf];
      });
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', () => resolve(res.statusCode!));
    });
    close = () => req.destroy();
    req.on('error', reject);
    req.end();
  });
  return { done, close: () => close(), pause: () => response?.pause(), resume: () => response?.resume() };
}

/**
 * A client that asks for the event stream, reads its first message (so the server has it on its
 * list) and then never reads another byte: its kernel buffers fill, then the server's writes to
 * it stop completing. `take()` reads, later, everything it was sent, to the end of the stream.
 */
export async function stalledClient(port: number): Promise<{ socket: Socket; take(): Promise<Buffer> }> {
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    let first = true;
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (first && /event: view\ndata: [^\n]*\n\n/.test(Buffer.concat(chunks).toString('utf8'))) {
        first = false;
        socket.pause();
        resolve();
      }
    });
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });
  return {
    socket,
    take: () => new Promise((resolve) => {
      const done = () => resolve(Buffer.concat(chunks));
      socket.on('end', done);
      socket.on('close', done);
      socket.resume();
    }),
  };
}

/** An HTTP/1.1 response as read off a socket: its head, and its body with chunked coding undone. */
export function httpResponse(raw: Buffer): { head: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, split).toString('latin1');
  let p = split + 4;
  if (!/^transfer-encoding: chunked$/im.test(head)) return { head, body: raw.subarray(p).toString('utf8') };
  const parts: Buffer[] = [];
  for (;;) {
    const eol = raw.indexOf('\r\n', p);
    if (eol < 0) throw new Error(`chunked body cut off at byte ${p} of ${raw.length}`);
    const n = parseInt(raw.subarray(p, eol).toString('latin1'), 16);
    if (n === 0) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + n));
    p = eol + 2 + n + 2;
  }
  return { head, body: Buffer.concat(parts).toString('utf8') };
}

/** Server-sent-event messages of a whole stream text (a cut-off last one is reported as `cut`). */
export function sseMessages(text: string): { messages: SseMessage[]; cut: string } {
  const blocks = text.split('\n\n');
  const cut = blocks.pop()!;
  const messages: SseMessage[] = [];
  for (const block of blocks) {
    const m: SseMessage = { event: 'message', data: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) m.event = line.slice(7);
      else if (line.startsWith('data: ')) m.data += line.slice(6);
    }
    if (m.data) messages.push(m);
  }
  return { messages, cut };
}

/**
 * A plain HTTP forward proxy on loopback for Chromium (`--proxy-server`), whose responses can be
 * held: while held it stops reading from the upstream server, so the server sees a client whose
 * socket takes nothing (a browser itself reads eagerly, even for a frozen page).
 */
export async function holdingProxy(): Promise<{ port: number; hold(): void; release(): void; close(): Promise<void> }> {
  let held = false;
  const upstreams = new Set<IncomingMessage>();
  const server = createServer((req, res) => {
    const target = new URL(req.url!);
    const up = request({ host: target.hostname, port: Number(target.port), path: target.pathname + target.search, method: req.method, headers: req.headers, agent: false }, (ur) => {
      res.writeHead(ur.statusCode!, ur.headers);
      upstreams.add(ur);
      ur.on('data', (c: Buffer) => { if (!res.write(c)) ur.pause(); });
      res.on('drain', () => { if (!held) ur.resume(); });
      ur.on('end', () => { upstreams.delete(ur); res.end(); });
      ur.on('error', () => res.destroy());
      res.on('close', () => { upstreams.delete(ur); ur.destroy(); });
      if (held) ur.pause();
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hold() { held = true; for (const u of upstreams) u.pause(); },
    release() { held = false; for (const u of upstreams) u.resume(); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
