// web_fetch {url, method?, maxBytes?}: one HTTP(S) GET or HEAD. Its URL is a NETWORK_TARGET, so
// the gate has judged the host and, when names are resolved, classified every address of it
// (an allow rule for the name never lets a loopback or metadata address through on its own). The
// socket is pinned to an address the gate checked (a `lookup` that only ever answers that
// address), so a DNS answer that changes between the check and the connect (rebinding) cannot
// move it. Redirects are reported, never followed: the next hop is a new call, which the gate
// judges like any other. The body is capped at maxBytes and streamed through the compressor.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { OutputCompressionSpec } from '../../contract/index.js';
import { CompressionStream } from '../../compress/engine.js';
import { judgeTarget } from '../gates/network.js';
import { failure, success, type Tool, type ToolResult } from '../types.js';

const HARD_MAX_BYTES = 64 * 1024 * 1024;

export const WebFetchParams = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, description: 'http:// or https:// URL to fetch.' },
    method: { enum: ['GET', 'HEAD'], description: 'GET (default) or HEAD.' },
    maxBytes: { type: 'integer', minimum: 1, maximum: HARD_MAX_BYTES, description: 'Most body bytes read; the rest is not downloaded (default 5 MiB).' },
  },
  required: ['url'],
  additionalProperties: false,
} as const;
export interface WebFetchInput {
  url: string;
  method?: 'GET' | 'HEAD';
  maxBytes?: number;
}

export interface WebFetchOptions {
  /** Body bytes read when the input names no maxBytes (default 5 MiB). */
  maxBytes?: number;
  /** How the body is cut for the result (default: 64 KB, head and tail, ANSI stripped). */
  compression?: OutputCompressionSpec;
  /** Resolves a name the policy did not resolve (default: the system resolver, every address). */
  resolve?: (host: string) => Promise<readonly string[]>;
}

export const WEB_FETCH_SPEC: OutputCompressionSpec = {
  id: 'web-fetch',
  description: 'web_fetch bodies: 64 KB of UTF-8, two thirds head and one third tail, escape sequences stripped.',
  budget: { maxBytes: 64 * 1024 },
  strategy: [{ type: 'ansi_strip' }, { type: 'head_tail', headRatio: 2 / 3 }],
  estimator: 'bytes4',
};

const systemResolve = async (host: string) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A lookup that answers one address, whatever it is asked: the connection cannot go elsewhere. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as LookupFunction;
}

/** Whether a socket's peer is the checked address (a dual-stack socket may report IPv4 as ::ffff:a.b.c.d). */
function sameAddress(peer: string | undefined, checked: string): boolean {
  if (!peer) return false;
  const plain = (ip: string) => ip.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  return plain(peer) === plain(checked) || (isIP(peer) === 6 && isIP(checked) === 6 && expand(peer) === expand(checked));
}
const expand = (ip: string) => new URL(`http://[${ip}]/`).hostname;

export function webFetchTool(options: WebFetchOptions = {}): Tool<WebFetchInput> {
  const spec = options.compression ?? WEB_FETCH_SPEC;
  return {
    name: 'web_fetch',
    kind: 'web_search',
    tier: 'network',
    description: 'Fetch a URL with GET or HEAD (redirects are reported, not followed).',
    params: WebFetchParams,
    paramRoles: { '/url': 'NETWORK_TARGET' },
    title: (input) => `Fetching ${input.url.length > 80 ? `${input.url.slice(0, 80)}…` : input.url}`,
    validate(input) {
      let protocol = '';
      try { protocol = new URL(input.url).protocol; } catch { /* reported below */ }
      return protocol === 'http:' || protocol === 'https:'
        ? { valid: true, issues: [] }
        : { valid: false, issues: [{ path: '/url', message: `/url: ${JSON.stringify(input.url)} is not an http:// or https:// URL` }] };
    },
    async execute(input, ctx) {
      const url = new URL(input.url);
      let { host, addresses } = ctx.target('/url');
      if (!addresses) {
        // The policy judged the name without resolving it; a connection needs an address, so
        // resolve it here and judge the whole target again (rules, then every address's class)
        // before using one.
        const j = await judgeTarget(input.url, ctx.policy.network, options.resolve ?? systemResolve);
        if (j.decision === 'deny' || !j.addresses?.length) return failure(`Denied: ${j.reason}`, 'denied', { reason: 'network', host });
        addresses = j.addresses;
      }
      const address = addresses[0]!;
      const cap = Math.min(input.maxBytes ?? options.maxBytes ?? 5 * 1024 * 1024, HARD_MAX_BYTES);
      const method = input.method ?? 'GET';
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<ToolResult>((resolve) => {
        const req = send(url, {
          method,
          signal: ctx.signal,
          lookup: pinnedLookup(address),
          // A fresh connection every call: a pooled socket is keyed by host and port, not by the
          // address this call's gate checked, so reusing one could reach an address checked
          // under another policy or another DNS answer.
          agent: false,
          headers: { 'user-agent': 'toolnorm-web-fetch', accept: '*/*', 'accept-encoding': 'identity' },
        }, (res: IncomingMessage) => {
          const engine = new CompressionStream(spec);
          let bytes = 0;
          let truncated = false;
          res.on('data', (chunk: Buffer) => {
            if (truncated) return;
            const room = cap - bytes;
            if (chunk.length > room) {
              if (room > 0) engine.write(chunk.subarray(0, room));
              bytes = cap;
              truncated = true;
              // The rest is never downloaded.
              res.destroy();
              finish();
              return;
            }
            bytes += chunk.length;
            engine.write(chunk);
          });
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            const body = engine.end();
            const status = res.statusCode ?? 0;
            const location = res.headers.location;
            const structured = {
              url: url.href, method, status, address,
              ...(res.headers['content-type'] ? { contentType: res.headers['content-type'] } : {}),
              ...(location ? { location, note: 'redirects are not followed; fetch the location as its own call so the gate judges it' } : {}),
              bytes, sha256: body.sha256,
              ...(truncated ? { truncated: true, maxBytes: cap } : {}),
              ...(body.compressed ? { compressed: body.stats } : {}),
            };
            const text = method === 'HEAD' ? `HTTP ${status}` : body.text;
            const metadata = { httpStatus: status, address };
            if (status >= 400) resolve(failure(`HTTP ${status} from ${url.host}${body.text ? `\n${body.text.slice(0, 2000)}` : ''}`, 'http_error', { status, output: { text, structured } }, metadata));
            else resolve(success({ text, structured }, metadata));
          };
          res.on('end', finish);
          res.on('error', (err) => {
            if (!done && !truncated) { done = true; resolve(failure(`reading the body of ${url.href} failed: ${err.message}`, 'network_error')); }
          });
        });
        // Belt and braces: the socket must end up at the checked address, whatever produced it.
        req.on('socket', (socket) => socket.once('connect', () => {
          if (!sameAddress(socket.remoteAddress, address)) req.destroy(new Error(`connected to ${socket.remoteAddress ?? 'an unknown address'}, not the checked ${address}`));
        }));
        req.on('error', (err: NodeJS.ErrnoException) => {
          if (ctx.signal.aborted) resolve(failure('cancelled', 'cancelled'));
          else resolve(failure(`fetching ${url.href} (at ${address}) failed: ${err.message}`, 'network_error', { errno: err.code, address }));
        });
        req.end();
      });
    },
  };
}
