// Which requests the live viewer answers. Binding 127.0.0.1 keeps other machines out, but not a
// web page in the user's own browser: a page on evil.test can re-point its name at 127.0.0.1 (DNS
// rebinding) and read the session as "same origin". Such a request still names evil.test in its
// Host header, so only loopback names are answered. A cross-origin page that reaches the server
// under a loopback name gets no CORS grant anyway; refusing it as well means the server does no
// work for it and a later header mistake could not leak the session.
import type { IncomingHttpHeaders } from 'node:http';

export interface Refusal {
  status: 421 | 403;
  /** One line for the response body: why, and which names are answered. */
  reason: string;
}

/** The route a request is for: the page is a document, the stream is read by script. */
export type RouteKind = 'page' | 'stream';

/**
 * The Host names answered besides the bound address itself. Each is loopback by definition (a
 * browser never sends a rebound name as one of these), so no page of another site can reach the
 * server under them.
 */
export const LOOPBACK_NAMES = ['localhost', '[::1]'] as const;

/** `host[:port]` split, with an IPv6 literal kept in its brackets; undefined when malformed. */
function splitHost(value: string): { name: string; port?: string } | undefined {
  const m = value.match(/^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i);
  return m ? { name: m[1]!.toLowerCase(), ...(m[2] !== undefined ? { port: m[2] } : {}) } : undefined;
}

export class RequestGuard {
  private readonly names: ReadonlySet<string>;

  constructor(readonly address: string, readonly port: number) {
    this.names = new Set<string>([address.toLowerCase(), ...LOOPBACK_NAMES]);
  }

  /** The Host values answered, for messages and docs (`127.0.0.1:PORT`, `localhost:PORT`, …). */
  hosts(): string[] {
    return [...this.names].map((n) => `${n}:${this.port}`);
  }

  private hostOk(value: string | undefined): boolean {
    const h = value === undefined ? undefined : splitHost(value.trim());
    if (!h || !this.names.has(h.name)) return false;
    // No port means the scheme's default, 80.
    return Number(h.port ?? 80) === this.port;
  }

  /** Undefined when the request may be answered; else the status and reason to answer with. */
  check(headers: IncomingHttpHeaders, route: RouteKind): Refusal | undefined {
    const host = headers.host;
    if (!this.hostOk(host)) {
      return { status: 421, reason: `misdirected request: this server answers only for Host ${this.hosts().join(', ')}, not ${host === undefined ? 'a request without Host' : JSON.stringify(host)}` };
    }
    // Browsers send Origin on every cross-origin script request (and `null` from file: pages and
    // sandboxes); our own page's same-origin stream request carries none or its own.
    const origin = headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host!.trim().toLowerCase()}`) {
      return { status: 403, reason: `forbidden: a request from origin ${JSON.stringify(origin)}; only this server's own page may read it` };
    }
    // Fetch metadata also covers no-cors requests (an <img> or <script> pointed at the stream),
    // which send no Origin. A link to the page from elsewhere is a navigation, and stays allowed.
    const site = headers['sec-fetch-site'];
    const mode = headers['sec-fetch-mode'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none' && (route === 'stream' || mode !== 'navigate')) {
      return { status: 403, reason: `forbidden: a ${site} ${mode ?? ''} request; only this server's own page may read it`.replace(/ +/g, ' ') };
    }
    return undefined;
  }
}
