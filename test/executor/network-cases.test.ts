// NETWORK_TARGET cases from the attack run, and the families around them: every row gives the
// target, the decision, the normalized host and the reason. Numeric hosts are normalized the
// WHATWG way whatever the scheme; IPv6 forms that embed an IPv4 address are judged by it.
import { describe, expect, it } from 'vitest';
import { judgeAddress, judgeTarget, resolvePolicy, type PolicyInput } from '../../src/executor/index.js';

async function judge(target: string, policy: PolicyInput = {}) {
  return judgeTarget(target, (await resolvePolicy(policy, '/')).network);
}

type Row = [target: string, decision: 'allow' | 'deny', host: string | undefined, reason: RegExp];
const DENIED_BY_DEFAULT: Row[] = [
  // Numeric hosts in non-special schemes (opaque hosts to a plain URL parse).
  ['redis://2130706433/', 'deny', '127.0.0.1', /loopback address/],
  ['postgres://0x7f000001/', 'deny', '127.0.0.1', /loopback address/],
  ['mysql://0177.1/', 'deny', '127.0.0.1', /loopback address/],
  ['mongodb://0x7f.0.0.1:27017/db', 'deny', '127.0.0.1', /loopback/],
  ['ftp://017700000001/', 'deny', '127.0.0.1', /loopback/],
  ['ssh://user@0/', 'deny', '0.0.0.0', /unspecified/],
  ['ws://%31%32%37.0.0.1/', 'deny', '127.0.0.1', /loopback/],
  ['git://169.254.1.2./', 'deny', '169.254.1.2', /link-local/],
  ['amqp://10.0.0.1/', 'deny', '10.0.0.1', /private/],
  ['custom+x://192.168.0.10:99/', 'deny', '192.168.0.10', /private/],
  // Special schemes are parsed exactly as a WHATWG client parses them (no `//`, backslashes).
  ['http:/127.0.0.1/', 'deny', '127.0.0.1', /loopback address/],
  ['http:127.0.0.1/', 'deny', '127.0.0.1', /loopback address/],
  ['http:\\\\127.0.0.1\\x', 'deny', '127.0.0.1', /loopback address/],
  ['ws:\\\\[::1]/', 'deny', '::1', /loopback address/],
  // IPv6 forms embedding loopback or link-local.
  ['http://[::127.0.0.1]/', 'deny', '::7f00:1', /loopback address \(IPv4-compatible, embedding 127\.0\.0\.1\)/],
  ['http://[::ffff:0:127.0.0.1]/', 'deny', '::ffff:0:7f00:1', /loopback address \(IPv4-translated, embedding 127\.0\.0\.1\)/],
  ['http://[::ffff:127.0.0.1]/', 'deny', '::ffff:7f00:1', /loopback address \(IPv4-mapped, embedding 127\.0\.0\.1\)/],
  ['http://[::ffff:a9fe:101]/', 'deny', '::ffff:a9fe:101', /link-local address \(IPv4-mapped, embedding 169\.254\.1\.1\)/],
  ['http://[64:ff9b::a9fe:101]/', 'deny', '64:ff9b::a9fe:101', /link-local address \(NAT64, embedding 169\.254\.1\.1\)/],
  ['http://[64:ff9b::127.0.0.1]/', 'deny', '64:ff9b::7f00:1', /loopback address \(NAT64/],
  ['http://[2002:a9fe:101::]/', 'deny', '2002:a9fe:101::', /link-local address \(6to4, embedding 169\.254\.1\.1\)/],
  ['http://[2002:7f00:1::1]/', 'deny', '2002:7f00:1::1', /loopback address \(6to4, embedding 127\.0\.0\.1\)/],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'deny', '2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback address \(Teredo, embedding 127\.0\.0\.1\)/],
  ['redis://[::ffff:10.1.2.3]/', 'deny', '::ffff:a01:203', /private address \(IPv4-mapped, embedding 10\.1\.2\.3\)/],
  ['http://[64:ff9b:1::1]/', 'deny', '64:ff9b:1::1', /private address/],
  // Reserved ranges.
  ['http://[fec0::1]/', 'deny', 'fec0::1', /private address/],
  ['http://198.18.0.1/', 'deny', '198.18.0.1', /reserved address/],
  ['http://198.19.255.254/', 'deny', '198.19.255.254', /reserved address/],
  ['http://240.0.0.1/', 'deny', '240.0.0.1', /reserved address/],
  ['http://255.255.255.255/', 'deny', '255.255.255.255', /unspecified/],
  ['http://192.0.2.1/', 'deny', '192.0.2.1', /documentation/],
  ['http://[2001:db8::1]/', 'deny', '2001:db8::1', /documentation/],
  ['http://[3fff::1]/', 'deny', '3fff::1', /documentation/],
  ['http://100.64.0.1/', 'deny', '100.64.0.1', /cgnat/],
  ['http://[::]/', 'deny', '::', /unspecified/],
  ['http://[::1]:8080/', 'deny', '::1', /loopback/],
  ['http://localhost./', 'deny', 'localhost', /loopback name/],
];
// Metadata services hand out cloud credentials: allowPrivate does not cover them.
const METADATA: Row[] = [
  ['git://169.254.169.254./', 'deny', '169.254.169.254', /169\.254\.169\.254 is a metadata address/],
  ['http://2852039166/latest/meta-data', 'deny', '169.254.169.254', /metadata address/],
  ['http://0251.0376.0251.0376/', 'deny', '169.254.169.254', /metadata address/],
  ['HTTPS:/\\169.254.169.254/', 'deny', '169.254.169.254', /metadata address/],
  ['http://[::ffff:169.254.169.254]/', 'deny', '::ffff:a9fe:a9fe', /metadata address \(IPv4-mapped, embedding 169\.254\.169\.254\)/],
  ['http://[64:ff9b::a9fe:a9fe]/', 'deny', '64:ff9b::a9fe:a9fe', /metadata address \(NAT64, embedding 169\.254\.169\.254\)/],
  ['http://[2002:a9fe:a9fe::]/', 'deny', '2002:a9fe:a9fe::', /metadata address \(6to4, embedding 169\.254\.169\.254\)/],
  ['http://[fd00:ec2::254]/latest/meta-data', 'deny', 'fd00:ec2::254', /metadata address/],
  ['http://[fd00:ec2::23]/', 'deny', 'fd00:ec2::23', /metadata address/],
  ['http://[fd20:ce::254]/', 'deny', 'fd20:ce::254', /metadata address/],
  ['http://169.254.170.2/v2/credentials', 'deny', '169.254.170.2', /metadata address/],
  ['http://100.100.100.200/latest/meta-data', 'deny', '100.100.100.200', /metadata address/],
  ['http://168.63.129.16/', 'deny', '168.63.129.16', /metadata address/],
  ['http://metadata.google.internal./computeMetadata/v1/', 'deny', 'metadata.google.internal', /metadata name/],
];
const PUBLIC: Row[] = [
  ['http://198.20.0.1/', 'allow', '198.20.0.1', /public target/],
  ['http://[2002:808:808::]/', 'allow', '2002:808:808::', /public target/],
  ['http://[64:ff9b::808:808]/', 'allow', '64:ff9b::808:808', /public target/],
  ['redis://134744072/', 'allow', '8.8.8.8', /public target/],
  ['http://[2606:4700::1111]/', 'allow', '2606:4700::1111', /public target/],
];

describe('NETWORK_TARGET: normalization and ranges (decision, host, reason)', () => {
  it.each([...DENIED_BY_DEFAULT, ...METADATA, ...PUBLIC])('%s → %s', async (target, decision, host, reason) => {
    const out = await judge(target);
    expect([out.decision, out.resolved]).toEqual([decision, host]);
    expect(out.reason).toMatch(reason);
  });

  it.each(DENIED_BY_DEFAULT)('%s is allowed with allowPrivate', async (target, _d, host) => {
    const out = await judge(target, { network: { allowPrivate: true } });
    expect([out.decision, out.resolved]).toEqual(['allow', host]);
    expect(out.reason).toMatch(/policy allows private targets/);
  });

  it.each(METADATA)('%s stays denied with allowPrivate, and passes only with the "metadata" allowance', async (target, _d, host) => {
    const out = await judge(target, { network: { allowPrivate: true } });
    expect([out.decision, out.resolved]).toEqual(['deny', host]);
    expect(out.reason).toMatch(/needs the address-class allowance "metadata"/);
    const allowed = await judge(target, { network: { allowAddressClasses: ['metadata'] } });
    expect([allowed.decision, allowed.reason]).toEqual(['allow', expect.stringMatching(/let through by the address-class allowance "metadata"/)]);
  });

  it('names that resolve to private addresses are denied, and the checked addresses are pinned', async () => {
    const resolveHost = async (h: string) => ({ 'rebind.test': ['93.184.216.34', '127.0.0.1'], 'meta.test': ['::ffff:169.254.169.254'], 'ok.test': ['93.184.216.34'], 'odd.test': ['not-an-ip'] } as Record<string, string[]>)[h] ?? [];
    const rebind = await judge('https://rebind.test/', { network: { resolveHost } });
    expect([rebind.decision, rebind.reason]).toEqual(['deny', expect.stringMatching(/loopback address 127\.0\.0\.1/)]);
    const meta = await judge('redis://meta.test/', { network: { resolveHost } });
    expect(meta.reason).toMatch(/metadata address \(IPv4-mapped, embedding 169\.254\.169\.254\) ::ffff:169\.254\.169\.254/);
    const ok = await judge('https://ok.test/x', { network: { resolveHost } });
    expect([ok.decision, ok.addresses]).toEqual(['allow', ['93.184.216.34']]);
    expect(ok.reason).toMatch(/resolves to public addresses \(93\.184\.216\.34\)/);
    expect((await judge('https://none.test/', { network: { resolveHost } })).reason).toMatch(/resolved to no address/);
    expect((await judge('https://odd.test/', { network: { resolveHost } })).reason).toMatch(/not an IP address/);
    // An IP literal is pinned to itself.
    expect((await judge('http://8.8.8.8/')).addresses).toEqual(['8.8.8.8']);
  });

  it.each([
    ['127.0.0.1', 'loopback', undefined], ['::ffff:7f00:1', 'loopback', 'IPv4-mapped'], ['::a9fe:101', 'link-local', 'IPv4-compatible'], ['::a9fe:a9fe', 'metadata', 'IPv4-compatible'],
    ['2002:c0a8:101::', 'private', '6to4'], ['64:ff9b::c612:1', 'reserved', 'NAT64'], ['fe80::1', 'link-local', undefined], ['2001:4860::8888', 'public', undefined],
  ])('judgeAddress(%s) → %s via %s', (ip, cls, form) => {
    const v = judgeAddress(ip)!;
    expect([v.cls, v.via?.form]).toEqual([cls, form]);
  });
});

describe('NETWORK_TARGET: rules narrow, address classes need their own allowance', () => {
  // Judged only: none of these addresses is connected to.
  const table: Record<string, string[]> = {
    'intra.corp.test': ['10.1.2.3'], 'mixed.corp.test': ['93.184.216.34', '127.0.0.1'], 'mapped.corp.test': ['::ffff:10.9.9.9'],
    'pub.corp.test': ['93.184.216.34'], 'cg.corp.test': ['100.64.1.1'],
  };
  const resolveHost = async (h: string) => table[h] ?? [];
  const withDns = (network: PolicyInput['network']): PolicyInput => ({ network: { resolveHost, ...network } });

  it.each([
    // [target, network policy, decision, reason]
    ['http://intra.corp.test/', { denyHosts: ['10.0.0.0/8'] }, 'deny', /intra\.corp\.test → 10\.1\.2\.3 is in the deny rule "10\.0\.0\.0\/8"/],
    ['http://mapped.corp.test/', { denyHosts: ['10.0.0.0/8'], allowPrivate: true }, 'deny', /::ffff:10\.9\.9\.9 is in the deny rule "10\.0\.0\.0\/8"/],
    ['http://pub.corp.test/', { allowHosts: ['93.184.216.0/24'] }, 'allow', /pub\.corp\.test matches the allow rule "93\.184\.216\.0\/24"; pub\.corp\.test resolves to public addresses \(93\.184\.216\.34\)/],
    ['http://intra.corp.test/', { allowHosts: ['10.0.0.0/8'] }, 'deny', /matches the allow rule "10\.0\.0\.0\/8", but host rules never let a non-public address through: it needs the address-class allowance "private"/],
    ['http://intra.corp.test/', { allowHosts: ['10.0.0.0/8'], allowAddressClasses: ['private'] }, 'allow', /10\.1\.2\.3, let through by the address-class allowance "private"/],
    ['http://mixed.corp.test/', { allowHosts: ['93.184.216.0/24'] }, 'deny', /matches no allow rule/],
    ['http://mixed.corp.test/', { allowAddressClasses: ['private'] }, 'deny', /loopback address 127\.0\.0\.1: it needs the address-class allowance "loopback"/],
    ['http://mixed.corp.test/', { allowAddressClasses: ['loopback'] }, 'allow', /127\.0\.0\.1, let through by the address-class allowance "loopback" \(allowAddressClasses\); mixed\.corp\.test resolves to public addresses \(93\.184\.216\.34\)/],
    ['http://cg.corp.test/', { allowPrivate: true }, 'allow', /a cgnat address 100\.64\.1\.1, let through by allowPrivate/],
    ['http://cg.corp.test./', { allowHosts: ['*.corp.test.'] }, 'deny', /cgnat address 100\.64\.1\.1; cg\.corp\.test matches the allow rule "\*\.corp\.test\."/],
    ['http://corp.test/', { allowHosts: ['*.corp.test'] }, 'deny', /matches no allow rule/],
  ] as const)('%s with %j → %s', async (target, network, decision, reason) => {
    const out = await judge(target, withDns(network as PolicyInput['network']));
    expect([out.decision, out.reason]).toEqual([decision, expect.stringMatching(reason)]);
  });

  it('without a resolver an allowed name is said to be unchecked, and a CIDR allow rule cannot match it', async () => {
    const byName = await judge('https://api.corp.test/', { network: { allowHosts: ['*.corp.test'] } });
    expect([byName.decision, byName.addresses]).toEqual(['allow', undefined]);
    expect(byName.reason).toMatch(/its addresses were not checked \(the policy has no resolver\), so a tool that connects to it must resolve and check them/);
    const byRange = await judge('https://api.corp.test/', { network: { allowHosts: ['10.0.0.0/8'] } });
    expect([byRange.decision, byRange.reason]).toEqual(['deny', expect.stringMatching(/its addresses are unknown: the policy has no resolver/)]);
  });

  it('a name that no name allow rule matches is denied before it is resolved (no lookup carries it out)', async () => {
    const asked: string[] = [];
    const counting = async (h: string) => { asked.push(h); return ['93.184.216.34']; };
    const out = await judge('https://secret-123.exfil.test/', { network: { allowHosts: ['*.corp.test'], resolveHost: counting } });
    expect([out.decision, out.reason, asked]).toEqual(['deny', expect.stringMatching(/matches no allow rule \(\*\.corp\.test\)/), []]);
    // Control: a matching name is resolved.
    await judge('https://api.corp.test/', { network: { allowHosts: ['*.corp.test'], resolveHost: counting } });
    expect(asked).toEqual(['api.corp.test']);
  });

  it('an unknown address class in the policy is an error naming the classes', async () => {
    await expect(resolvePolicy({ network: { allowAddressClasses: ['loopbak' as 'loopback'] } }, '/')).rejects.toThrow(/network\.allowAddressClasses: unknown address class "loopbak"; expected some of loopback, private, cgnat, link-local, metadata, unspecified, multicast, documentation, reserved/);
    await expect(resolvePolicy({ network: { allowAddressClasses: 'loopback' as unknown as ['loopback'] } }, '/')).rejects.toThrow(/must be an array/);
  });
});
