// DNS rebinding and cross-origin reads against the real `toolnorm view --serve --follow`: a page
// of another site that re-points its own name at 127.0.0.1 reaches the server with that name in
// Host; a cross-origin page sends its Origin. Every route must refuse both without a byte of the
// session, and answer the loopback names. Chromium then runs the attack itself: a document of
// http://evil.test:PORT (its name mapped to 127.0.0.1 by the browser's resolver rules, so nothing
// leaves loopback) reads "its own" /index.html and /events.
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { chromiumAvailable, launch, type Browser } from './browser.js';
import { get, startServer, startWriter, type Server, type Writer } from './serve-harness.js';

declare const document: any;

const SESSION = 'guard-session';
const SECRET = 'SECRET-TOKEN-7f3a91';
const src = (line: number) => ({ provider: 'claude' as const, line });
const events: ToolEvent[] = [
  { type: 'tool.started', sessionId: SESSION, partId: 'leak', at: 1_000, source: src(1), name: 'Bash', kind: 'bash', title: `cat ~/.netrc (${SECRET})`, input: { command: 'cat ~/.netrc' }, metadata: { provider: 'claude' } },
  { type: 'tool.completed', sessionId: SESSION, partId: 'leak', at: 1_200, source: src(2), output: { text: `password ${SECRET}` } },
] as ToolEvent[];

/** HTTP/1.0 lets a request leave Host out; Node answers a 1.1 request without one by itself. */
function withoutHost(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port });
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => { text += c; });
    s.on('end', () => resolve(text));
    s.on('error', reject);
    s.write(`GET ${path} HTTP/1.0\r\n\r\n`);
  });
}

