// NETWORK_TARGET gate. A target is a URL or a `host[:port]`; the WHATWG URL parser normalizes the
// host (so `http://2130706433/` is seen as 127.0.0.1). Loopback, private, link-local and
// unspecified addresses are denied unless the policy allows them: the classic way out of a sandbox.
import { isIP } from 'node:net';
import type { HostRule } from '../policy.js';
import type { RoleGate } from './types.js';

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'public';

/** Address ranges that are not "another host on the internet", as [cidr, class]. */
const RANGES: readonly (readonly [string, AddressClass])[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'],
  ['169.254.0.0/16', 'link-local'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'unspecified'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
];

/** Host names that always mean this machine. */
const LOCAL_NAMES = [/^localhost$/i, /\.localhost$/i, /^localhost\.localdomain$/i];

function ipBytes(ip: string): number[] | undefined {
  const v = isIP(ip);
  if (v === 4) return ip.split('.').map(Number);
  if (v !== 6) return undefined;
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (v4) {
    tail = v4[1]!.split('.').map(Number);
    text = text.slice(0, -v4[1]!.length) + '0:0';
  }
  const [left, right] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const l = groups(left), r = groups(right);
  const words = [...l, ...Array(8 - l.length - r.length).fill('0'), ...r].map((g) => parseInt(g, 16));
  const out = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (v4) out.splice(12, 4, ...tail);
  return out;
}

function inCidr(bytes: number[], cidr: string): boolean {
  const [base, lenText] = cidr.split('/') as [string, string | undefined];
  const b = ipBytes(base);
  if (!b || b.length !== bytes.length) return false;
  let bits = lenText === undefined ? b.length * 8 : Number(lenText);
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((b[i]! & mask) !== (bytes[i]! & mask)) return false;
  }
  return true;
}

/** Class of an IP literal; IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as its IPv4 address. */
export function classifyAddress(ip: string): AddressClass | undefined {
  let bytes = ipBytes(ip);
  if (!bytes) return undefined;
  if (bytes.length === 16 && bytes.slice(0, 10).every((x) => x === 0) && bytes[10] === 0xff && bytes[11] === 0xff) bytes = bytes.slice(12);
  for (const [cidr, cls] of RANGES) if (inCidr(bytes, cidr)) return cls;
  return 'public';
}

export function classifyHost(host: string): AddressClass | undefined {
  if (LOCAL_NAMES.some((re) => re.test(host))) return 'loopback';
  return classifyAddress(host);
}

/** The host of a URL or `host[:port]`, lower-cased, IPv6 brackets removed; undefined when unusable. */
export function targetHost(target: string): string | undefined {
  const text = target.trim();
  if (!text) return undefined;
  try {
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? new URL(text) : new URL(`http://${text}`);
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    return host || undefined;
  } catch {
    return undefined;
  }
}

export function matchesHost(host: string, rule: HostRule): boolean {
  const r = rule.trim().toLowerCase();
  if (r.includes('/')) {
    const bytes = ipBytes(host);
    return !!bytes && inCidr(bytes, r);
  }
  if (r.startsWith('*.')) return host.endsWith(r.slice(1));
  return host === r.replace(/^\[|\]$/g, '');
}

const NOT_PUBLIC: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link-local', 'unspecified', 'multicast']);

export const networkGate: RoleGate = async (value, ctx) => {
  const net = ctx.policy.network;
  const host = targetHost(value);
  if (!host) return { decision: 'deny', reason: `${JSON.stringify(value)} is not a URL or host name` };
  const denied = net.denyHosts.find((r) => matchesHost(host, r));
  if (denied) return { decision: 'deny', resolved: host, reason: `${host} matches the deny rule ${JSON.stringify(denied)}` };
  const allowed = net.allowHosts.find((r) => matchesHost(host, r));
  if (allowed) return { decision: 'allow', resolved: host, reason: `${host} matches the allow rule ${JSON.stringify(allowed)}` };
  const classes: [string, AddressClass][] = [];
  const own = classifyHost(host);
  if (own && NOT_PUBLIC.has(own)) classes.push([host, own]);
  if (own === undefined && net.resolveHost) {
    try {
      for (const addr of await net.resolveHost(host)) {
        const cls = classifyAddress(addr);
        if (cls && NOT_PUBLIC.has(cls)) classes.push([addr, cls]);
      }
    } catch (err) {
      return { decision: 'deny', resolved: host, reason: `${host} could not be resolved: ${(err as Error).message}` };
    }
  }
  if (classes.length && !net.allowPrivate) {
    const which = classes.map(([a, c]) => (a === host ? `${c} address` : `${c} address ${a}`)).join(', ');
    return { decision: 'deny', resolved: host, reason: `${host} is a ${which}; loopback, private and link-local targets need an allow rule or allowPrivate` };
  }
  if (net.allowHosts.length) {
    return { decision: 'deny', resolved: host, reason: `${host} matches no allow rule (${net.allowHosts.join(', ')})` };
  }
  return { decision: 'allow', resolved: host, reason: classes.length ? `${host} is not public, and the policy allows private targets` : `${host} is a public target and no rule denies it` };
};
