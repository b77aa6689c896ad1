// NETWORK_TARGET gate. A target is a URL or a `host[:port]`; the WHATWG URL parser normalizes the
// host of any scheme (so `redis://2130706433/` is seen as 127.0.0.1). Host rules only narrow:
// after the name is matched, every address (resolved, literal, or an IPv4 address an IPv6 one
// embeds) is classified, and one that is not public (loopback, private, link-local, metadata, …)
// passes only with an explicit address-class allowance, named in the reason. An allow rule for
// `*.example.test` says nothing about where those names point. The checked addresses are handed
// on, so the connection can be pinned to them.
import { isIP } from 'node:net';
import type { HostRule, SessionPolicy } from '../policy.js';
import type { RoleGate } from './types.js';

/** Every class an address can fall in; all but `public` need an explicit allowance. */
export const ADDRESS_CLASSES = ['loopback', 'private', 'cgnat', 'link-local', 'metadata', 'unspecified', 'multicast', 'documentation', 'reserved', 'public'] as const;
export type AddressClass = (typeof ADDRESS_CLASSES)[number];
/** The classes a policy can allow (`network.allowAddressClasses`, `--allow-address-class`). */
export type NonPublicClass = Exclude<AddressClass, 'public'>;
export const NON_PUBLIC_CLASSES: readonly NonPublicClass[] = ADDRESS_CLASSES.filter((c): c is NonPublicClass => c !== 'public');

/**
 * Address ranges that are not "another host on the internet", as [cidr, class]; first match wins,
 * so the single metadata addresses come before the ranges around them. Metadata services hand out
 * cloud credentials, which is why they are a class of their own that `allowPrivate` leaves out.
 */