describe('toolnorm view --serve: only loopback names, only its own page', () => {
  let writer: Writer;
  let server: Server;
  let port: number;
  const routes = ['/', '/index.html', '/events', '/missing'];

  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'toolnorm-view-guard-')), 'events.db');
    writer = await startWriter(db, SESSION);
    await writer.events(events);
    server = await startServer(db, SESSION);
    port = server.port;
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(130);
    await writer?.close();
  });

  it('answers the loopback names on its port: the page and the stream hold the session', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      const page = await get(port, '/', { host });
      expect([host, page.status, page.headers['content-type']]).toEqual([host, 200, 'text/html; charset=utf-8']);
      expect(page.body).toContain(SECRET);
      const stream = await get(port, '/events', { host, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' });
      expect([host, stream.status]).toEqual([host, 200]);
      expect(stream.body).toContain(SECRET);
      expect((await get(port, '/missing', { host })).status).toBe(404);
    }
    // Our own page's stream request, as Chromium sends it, and a link to the page from elsewhere.
    expect((await get(port, '/events', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    const linked = await get(port, '/', { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    expect(linked.status).toBe(200);
  });

  it('answers 421 and nothing of the session to any other Host, on every route', async () => {
    const hosts = [
      'evil.test', `evil.test:${port}`, `localhost.evil.test:${port}`, `127.0.0.1.nip.io:${port}`, `${port}.127.0.0.1.sslip.io:${port}`,
      `localhost:${port}.evil.test`, `localhost:${port + 1}`, 'localhost', `127.0.0.1:${port}0`, `127.0.0.2:${port}`,
      `0.0.0.0:${port}`, `[::ffff:127.0.0.1]:${port}`, `user@localhost:${port}`, `localhost:${port}:${port}`, '',
    ];
    for (const host of hosts) {
      for (const path of routes) {
        const r = await get(port, path, { host });
        expect([host, path, r.status]).toEqual([host, path, 421]);
        expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(r.body).toMatch(/^misdirected request: this server answers only for Host 127\.0\.0\.1:\d+, localhost:\d+, \[::1\]:\d+, not /);
        expect(r.body).not.toContain(SECRET);
        expect(r.body).not.toContain(SESSION);
      }
    }
    for (const path of routes) {
      const r = await withoutHost(port, path);
      expect(r).toMatch(/^HTTP\/1\.1 421 Misdirected Request\r\n/);
      expect(r).toContain('not a request without Host');
      expect(r).not.toContain(SECRET);
    }
  });

  it('answers 403 to another origin, and to script requests from another site', async () => {
    const host = `127.0.0.1:${port}`;
    const refused: Array<[string, Record<string, string>]> = [
      ['/events', { origin: 'http://evil.test' }],
      ['/events', { origin: `http://evil.test:${port}` }],
      ['/events', { origin: 'null' }],
      ['/events', { origin: `http://localhost:${port}` }],
      ['/', { origin: 'https://evil.test' }],
      ['/index.html', { origin: 'null' }],
      ['/events', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }],
      ['/events', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' }],
      ['/events', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }],
      ['/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }],
      ['/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }],
    ];
    for (const [path, headers] of refused) {
      const r = await get(port, path, { host, ...headers });
      expect([path, headers, r.status]).toEqual([path, headers, 403]);
      expect(r.body).toMatch(/^forbidden: /);
      expect(r.body).not.toContain(SECRET);
    }
  });

  it('refuses before anything else (a refused POST is 421, not 405); HEAD of the stream ends', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port });
      s.setEncoding('utf8');
      let text = '';
      s.on('data', (c: string) => { text += c; });
      s.on('end', () => resolve(Number(text.split(' ')[1])));
      s.on('error', reject);
      s.write(`POST / HTTP/1.1\r\nHost: evil.test:${port}\r\nContent-Length: 0\r\n\r\n`);
    });
    expect(r).toBe(421);
    // HEAD of the stream answers and ends (no stream that never closes).
    const head = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port });
      s.setEncoding('utf8');
      let text = '';
      s.on('data', (c: string) => { text += c; });
      s.on('end', () => resolve(text));
      s.on('error', reject);
      s.write(`HEAD /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\ncontent-type: text\/event-stream; charset=utf-8\r\n/i);
    expect((await get(port, '/', { host: `127.0.0.1:${port}` })).headers).toMatchObject({ 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" });
  });

  describe.runIf(chromiumAvailable())('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      // The rebinding, without DNS: the browser resolves evil.test to loopback itself. Chromium's
      // own Local Network Access check would stop the attacker's fetch before it reaches the
      // server; it is turned off to stand for the browsers that have no such check (Firefox,
      // Safari, older Chromium), so what the test sees is the server's doing.
      browser = await launch(['--host-resolver-rules=MAP evil.test 127.0.0.1', '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights']);
    });
    afterAll(async () => { await browser?.close(); });

    it('a rebound evil.test page reads nothing; the loopback page still follows the session', async () => {
      const page = await browser.page();
      // The attacker's document: served by the test (the step before the rebinding); its fetches
      // then go to evil.test:PORT, which is now 127.0.0.1:PORT, the viewer.
      await page.route(`http://evil.test:${port}/attack.html`, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>attack</title>' }));
      await page.goto(`http://evil.test:${port}/attack.html`);
      const stolen = await page.evaluate(async () => {
        const read = async (path: string) => {
          const r = await fetch(path);
          const reader = r.body!.getReader();
          let text = '';
          // To the end (a refusal), or to the first view message (the stream stays open).
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            text += new TextDecoder().decode(value);
            if (text.includes('event: view')) { await reader.cancel(); break; }
          }
          return { status: r.status, text };
        };
        return { page: await read('/index.html'), events: await read('/events') };
      });
      expect(stolen.page.status).toBe(421);
      expect(stolen.events.status).toBe(421);
      expect(stolen.page.text + stolen.events.text).not.toContain(SECRET);
      // A direct visit under the rebound name gets the refusal, not the viewer.
      const nav = await page.goto(`http://evil.test:${port}/`);
      expect(nav!.status()).toBe(421);
      expect(await page.content()).not.toContain(SECRET);

      // The control: the same browser on the loopback name gets the page and its live stream.
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForSelector('body[data-ready=true]');
      await page.waitForSelector('body[data-live=following]');
      expect(await page.locator('[data-part-id=leak] .tn-title').textContent()).toContain(SECRET);
      expect(await page.evaluate(() => document.getElementById('tn-live-alert').hidden)).toBe(true);
      await page.close();
    });
  });
});
