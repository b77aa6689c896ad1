// web_fetch against a real HTTP listener this test starts on 127.0.0.1: refused by default (the
// gate's loopback rule), reached with allowPrivate / `--allow-private`, pinned to the address the
// gate checked, size-capped, body through the compressor, redirects reported and not followed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { builtinTools, ToolExecutor, ToolRegistry, type PolicyInput } from '../../src/executor/index.js';
import { checkResult, tempDir } from '../helpers/executor.js';

const ws = tempDir();
let server: Server;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.host}`);
    if (req.url === '/big') { res.end('x'.repeat(1_000_000)); return; }
    if (req.url === '/long') { res.end(Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n')); return; }
    if (req.url === '/redirect') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }); res.end(); return; }
    if (req.url === '/missing') { res.writeHead(404); res.end('no such page'); return; }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.method === 'HEAD' ? undefined : 'hello from the listener\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function fetchWith(input: Record<string, unknown>, policy: PolicyInput = {}) {
  const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: ws, home: ws, policy: { maxTier: 'network', ...policy } });
  const r = await ex.execute({ tool: 'web_fetch', input, timeoutMs: 10_000 });
  checkResult(r);
  return r;
}

describe('web_fetch', () => {
  it('a loopback listener is refused by default: denied by the NETWORK_TARGET gate, nothing sent', async () => {
    const before = hits.length;
    const r = await fetchWith({ url: `http://127.0.0.1:${port}/` });
    expect(r.status).toBe('denied');
    expect(r.part.state === 'error' && r.part.error.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    // The IPv6-embedded spelling of the same listener is refused too.
    expect((await fetchWith({ url: `http://[::ffff:127.0.0.1]:${port}/` })).status).toBe('denied');
    expect(hits.length).toBe(before);
  });

  it('needs the network tier', async () => {
    const r = await fetchWith({ url: `http://127.0.0.1:${port}/` }, { maxTier: 'execute', network: { allowPrivate: true } });
    expect(r.status).toBe('denied');
    expect(r.part.state === 'error' && r.part.error.message).toMatch(/tier network .* is above the session maximum execute/);
  });

  it('reaches the listener with allowPrivate, and records the address it connected to', async () => {
    const r = await fetchWith({ url: `http://127.0.0.1:${port}/hello` }, { network: { allowPrivate: true } });
    expect(r.part.state).toBe('complete');
    if (r.part.state !== 'complete') return;
    expect(r.part.output).toMatchObject({ text: 'hello from the listener\n', structured: { status: 200, address: '127.0.0.1', bytes: 24, contentType: 'text/plain' } });
    expect(hits.at(-1)).toBe(`GET /hello 127.0.0.1:${port}`);
    const head = await fetchWith({ url: `http://127.0.0.1:${port}/`, method: 'HEAD' }, { network: { allowPrivate: true } });
    expect(head.part.state === 'complete' && head.part.output).toMatchObject({ text: 'HTTP 200', structured: { method: 'HEAD', bytes: 0 } });
  });

  it('connects to the address the gate checked, not to a second lookup (DNS rebinding)', async () => {
    // A resolver that answers the listener first and a different address on every later call.
    let lookups = 0;
    const resolveHost = async () => (lookups++ === 0 ? ['127.0.0.1'] : ['10.255.255.1']);
    const r = await fetchWith({ url: `http://rebind.test:${port}/pinned` }, { network: { allowPrivate: true, resolveHost } });
    expect(r.part.state).toBe('complete');
    expect(lookups).toBe(1);
    expect(hits.at(-1)).toBe(`GET /pinned rebind.test:${port}`);
    expect(r.part.state === 'complete' && r.part.output).toMatchObject({ structured: { address: '127.0.0.1' } });
  });

  it('a name the policy did not resolve is resolved by the tool and judged by the same rules', async () => {
    const ex = new ToolExecutor({
      registry: new ToolRegistry(builtinTools({ webFetch: { resolve: async () => ['127.0.0.1'] } })),
      cwd: ws, home: ws, policy: { maxTier: 'network' },
    });
    const r = await ex.execute({ tool: 'web_fetch', input: { url: `http://sneaky.test:${port}/` } });
    expect(r.part.state === 'error' && [r.part.error.code, r.part.error.message]).toEqual(['denied', expect.stringMatching(/sneaky\.test is a loopback address 127\.0\.0\.1/)]);
  });

  it('caps the body, streams it through the compressor, and reports redirects without following them', async () => {
    const open = { network: { allowPrivate: true } };
    const big = await fetchWith({ url: `http://127.0.0.1:${port}/big`, maxBytes: 1000 }, open);
    expect(big.part.state === 'complete' && big.part.output).toMatchObject({ structured: { bytes: 1000, truncated: true, maxBytes: 1000 } });
    const long = await fetchWith({ url: `http://127.0.0.1:${port}/long` }, open);
    if (long.part.state !== 'complete') throw new Error(`expected complete, got ${long.part.state}`);
    const out = long.part.output as { text: string; structured: { bytes: number; compressed?: { originalBytes: number } } };
    expect(out.structured.bytes).toBeGreaterThan(150_000);
    expect(Buffer.byteLength(out.text)).toBeLessThan(70 * 1024);
    expect(out.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(out.text.endsWith('line 19999')).toBe(true);
    expect(out.structured.compressed).toBeDefined();
    const before = hits.length;
    const redirect = await fetchWith({ url: `http://127.0.0.1:${port}/redirect` }, open);
    expect(redirect.part.state === 'complete' && redirect.part.output).toMatchObject({ structured: { status: 302, location: 'http://169.254.169.254/latest/meta-data' } });
    expect(hits.length).toBe(before + 1);
    const missing = await fetchWith({ url: `http://127.0.0.1:${port}/missing` }, open);
    expect(missing.part.state === 'error' && missing.part.error.code).toBe('http_error');
  });

  it('rejects a URL that is not http(s) at validation', async () => {
    const r = await fetchWith({ url: 'file:///etc/passwd' }, { network: { allowPrivate: true } });
    expect(r.part.state === 'error' && r.part.error.code).toBe('invalid_input');
  });

  it('CLI: `toolnorm exec --tier network web_fetch` is refused (exit 3) by default and reaches the listener with --allow-private', async () => {
    const run = async (argv: string[]) => {
      const chunks: Buffer[] = [];
      const out = new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } });
      const err = new Writable({ write(_c, _e, cb) { cb(); } });
      const code = await runCli({ argv, stdin: Readable.from(['']), stdout: out, stderr: err, env: { HOME: ws }, cwd: ws });
      return { code, part: JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n')[0]!) };
    };
    const url = JSON.stringify({ url: `http://127.0.0.1:${port}/cli` });
    const refused = await run(['exec', '--tier', 'network', 'web_fetch', url]);
    expect([refused.code, refused.part.state]).toEqual([3, 'error']);
    const allowed = await run(['exec', '--tier', 'network', '--allow-private', 'web_fetch', url]);
    expect([allowed.code, allowed.part.output.text]).toEqual([0, 'hello from the listener\n']);
    // A name is resolved by the CLI: localhost's addresses are loopback, so it is refused too.
    const byName = await run(['exec', '--tier', 'network', 'web_fetch', JSON.stringify({ url: `http://localhost:${port}/` })]);
    expect(byName.code).toBe(3);
  });
});
