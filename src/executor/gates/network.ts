// NETWORK_TARGET gate. A target is a URL or a `host[:port]`; the WHATWG URL parser normalizes the
// host of any scheme (so `redis://2130706433/` is seen as 127.0.0.1). Loopback, private,
// link-local, reserved and unspecified addresses, and IPv6 forms embedding one, are denied unless
// the policy allows them: the classic way out of a sandbox. With a resolver, every address of a
// name is checked and the checked addresses are handed on, so the connection can be pinned to them.
import { isIP } from 'node:net';
import type { HostRule, SessionPolicy } from '../policy.js';
import type { RoleGate } from './types.js';

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'public';

/** Address ranges that are not "another host on the internet", as [cidr, class]; first match wins. */
const RANGES: readonly (readonly [string, AddressClass])[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'],
  ['169.254.0.0/16', 'link-local'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'unspecified'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['100::/64', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
];

/**
 * IPv6 forms that carry an IPv4 address, as [prefix, where the IPv4 bytes are, name]. A packet
 * to one of them can reach that IPv4 host (mapped and translated addresses on a dual stack,
 * compatible ones on old stacks, NAT64 and 6to4 relays), so the IPv4 address is judged too.
 * Teredo's client address is stored inverted.
 */
const EMBEDDINGS: readonly (readonly [string, number, string, boolean?])[] = [
  ['::ffff:0:0/96', 12, 'IPv4-mapped'],
  ['::ffff:0:0:0/96', 12, 'IPv4-translated'],
  ['64:ff9b::/96', 12, 'NAT64'],
  ['2002::/16', 2, '6to4'],
  ['2001::/32', 12, 'Teredo', true],
  ['::/96', 12, 'IPv4-compatible'],
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

export interface AddressVerdict {
  readonly cls: AddressClass;
  /** Set when the class comes from an IPv4 address the IPv6 one embeds. */
  readonly via?: { readonly form: string; readonly ipv4: string };
}

function rangeClass(bytes: number[]): AddressClass {
  for (const [cidr, cls] of RANGES) if (inCidr(bytes, cidr)) return cls;
  return 'public';
}

/** Class of an IP literal; an IPv6 address that embeds an IPv4 one is judged by both, the stricter wins. */
export function judgeAddress(ip: string): AddressVerdict | undefined {
  const bytes = ipBytes(ip);
  if (!bytes) return undefined;
  const own = rangeClass(bytes);
  if (bytes.length === 4 || own === 'unspecified' || own === 'loopback') return { cls: own };
  for (const [prefix, at, form, inverted] of EMBEDDINGS) {
    if (!inCidr(bytes, prefix)) continue;
    const v4 = bytes.slice(at, at + 4).map((x) => (inverted ? x ^ 0xff : x));
    const cls = rangeClass(v4);
    if (cls !== 'public') return { cls, via: { form, ipv4: v4.join('.') } };
    break;
  }
  return { cls: own };
}

export function classifyAddress(ip: string): AddressClass | undefined {
  return judgeAddress(ip)?.cls;
}

export function classifyHost(host: string): AddressClass | undefined {
  if (LOCAL_NAMES.some((re) => re.test(host))) return 'loopback';
  return classifyAddress(host);
}

/**
 * The host of a URL or `host[:port]`, lower-cased, IPv6 brackets removed; undefined when unusable.
 * Whatever the scheme, the host is parsed the way the WHATWG URL parser parses a special
 * scheme's host (as `http:`), so `redis://2130706433/`, `postgres://0x7f000001/` and
 * `mysql://0177.1/` are all 127.0.0.1, and IPv6 literals come out in their canonical form. A
 * non-special scheme would otherwise keep the host as opaque text the address checks never see.
 */
export function targetHost(target: string): string | undefined {
  const text = target.trim();
  if (!text) return undefined;
  try {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
    const url = new URL(`http://${scheme ? text.slice(scheme[0].length) : text}`);
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

const NOT_PUBLIC: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link-local', 'unspecified', 'multicast', 'reserved']);

const describe = (addr: string, host: string, v: AddressVerdict) => {
  const what = v.via ? `${v.cls} address (${v.via.form}, embedding ${v.via.ipv4})` : `${v.cls} address`;
  return addr === host ? what : `${what} ${addr}`;
};

export interface NetworkJudgement {
  readonly decision: 'allow' | 'deny';
  readonly reason: string;
  readonly resolved?: string;
  /** The addresses that were checked: the connection must go to one of these and nowhere else. */
  readonly addresses?: readonly string[];
}

/**
 * Judges a target. `resolve` turns a name into addresses (the policy's resolver, or the
 * tool's own when a connection needs them); without one a name is judged by itself and no
 * address is pinned.
 */
export async function judgeTarget(value: string, net: SessionPolicy['network'], resolve = net.resolveHost): Promise<NetworkJudgement> {
  const host = targetHost(value);
  if (!host) return { decision: 'deny', reason: `${JSON.stringify(value)} is not a URL or host name` };
  const denied = net.denyHosts.find((r) => matchesHost(host, r));
  if (denied) return { decision: 'deny', resolved: host, reason: `${host} matches the deny rule ${JSON.stringify(denied)}` };
  let addresses: readonly string[] | undefined = isIP(host) ? [host] : undefined;
  if (!addresses && resolve && !LOCAL_NAMES.some((re) => re.test(host))) {
    try {
      addresses = [...(await resolve(host))];
    } catch (err) {
      return { decision: 'deny', resolved: host, reason: `${host} could not be resolved: ${(err as Error).message}` };
    }
    if (!addresses.length) return { decision: 'deny', resolved: host, reason: `${host} resolved to no address` };
  }
  const pinned = addresses ? { addresses } : {};
  const allowed = net.allowHosts.find((r) => matchesHost(host, r));
  if (allowed) return { decision: 'allow', resolved: host, ...pinned, reason: `${host} matches the allow rule ${JSON.stringify(allowed)}` };
  const found: string[] = [];
  if (LOCAL_NAMES.some((re) => re.test(host))) found.push('loopback name');
  for (const addr of addresses ?? []) {
    const v = judgeAddress(addr);
    if (!v) return { decision: 'deny', resolved: host, reason: `${host} resolved to ${JSON.stringify(addr)}, which is not an IP address` };
    if (NOT_PUBLIC.has(v.cls)) found.push(describe(addr, host, v));
  }
  if (found.length && !net.allowPrivate) {
    return { decision: 'deny', resolved: host, ...pinned, reason: `${host} is a ${found.join(', ')}; loopback, private, link-local and reserved targets need an allow rule or allowPrivate` };
  }
  if (net.allowHosts.length) {
    return { decision: 'deny', resolved: host, ...pinned, reason: `${host} matches no allow rule (${net.allowHosts.join(', ')})` };
  }
  const publicWhy = addresses && !isIP(host) ? `${host} resolves to public addresses (${addresses.join(', ')}) and no rule denies it` : `${host} is a public target and no rule denies it`;
  return { decision: 'allow', resolved: host, ...pinned, reason: found.length ? `${host} is not public, and the policy allows private targets` : publicWhy };
}

export const networkGate: RoleGate = (value, ctx) => judgeTarget(value, ctx.policy.network);
