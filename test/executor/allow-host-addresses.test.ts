// Issue 29, the network gate: `--allow-host '*.allowed.test'` used to return "allow" before the
// addresses were classified, so a name under an allowed domain that resolves to loopback or to a
// metadata address was fetched. Host rules now narrow and never widen; a non-public address passes
// only with an explicit address-class allowance, and the decision names it.
//
// Names are resolved through a hosts-format file this test writes. The library cases read it with
// a resolver injected as `network.resolveHost`; the CLI cases run `toolnorm exec` under bwrap with
// that file bound over /etc/hosts, so the system resolver (getaddrinfo, `files` first) answers.
// The only listener is a real HTTP server on 127.0.0.1 that counts requests. Nothing connects to a
// metadata or private address: every call that could is preceded by a gate check that must deny
// (an `expect` that throws first), so even code without the fix stops before connecting.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyCheck, ToolEvent } from '../../src/contract/index.js';
import {
  builtinTools, judgeTarget, resolvePolicy, targetHost, success, ToolExecutor, ToolRegistry, type PolicyInput, type Tool,
} from '../../src/executor/index.js';
import { checkResult, tempDir } from '../helpers/executor.js';

const ws = tempDir();
const HOSTS = join(ws, 'hosts');
writeFileSync(HOSTS, [
  '# hosts-format file for this test; the CLI cases see it as /etc/hosts',
  '127.0.0.1 localhost',
  '127.0.0.1 evil.allowed.test',
  '169.254.169.254 meta.allowed.test',
  'fd00:ec2::254 meta6.allowed.test',
  '10.20.30.40 intranet.allowed.test',
  '::ffff:127.0.0.1 mapped.allowed.test',
  '',
].join('\n'));

/** Answers from the hosts file, read on every call the way the `files` NSS source reads it. */
async function hostsResolve(host: string): Promise<string[]> {
  const found = readFileSync(HOSTS, 'utf8').split('\n')
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([addr, ...names]) => addr && names.some((n) => n.toLowerCase() === host))
    .map(([addr]) => addr!);
  if (!found.length) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
}

