// A live page that stops reading is dropped, and says so. The server runs in-process, as a
// library user starts it (serveView over a ViewBuilder and a followed SQLite session), with a
// short stall bound. Chromium reaches it through a forward proxy on loopback that the test can
// hold: Chromium itself reads a stream eagerly (a frozen page or throttled network still takes
// every byte), so the proxy stands in for a tab that stops reading while 20 MiB is appended. Once
// released, the page reads what was queued for it, then the server's last message, and shows the
// notice instead of reconnecting; a reload catches up.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { ViewBuilder, addStoredSession, serveView } from '../../src/view/index.js';
import { chromiumAvailable, launch, screenshot, type Browser } from './browser.js';
import { bulkEvents, holdingProxy } from './serve-harness.js';

declare const document: any;

const SESSION = 'dropped-session';
const STALL_MS = 3_000;

describe.runIf(chromiumAvailable())('a live page that falls behind', () => {
  let browser: Browser;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  let store: SqliteEventStore;
  const stop = new AbortController();
  let served: Promise<void>;
  let url = '';
  const notices: string[] = [];
  let noticed = () => {};

  beforeAll(async () => {
    store = new SqliteEventStore(join(mkdtempSync(join(tmpdir(), 'toolnorm-view-dropped-')), 'events.db'));
    await store.append(SESSION, bulkEvents(SESSION, 0, 100), 0);
    const builder = new ViewBuilder();
    const head = await addStoredSession(builder, store, SESSION);
    await new Promise<void>((listening) => {
      served = serveView({
        builder, source: 'test session', signal: stop.signal,
        follow: { store, sessionId: SESSION, afterSeq: head },
        limits: { stallMs: STALL_MS },
        listening: (u) => { url = u; listening(); },
        notice: (m) => { notices.push(m); noticed(); },
      });
    });
    proxy = await holdingProxy();
    // <-loopback>: use the proxy for 127.0.0.1 too (Chromium bypasses it for loopback by default).
    browser = await launch([`--proxy-server=http://127.0.0.1:${proxy.port}`, '--proxy-bypass-list=<-loopback>']);
  });
  afterAll(async () => {
    stop.abort();
    await served;
    await store?.close();
    await browser?.close();
    await proxy?.close();
  });

  it('is dropped while it reads nothing, shows "disconnected: fell behind by N bytes; reload" once it reads again, and does not reconnect by itself', async () => {
    const page = await browser.page();
    await page.goto(url);
    await page.waitForSelector('body[data-live=following]');
    proxy.hold();
    let head = 2;
    for (let i = 1; i <= 20; i++) head = (await store.append(SESSION, bulkEvents(SESSION, i, 1 << 20), head)).lastSeq;
    while (!notices.length) await new Promise<void>((r) => { noticed = r; });
    const [, behind] = notices[0]!.match(/^dropped a live page that took nothing for 3000 ms, (\d+) bytes behind; it was told to reload$/)!;
    proxy.release();

    await page.waitForSelector('body[data-live=dropped]');
    const alert = page.locator('#tn-live-alert');
    expect(await alert.isVisible()).toBe(true);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.textContent()).toMatch(new RegExp(`^Disconnected: this page fell behind the session by ${behind} bytes \\(\\d+\\.\\d MiB; it took nothing from the server for 3\\.00 s\\)\\. Reload to catch up\\. Reload$`));
    expect(await page.locator('#tn-facts').textContent()).toContain(`disconnected: fell behind by ${behind} bytes; reload`);
    await screenshot(page, 'live-dropped');
    const streams = () => browser.requests.filter((r) => r.url() === `${url}events`).length;
    expect(streams()).toBe(1);

    await page.locator('#tn-live-alert button').click();
    await page.waitForSelector('body[data-live=following]');
    await page.waitForFunction(() => document.body.getAttribute('data-parts') === '21');
    expect(await page.evaluate(() => document.getElementById('tn-live-alert').hidden)).toBe(true);
    expect(streams()).toBe(2);
    expect(notices).toHaveLength(1);
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
