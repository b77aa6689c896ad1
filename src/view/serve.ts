// `view --serve`: the page over HTTP on loopback only, and with a followed store session, its
// updates as server-sent events. Every new client first gets the whole current view, then the
// parts each batch of appended events changed, so a reconnect (EventSource retries by itself)
// never misses a part.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventStore } from '../store/types.js';
import { followSession } from '../store/follow.js';
import { renderViewHtml, scriptSafeJson } from './html.js';
import type { ViewBuilder, ViewPart } from './model.js';

/** Only loopback: the page shows tool inputs and outputs, which may hold secrets. */
export const SERVE_HOST = '127.0.0.1';
/** Changes are sent at most this often (a burst of appends becomes one message). */
const BATCH_MS = 100;

export interface ServeOptions {
  builder: ViewBuilder;
  source: string;
  port?: number;
  /** With a store and session: follow it, from `afterSeq` on. */
  follow?: { store: EventStore; sessionId: string; afterSeq: number };
  signal: AbortSignal;
  /** Called once the server listens, with its URL. */
  listening(url: string): void;
}

export async function serveView(o: ServeOptions): Promise<void> {
  const clients = new Set<ServerResponse>();
  let seq = o.follow?.afterSeq ?? 0;
  const send = (res: ServerResponse, payload: unknown) => res.write(`event: view\ndata: ${scriptSafeJson(payload)}\n\n`);
  // `full`: the page replaces its diagnostics (a reconnect must not list them twice).
  const everything = () => ({ seq, full: true, sessions: o.builder.sessionList(), parts: o.builder.parts(), ...o.builder.diagnosticList() });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/' || path === '/index.html') {
      const body = renderViewHtml(o.builder.data(o.source, o.follow !== undefined));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (path === '/events' && o.follow) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      send(res, everything());
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, SERVE_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  o.listening(`http://${SERVE_HOST}:${port}/`);

  const follower = o.follow ? followLoop(o.follow, o.builder, o.signal, (changed, head) => {
    seq = head;
    const diagnostics = o.builder.takeReducerDiagnostics();
    for (const res of clients) send(res, { seq, full: false, sessions: o.builder.sessionList(), parts: changed, diagnostics });
  }) : Promise.resolve();

  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve();
    else o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const res of clients) res.end();
  clients.clear();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  await follower;
}

async function followLoop(f: NonNullable<ServeOptions['follow']>, builder: ViewBuilder, signal: AbortSignal, changed: (parts: ViewPart[], head: number) => void): Promise<void> {
  const touched = new Map<string, { session: string; partId: string }>();
  let head = f.afterSeq;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const parts: ViewPart[] = [];
    for (const t of touched.values()) {
      const p = builder.part(t.session, t.partId);
      if (p) parts.push(p);
    }
    touched.clear();
    changed(parts, head);
  };
  for await (const e of followSession(f.store, f.sessionId, { fromSeq: f.afterSeq + 1, signal, pollMs: 250 })) {
    const t = builder.add(e);
    head = e.seq;
    touched.set(`${t.session}\u0000${t.partId}`, t);
    timer ??= setTimeout(flush, BATCH_MS);
  }
  if (timer) clearTimeout(timer);
}