let server: Server;
let port = 0;
const hits: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.host}`);
    if (req.url === '/redirect') { res.writeHead(302, { location: `http://meta.allowed.test:${port}/latest/meta-data` }); res.end(); return; }
    res.end('secret from loopback\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const ALLOWED = ['*.allowed.test'];
const executor = (network: PolicyInput['network'], tools: Tool[] = builtinTools()) =>
  new ToolExecutor({ registry: new ToolRegistry(tools), cwd: ws, home: ws, policy: { maxTier: 'network', network: { resolveHost: hostsResolve, ...network } } });

async function fetchAs(url: string, network: PolicyInput['network']) {
  const r = await executor(network).execute({ tool: 'web_fetch', input: { url }, timeoutMs: 20_000 });
  checkResult(r);
  return r;
}
const networkCheck = (events: readonly ToolEvent[]): PolicyCheck => {
  const e = events.find((x) => x.type === 'tool.policy.assessed');
  if (!e || e.type !== 'tool.policy.assessed') throw new Error('no tool.policy.assessed event');
  const c = e.assessment.checks.find((x) => x.gate === 'NETWORK_TARGET');
  if (!c) throw new Error('no NETWORK_TARGET check');
  return c;
};
/** The gate's decision alone; used as a guard before anything that could connect. */
const gateSays = async (url: string, network: PolicyInput['network']) =>
  judgeTarget(url, (await resolvePolicy({ network: { resolveHost: hostsResolve, ...network } }, '/')).network);

describe('issue 29: allow rules narrow, resolved addresses are classified after the name matches', () => {
  it('evil.allowed.test (→ 127.0.0.1) under allowHosts *.allowed.test is denied and the server sees 0 requests', async () => {
    const before = hits.length;
    const r = await fetchAs(`http://evil.allowed.test:${port}/secret`, { allowHosts: ALLOWED });
    expect(r.status).toBe('denied');
    const check = networkCheck(r.events);
    expect(check).toMatchObject({ decision: 'deny', resolved: 'evil.allowed.test' });
    expect(check.reason).toMatch(/^evil\.allowed\.test is a loopback address 127\.0\.0\.1; evil\.allowed\.test matches the allow rule "\*\.allowed\.test", but host rules never let a non-public address through: it needs the address-class allowance "loopback"/);
    expect(hits.length).toBe(before);
  });

  it('control: with the explicit loopback allowance it is fetched, and the decision names rule, address, class and allowance', async () => {
    const before = hits.length;
    const r = await fetchAs(`http://evil.allowed.test:${port}/secret`, { allowHosts: ALLOWED, allowAddressClasses: ['loopback'] });
    expect(r.part.state === 'complete' && r.part.output).toMatchObject({ text: 'secret from loopback\n', structured: { status: 200, address: '127.0.0.1' } });
    expect(hits.slice(before)).toEqual([`GET /secret evil.allowed.test:${port}`]);
    const check = networkCheck(r.events);
    expect(check.decision).toBe('allow');
    expect(check.reason).toBe('evil.allowed.test matches the allow rule "*.allowed.test"; evil.allowed.test is a loopback address 127.0.0.1, let through by the address-class allowance "loopback" (allowAddressClasses)');
  });

  it('allowing a different class does not let loopback through', async () => {
    const before = hits.length;
    const r = await fetchAs(`http://evil.allowed.test:${port}/secret`, { allowHosts: ALLOWED, allowAddressClasses: ['private', 'cgnat'] });
    expect(r.status).toBe('denied');
    expect(hits.length).toBe(before);
  });

  it.each([
    ['meta.allowed.test', /meta\.allowed\.test is a metadata address 169\.254\.169\.254/],
    ['meta6.allowed.test', /meta6\.allowed\.test is a metadata address fd00:ec2::254/],
  ])('%s is denied under the allow rule, with the loopback allowance and even with allowPrivate', async (name, reason) => {
    for (const network of [{ allowHosts: ALLOWED }, { allowHosts: ALLOWED, allowAddressClasses: ['loopback' as const], allowPrivate: true }]) {
      const j = await gateSays(`http://${name}/latest/meta-data`, network);
      expect([j.decision, j.reason]).toEqual(['deny', expect.stringMatching(reason)]);
      expect(j.reason).toMatch(/needs the address-class allowance "metadata"/);
      // Through the executor: the guard above has established it is denied before any connect.
      const r = await fetchAs(`http://${name}:${port}/latest/meta-data`, network);
      expect([r.status, networkCheck(r.events).decision]).toEqual(['denied', 'deny']);
    }
  });

  it('a private address under the allow rule is denied; the "private" allowance is named when it lets it through', async () => {
    const denied = await gateSays('http://intranet.allowed.test/', { allowHosts: ALLOWED, allowAddressClasses: ['loopback'] });
    expect([denied.decision, denied.reason]).toEqual(['deny', expect.stringMatching(/intranet\.allowed\.test is a private address 10\.20\.30\.40/)]);
    // Judged only (nothing connects to 10.20.30.40): the probe tool reports the pinned address.
    const probe: Tool = {
      name: 'probe', kind: 'web_search', tier: 'network', description: 'reports the checked target; connects to nothing',
      params: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] }, paramRoles: { '/url': 'NETWORK_TARGET' },
      title: () => 'Probing', execute: async (_i, ctx) => success({ text: JSON.stringify(ctx.target('/url')) }),
    };
    const r = await executor({ allowHosts: ALLOWED, allowAddressClasses: ['private'] }, [probe]).execute({ tool: 'probe', input: { url: 'http://intranet.allowed.test/' } });
    expect(r.part.state === 'complete' && JSON.parse((r.part.output as { text: string }).text)).toEqual({ host: 'intranet.allowed.test', addresses: ['10.20.30.40'] });
    expect(networkCheck(r.events).reason).toMatch(/10\.20\.30\.40, let through by the address-class allowance "private"/);
  });

  it('without a policy resolver the gate allows the name unchecked (and says so); web_fetch resolves it and denies the loopback answer', async () => {
    const policy = { maxTier: 'network' as const, network: { allowHosts: ALLOWED } };
    const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools({ webFetch: { resolve: hostsResolve } })), cwd: ws, home: ws, policy });
    const before = hits.length;
    const r = await ex.execute({ tool: 'web_fetch', input: { url: `http://evil.allowed.test:${port}/` } });
    checkResult(r);
    expect(networkCheck(r.events)).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/its addresses were not checked \(the policy has no resolver\)/) });
    expect(r.part.state === 'error' && [r.part.error.code, r.part.error.message]).toEqual(['denied', expect.stringMatching(/evil\.allowed\.test is a loopback address 127\.0\.0\.1; .*allow rule "\*\.allowed\.test", but host rules never/)]);
    expect(hits.length).toBe(before);
  });

  it('an IPv4-mapped answer (::ffff:127.0.0.1) is unwrapped and judged as loopback', async () => {
    const before = hits.length;
    const r = await fetchAs(`http://mapped.allowed.test:${port}/`, { allowHosts: ALLOWED });
    expect(r.status).toBe('denied');
    expect(networkCheck(r.events).reason).toMatch(/loopback address \(IPv4-mapped, embedding 127\.0\.0\.1\) ::ffff:127\.0\.0\.1/);
    expect(hits.length).toBe(before);
    const ok = await fetchAs(`http://mapped.allowed.test:${port}/mapped`, { allowHosts: ALLOWED, allowAddressClasses: ['loopback'] });
    expect(ok.part.state).toBe('complete');
    expect(hits.slice(before)).toEqual([`GET /mapped mapped.allowed.test:${port}`]);
  });
});

