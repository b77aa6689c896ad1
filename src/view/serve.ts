// `view --serve`: the page over HTTP on loopback only, and with a followed store session, its
// updates as server-sent events. Every new client first gets the whole current view, then the
// parts each batch of appended events changed, so a reconnect (EventSource retries by itself)
// never misses a part. Requests are answered only under loopback Host names (request-guard.ts),
// and slow clients cannot grow the server (event-stream.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventStore } from '../store/types.js';
import { followSession } from '../store/follow.js';
import { renderViewHtml } from './html.js';
import type { ViewBuilder, ViewPart } from './model.js';
import { RequestGuard, type RouteKind } from './request-guard.js';
import { DEFAULT_STREAM_LIMITS, EventStreamClients, sseFrame, type StreamLimits, type StreamStats } from './event-stream.js';

/** Only loopback: the page shows tool inputs and outputs, which may hold secrets. */
export const SERVE_HOST = '127.0.0.1';
/** Changes are sent at most this often (a burst of appends becomes one message). */
const BATCH_MS = 100;

export interface ServeOptions {
  builder: ViewBuilder;
  source: string;
  port?: number;
  /**
   * With a store and session: follow it, from `afterSeq` on, and every child session its
   * subagent parts name (`metadata.childSessionId`), from the head in `children` when it was
   * read already, else from its start.
   */
  follow?: { store: EventStore; sessionId: string; afterSeq: number; children?: ReadonlyMap<string, number> };
  signal: AbortSignal;
  /** Called once the server listens, with its URL. */
  listening(url: string): void;
  /** When a live page is dropped for falling behind (default bounds: DEFAULT_STREAM_LIMITS). */
  limits?: Partial<StreamLimits>;
  /** One line for the operator, e.g. that a live page was dropped (the CLI writes it to stderr). */
  notice?(message: string): void;
  /** Called with the stream clients' figures after each broadcast (for tests and monitoring). */
  stats?(stats: StreamStats): void;
}

// Security headers for every answer: no framing (clickjacking), no type sniffing, no caching.
const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

/** Routes: the kind decides which request checks apply. */
const ROUTES: Record<string, { kind: RouteKind; name: 'page' | 'events' }> = {
  '/': { kind: 'page', name: 'page' },
  '/index.html': { kind: 'page', name: 'page' },
  '/events': { kind: 'stream', name: 'events' },
};

export async function serveView(o: ServeOptions): Promise<void> {
  const limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...o.limits };
  let seq = o.follow?.afterSeq ?? 0;
  // The page and the first stream message are built once per batch, not once per client; every
  // client between two batches shares the same bytes.
  let page: Buffer | undefined;
  let snapshot: Buffer | undefined;
  // `full`: the page replaces its diagnostics (a reconnect must not list them twice).
  const everything = () => (snapshot ??= sseFrame('view', { seq, full: true, sessions: o.builder.sessionList(), parts: o.builder.parts(), ...o.builder.diagnosticList() }));
  const pageBytes = () => (page ??= Buffer.from(renderViewHtml(o.builder.data(o.source, o.follow !== undefined)), 'utf8'));
  const streams = new EventStreamClients(limits, everything, o.notice);
  let guard: RequestGuard | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    // Every request, even one for no route, is checked first: a refused one learns nothing.
    guard ??= new RequestGuard(SERVE_HOST, (server.address() as AddressInfo).port);
    const refused = guard.check(req.headers, route?.kind ?? 'stream');
    if (refused) {
      res.writeHead(refused.status, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${refused.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...BASE_HEADERS, allow: 'GET, HEAD' }).end();
      return;
    }
    if (route?.name === 'page') {
      const body = pageBytes();
      res.writeHead(200, { ...BASE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (route?.name === 'events' && o.follow) {
      // A stream that ends (a dropped client) closes its connection rather than keep it idle.
      res.writeHead(200, { ...BASE_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'close' });
      // HEAD has no body, so it gets no stream either (it would never end).
      if (req.method === 'HEAD') res.end();
      else streams.add(res, RETRY);
      return;
    }
    res.writeHead(404, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
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
    page = undefined;
    snapshot = undefined;
    const diagnostics = o.builder.takeReducerDiagnostics();
    streams.broadcast(sseFrame('view', { seq, full: false, sessions: o.builder.sessionList(), parts: changed, diagnostics }));
    o.stats?.(streams.stats());
  }) : Promise.resolve();

  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve();
    else o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  streams.endAll();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  await follower;
}

/** The stream's first bytes: EventSource waits this long before reconnecting. */
const RETRY = Buffer.from('retry: 1000\n\n', 'utf8');

// The followed session and its child sessions, each its own stream in the store, run side by
// side into one builder; a child is followed as soon as a part names it, from the start of its
// stream, so its calls written before the subagent part that names them are not missed.
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
  const followed = new Set<string>();
  const loops: Promise<void>[] = [];
  const follow = (sessionId: string, afterSeq: number) => {
    followed.add(sessionId);
    loops.push((async () => {
      for await (const e of followSession(f.store, sessionId, { fromSeq: afterSeq + 1, signal, pollMs: 250 })) {
        const t = builder.add(e);
        if (sessionId === f.sessionId) head = e.seq;
        touched.set(`${t.session}\u0000${t.partId}`, t);
        const child = builder.childSessionOf(t.session, t.partId);
        if (child && !followed.has(child)) follow(child, f.children?.get(child) ?? 0);
        timer ??= setTimeout(flush, BATCH_MS);
      }
    })());
  };
  follow(f.sessionId, f.afterSeq);
  for (const [child, seq] of f.children ?? []) if (!followed.has(child)) follow(child, seq);
  // Loops started while waiting are awaited too.
  for (let i = 0; i < loops.length; i++) await loops[i];
  if (timer) clearTimeout(timer);
}