const RANGES: readonly (readonly [string, AddressClass])[] = [
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack instance metadata
  ['169.254.170.2/32', 'metadata'], // AWS ECS task metadata and credentials
  ['169.254.170.23/32', 'metadata'], // AWS EKS Pod Identity agent
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud metadata
  ['192.0.0.192/32', 'metadata'], // Oracle Cloud (older) metadata
  ['168.63.129.16/32', 'metadata'], // Azure WireServer: a public-range address that only the VM's host answers
  ['fd00:ec2::254/128', 'metadata'], // AWS IMDS over IPv6
  ['fd00:ec2::23/128', 'metadata'], // AWS EKS Pod Identity agent over IPv6
  ['fd20:ce::254/128', 'metadata'], // GCP metadata over IPv6
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['169.254.0.0/16', 'link-local'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'unspecified'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['100::/64', 'reserved'],
  ['2001:2::/48', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
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
/**
 * Names whose class is known without asking DNS, as [name, class, addresses]. `localhost` and its
 * subdomains are this machine whatever a resolver says (RFC 6761), so they are pinned to the
 * loopback addresses instead of being resolved. The metadata names are classed by name too, so a
 * policy without a resolver still sees what they are.
 */
const KNOWN_NAMES: readonly (readonly [RegExp, NonPublicClass, (readonly string[])?])[] = [
  [/^localhost$|\.localhost$|^localhost\.localdomain$/, 'loopback', ['127.0.0.1', '::1']],
  [/^metadata\.google\.internal$|^metadata\.goog$|^instance-data(\.ec2\.internal)?$/, 'metadata'],
];
const knownName = (host: string) => KNOWN_NAMES.find(([re]) => re.test(host));

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
  return knownName(host)?.[1] ?? classifyAddress(host);
}

/** Schemes whose host the WHATWG parser parses as a host (the rest keep it as opaque text). */
const SPECIAL_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:']);

/**
 * The host of a URL or `host[:port]`, lower-cased, IPv6 brackets and trailing dots removed;
 * undefined when unusable. A URL of a special scheme is parsed exactly as a WHATWG client (and
 * web_fetch) parses it, so `http:/127.0.0.1/` and `http:\\127.0.0.1\` are 127.0.0.1 here too.
 * Any other scheme's authority is parsed as if it were `http:`, so `redis://2130706433/`,
 * `postgres://0x7f000001/` and `mysql://0177.1/` are all 127.0.0.1 and IPv6 literals come out in
 * their canonical form; a non-special scheme would otherwise keep the host as opaque text the
 * address checks never see.
 */
export function targetHost(target: string): string | undefined {
  const text = target.trim();
  if (!text) return undefined;
  try {
    let url: URL | undefined;
    try { url = new URL(text); } catch { /* a bare host[:port] */ }
    if (!url || !SPECIAL_SCHEMES.has(url.protocol)) {
      const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
      url = new URL(`http://${scheme ? text.slice(scheme[0].length) : text}`);
    }
    // `localhost.` and `localhost..` are the same name to a resolver.
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
    return host || undefined;
  } catch {
    return undefined;
  }
}

const ruleText = (rule: HostRule) => rule.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.+$/, '');
const isCidr = (rule: HostRule) => rule.includes('/');

/** Whether an address is in a CIDR rule, itself or through the IPv4 address it embeds. */
function addressInRule(ip: string, rule: HostRule): boolean {
  const bytes = ipBytes(ip);
  if (!bytes) return false;
  const r = ruleText(rule);
  if (inCidr(bytes, r)) return true;
  const v4 = judgeAddress(ip)?.via?.ipv4;
  return !!v4 && inCidr(ipBytes(v4)!, r);
}

/** Whether a host (a name or an IP literal) matches a rule by its own text. */
export function matchesHost(host: string, rule: HostRule): boolean {
  const r = ruleText(rule);
  if (isCidr(r)) return addressInRule(host, r);
  if (r.startsWith('*.')) return host.endsWith(r.slice(1));
  return host === r;
}

export interface NetworkJudgement {
  readonly decision: 'allow' | 'deny';
  readonly reason: string;
  readonly resolved?: string;
  /** The addresses that were checked: the connection must go to one of these and nowhere else. */
  readonly addresses?: readonly string[];
}

/** What lets a non-public address through; host rules never do. */
function allowanceFor(cls: NonPublicClass, net: SessionPolicy['network']): string | undefined {
  if (net.allowAddressClasses.includes(cls)) return `the address-class allowance "${cls}" (allowAddressClasses)`;
  // allowPrivate predates the classes; it never covered credentials, so metadata needs its own allowance.
  if (net.allowPrivate && cls !== 'metadata') return 'allowPrivate (the policy allows private targets)';
  return undefined;
}

const what = (cls: AddressClass, v?: AddressVerdict) =>
  v?.via ? `a ${cls} address (${v.via.form}, embedding ${v.via.ipv4})` : `a ${cls} address`;

/**
 * Judges a target, in this order: the name is normalized; deny rules (by name, and CIDR rules by
 * every address); allow rules, which only narrow: a target must match one when any are set; then
 * every address (and a name of a known class) is classified, and each one that is not public
 * needs an explicit address-class allowance, whatever rule the name matched. `resolve` turns a
 * name into addresses (the policy's resolver, or the tool's own when a connection needs them);
 * without one a name is judged by itself and no address is pinned.
 */
export async function judgeTarget(value: string, net: SessionPolicy['network'], resolve = net.resolveHost): Promise<NetworkJudgement> {
  const host = targetHost(value);
  if (!host) return { decision: 'deny', reason: `${JSON.stringify(value)} is not a URL or host name` };
  const deny = (reason: string, addresses?: readonly string[]): NetworkJudgement =>
    ({ decision: 'deny', resolved: host, ...(addresses ? { addresses } : {}), reason });

  const deniedByName = net.denyHosts.find((r) => matchesHost(host, r));
  if (deniedByName) return deny(`${host} matches the deny rule ${JSON.stringify(deniedByName)}`);

  // With only name allow rules, a name none matches is denied before it is resolved: a lookup of
  // a name the policy refuses would still carry the name to a DNS server.
  const allowByName = net.allowHosts.find((r) => !isCidr(r) && matchesHost(host, r));
  const cidrs = net.allowHosts.filter(isCidr);
  if (net.allowHosts.length && !allowByName && !cidrs.length) return deny(`${host} matches no allow rule (${net.allowHosts.join(', ')})`);

  const known = knownName(host);
  let addresses: readonly string[] | undefined = isIP(host) ? [host] : known?.[2];
  if (!addresses && resolve) {
    try {
      addresses = [...(await resolve(host))];
    } catch (err) {
      return deny(`${host} could not be resolved: ${(err as Error).message}`);
    }
    if (!addresses.length) return deny(`${host} resolved to no address`);
  }
  const list = addresses ?? [];
  const verdicts = list.map((addr) => [addr, judgeAddress(addr)] as const);
  const bad = verdicts.find(([, v]) => !v);
  if (bad) return deny(`${host} resolved to ${JSON.stringify(bad[0])}, which is not an IP address`);
  const at = (addr: string) => (addr === host ? addr : `${host} → ${addr}`);

  for (const addr of list) {
    const rule = net.denyHosts.find((r) => isCidr(r) && addressInRule(addr, r));
    if (rule) return deny(`${at(addr)} is in the deny rule ${JSON.stringify(rule)}`, addresses);
  }

  // Allow rules: a name rule matches the name; a CIDR rule matches when every address is inside one.
  let matched: string | undefined;
  if (net.allowHosts.length) {
    const byRange = !allowByName && list.length && list.every((a) => cidrs.some((r) => addressInRule(a, r)))
      ? cidrs.filter((r) => list.some((a) => addressInRule(a, r))) : [];
    if (!allowByName && !byRange.length) {
      const why = !isIP(host) && !addresses && cidrs.length ? ' (its addresses are unknown: the policy has no resolver)' : '';
      return deny(`${host} matches no allow rule (${net.allowHosts.join(', ')})${why}`, addresses);
    }
    matched = allowByName ? `the allow rule ${JSON.stringify(allowByName)}` : `the allow rule${byRange.length > 1 ? 's' : ''} ${byRange.map((r) => JSON.stringify(r)).join(', ')}`;
  }
  const ruleSays = matched ? `${host} matches ${matched}` : undefined;

  // Classification: every address, and the name when its class is known. Rules never let one through.
  const findings: { subject: string; cls: NonPublicClass; v?: AddressVerdict }[] = [];
  // A known name's own addresses are of its class by construction: one finding says it.
  if (known) findings.push({ subject: `${host} is a ${known[1]} name${known[2] ? ` (pinned to ${known[2].join(', ')})` : ''}`, cls: known[1] });
  for (const [addr, v] of known?.[2] ? [] : verdicts) {
    if (v!.cls !== 'public') findings.push({ subject: `${host} is ${what(v!.cls, v)}${addr === host ? '' : ` ${addr}`}`, cls: v!.cls, v });
  }
  const letThrough: string[] = [];
  for (const f of findings) {
    const allowance = allowanceFor(f.cls, net);
    if (!allowance) {
      const hint = f.cls === 'metadata'
        ? `it needs the address-class allowance "metadata" (allowAddressClasses / --allow-address-class metadata)`
        : `it needs the address-class allowance "${f.cls}" (allowAddressClasses / --allow-address-class ${f.cls}) or allowPrivate`;
      const despite = ruleSays ? `; ${ruleSays}, but host rules never let a non-public address through` : '';
      return deny(`${f.subject}${despite}: ${hint}`, addresses);
    }
    letThrough.push(`${f.subject}, let through by ${allowance}`);
  }

  const pinned = addresses ? { addresses } : {};
  const parts: string[] = [];
  parts.push(ruleSays ?? (net.allowHosts.length ? host : `no rule denies ${host}`));
  if (letThrough.length) parts.push(...letThrough);
  const publics = (known?.[2] ? [] : verdicts).filter(([, v]) => v!.cls === 'public').map(([a]) => a);
  if (publics.length) parts.push(isIP(host) ? `${host} is a public target` : `${host} resolves to public addresses (${publics.join(', ')})`);
  if (!addresses) parts.push(`${host} is ${known ? 'judged by its name' : 'a public name by itself'}: its addresses were not checked (the policy has no resolver), so a tool that connects to it must resolve and check them`);
  return { decision: 'allow', resolved: host, ...pinned, reason: parts.join('; ') };
}

export const networkGate: RoleGate = (value, ctx) => judgeTarget(value, ctx.policy.network);