describe('issue 29: numeric hosts in odd spellings are the same address to the gate', () => {
  // Exact allow rules naming the address and the name: they still do not widen.
  const rules = ['127.0.0.1', 'localhost', '::ffff:7f00:1'];
  const SPELLINGS = [
    ['decimal', (p: number) => `http://2130706433:${p}/odd`],
    ['octal', (p: number) => `http://0177.0.0.1:${p}/odd`],
    ['hex, short form', (p: number) => `http://0x7f.1:${p}/odd`],
    ['IPv4-mapped IPv6', (p: number) => `http://[::ffff:127.0.0.1]:${p}/odd`],
    ['localhost with a trailing dot', (p: number) => `http://localhost.:${p}/odd`],
    ['LOCALHOST with two trailing dots', (p: number) => `http://LOCALHOST..:${p}/odd`],
  ] as const;

  it.each(SPELLINGS)('%s: denied under exact allow rules (0 requests), fetched with the loopback allowance', async (_name, url) => {
    const before = hits.length;
    const denied = await fetchAs(url(port), { allowHosts: rules });
    expect(denied.status).toBe('denied');
    expect(networkCheck(denied.events).reason).toMatch(/loopback (address|name).*host rules never let a non-public address through/);
    expect(hits.length).toBe(before);
    const ok = await fetchAs(url(port), { allowHosts: rules, allowAddressClasses: ['loopback'] });
    expect(ok.part.state).toBe('complete');
    expect(networkCheck(ok.events).reason).toMatch(/let through by the address-class allowance "loopback"/);
    expect(hits.length).toBe(before + 1);
    expect(hits.at(-1)).toMatch(/^GET \/odd /);
  });
});

describe('issue 29: the gate parses a URL as the fetch does', () => {
  it.each([`http:/127.0.0.1:PORT/slash`, `http:\\\\127.0.0.1:PORT\\slash`, `http:127.0.0.1:PORT/slash`])('%s: the gate sees 127.0.0.1 (the host the fetch connects to) and denies it, 0 requests', async (spelled) => {
    const url = spelled.replace('PORT', String(port));
    // Guard: a gate that read the scheme as the host ("http") would judge a name the fetch never
    // uses, while the fetch connected to the literal 127.0.0.1. Stop before fetching if so.
    expect(targetHost(url)).toBe(new URL(url).hostname);
    const before = hits.length;
    // "http" resolves to a public address here, so only the parse can deny it.
    const r = await fetchAs(url, { resolveHost: async (h) => (h === 'http' ? ['93.184.216.34'] : hostsResolve(h)) });
    expect([r.status, networkCheck(r.events).reason]).toEqual(['denied', expect.stringMatching(/^127\.0\.0\.1 is a loopback address/)]);
    expect(hits.length).toBe(before);
  });
});

describe('issue 29: the connection goes to the checked address; redirects do not skip the gate', () => {
  it('a resolver that rebinds after the check cannot move the connection (one lookup, pinned to 127.0.0.1)', async () => {
    let lookups = 0;
    // The first answer is checked and pinned; any later lookup would get the metadata address.
    const resolveHost = async () => (lookups++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']);
    const before = hits.length;
    const r = await fetchAs(`http://rebind.allowed.test:${port}/pinned`, { allowHosts: ALLOWED, allowAddressClasses: ['loopback'], resolveHost });
    expect(r.part.state === 'complete' && r.part.output).toMatchObject({ structured: { address: '127.0.0.1' } });
    expect(lookups).toBe(1);
    expect(hits.slice(before)).toEqual([`GET /pinned rebind.allowed.test:${port}`]);
  });

  it('a kept-alive socket from an earlier call is not reused: each call connects to the address its own gate checked', async () => {
    // Call 1 checks reuse.allowed.test → 127.0.0.1 and fetches it. Call 2, under a policy that
    // denies 127.0.0.1/32, checks the same name → 127.0.0.2 and pins that. A pooled socket (keyed
    // by host and port, not by the checked address) would carry call 2 to 127.0.0.1 anyway; the
    // listener is bound to 127.0.0.1 only, so a connection to 127.0.0.2 is refused.
    const url = `http://reuse.allowed.test:${port}/reuse`;
    const before = hits.length;
    const first = await fetchAs(url, { allowHosts: ALLOWED, allowAddressClasses: ['loopback'], resolveHost: async () => ['127.0.0.1'] });
    expect(first.part.state).toBe('complete');
    const second = await fetchAs(url, { allowHosts: ALLOWED, denyHosts: ['127.0.0.1/32'], allowAddressClasses: ['loopback'], resolveHost: async () => ['127.0.0.2'] });
    expect(networkCheck(second.events)).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/loopback address 127\.0\.0\.2/) });
    expect(second.part.state === 'error' && [second.part.error.code, second.part.error.message]).toEqual(['network_error', expect.stringMatching(/\(at 127\.0\.0\.2\) failed: connect ECONNREFUSED 127\.0\.0\.2/)]);
    expect(hits.slice(before)).toEqual([`GET /reuse reuse.allowed.test:${port}`]);
  });

  it('a redirect from an allowed loopback page to meta.allowed.test is not followed; fetched as its own call, the gate denies it', async () => {
    const network = { allowHosts: ALLOWED, allowAddressClasses: ['loopback' as const] };
    const before = hits.length;
    const r = await fetchAs(`http://evil.allowed.test:${port}/redirect`, network);
    const location = `http://meta.allowed.test:${port}/latest/meta-data`;
    expect(r.part.state === 'complete' && r.part.output).toMatchObject({ structured: { status: 302, location } });
    expect(hits.slice(before)).toEqual([`GET /redirect evil.allowed.test:${port}`]);
    expect((await gateSays(location, network)).decision).toBe('deny');
    const next = await fetchAs(location, network);
    expect(next.status).toBe('denied');
    expect(networkCheck(next.events).reason).toMatch(/metadata address 169\.254\.169\.254/);
  });
});

describe('issue 29 through the CLI: the system resolver reads a hosts file bound over /etc/hosts', () => {
  const root = resolve(import.meta.dirname, '../..');
  const bwrap = '/usr/bin/bwrap';

  function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    // Asynchronous: the listener runs in this process and must answer while the CLI waits.
    return new Promise((done) => {
      execFile(bwrap, ['--dev-bind', '/', '/', '--bind', HOSTS, '/etc/hosts', '--chdir', root,
        process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'exec', '--cwd', ws, '--home', ws, '--tier', 'network', '--events', ...args],
      { timeout: 120_000, env: { ...process.env, HOME: ws } }, (err, stdout, stderr) => {
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      });
    });
  }
  const checkOf = (stdout: string) => networkCheck(stdout.trim().split('\n').map((l) => JSON.parse(l) as ToolEvent));

  it('bwrap is installed (the CLI cases need it to give the child its own /etc/hosts)', () => {
    expect(existsSync(bwrap)).toBe(true);
  });

  it("`--allow-host '*.allowed.test'` denies evil.allowed.test (exit 3, 0 requests); `--allow-address-class loopback` fetches it and names the allowance", async () => {
    const url = JSON.stringify({ url: `http://evil.allowed.test:${port}/from-cli` });
    const before = hits.length;
    const denied = await cli(['--allow-host', '*.allowed.test', 'web_fetch', url]);
    expect([denied.code, denied.stderr]).toEqual([3, expect.stringMatching(/evil\.allowed\.test is a loopback address 127\.0\.0\.1; .*needs the address-class allowance "loopback"/)]);
    expect(hits.length).toBe(before);
    const allowed = await cli(['--allow-host', '*.allowed.test', '--allow-address-class', 'loopback', 'web_fetch', url]);
    expect(allowed.code).toBe(0);
    expect(hits.slice(before)).toEqual([`GET /from-cli evil.allowed.test:${port}`]);
    expect(checkOf(allowed.stdout).reason).toBe('evil.allowed.test matches the allow rule "*.allowed.test"; evil.allowed.test is a loopback address 127.0.0.1, let through by the address-class allowance "loopback" (allowAddressClasses)');
  }, 240_000);

  it('an unknown --allow-address-class is a usage error (exit 2) naming the classes', async () => {
    const r = await cli(['--allow-address-class', 'loopbak', 'web_fetch', '{"url":"http://evil.allowed.test/"}']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/unknown --allow-address-class "loopbak"; expected one of loopback, private, cgnat, link-local, metadata/)]);
  }, 120_000);
});
