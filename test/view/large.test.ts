// A 10,000-part nested session in Chromium: the list is virtualized (the DOM holds a bounded
// window of rows, never all of them), and after scrolling, or jumping with the keyboard, the rows
// shown are the right ones in the right order. No timing assertion: speed is in bench/view.ts.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/cli.js';
import { OVERSCAN_ROWS, ROW_HEIGHT_PX, VIRTUAL_AT } from '../../src/view/index.js';
import { chromiumAvailable, launch, openView, screenshot, type Browser } from './browser.js';
import { largeSessionEvents, ndjson } from './sessions.js';

declare const document: any;

const N = 10_000;
const VIEWPORT = { width: 1400, height: 800 };
/** Rows that fit the viewport plus the overscan on both sides: the most the window may hold. */
const MAX_ROWS = Math.ceil(VIEWPORT.height / ROW_HEIGHT_PX) + 2 * OVERSCAN_ROWS + 2;

const rowsInDom = (page: Page) => page.$$eval('[data-part-id]:not([data-ghost])', (els) => els.map((e) => e.getAttribute('data-part-id')!));
const idAt = (i: number) => `part-${i}`;

describe.runIf(chromiumAvailable())('toolnorm view: a 10,000-part session', () => {
  let browser: Browser;
  let file: string;
  beforeAll(async () => {
    expect(N).toBeGreaterThan(VIRTUAL_AT);
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-view-large-'));
    writeFileSync(join(dir, 'large.events.jsonl'), ndjson(largeSessionEvents(N)));
    file = join(dir, 'large.html');
    const r = await cli(['view', join(dir, 'large.events.jsonl'), '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(N * 100);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    expect(browser?.errors ?? []).toEqual([]);
  });

  it('keeps the DOM bounded and shows the right rows after scrolling', async () => {
    const page = await browser.page();
    await openView(page, file);
    expect(await page.evaluate(() => [document.body.dataset.parts, document.body.dataset.rows, document.body.dataset.virtual])).toEqual([String(N), String(N), 'true']);
    let ids = await rowsInDom(page);
    expect(ids.length).toBeLessThanOrEqual(MAX_ROWS);
    expect(ids.slice(0, 3)).toEqual([idAt(0), idAt(1), idAt(2)]);
    await screenshot(page, 'large-10k-top');

    // Scroll to the middle: rows are in pre-order, which the generator's order already is.
    const target = 5_003;
    await page.locator('#tn-scroll').evaluate((el, top) => { el.scrollTop = top; }, target * ROW_HEIGHT_PX);
    await page.waitForFunction((id) => !!document.querySelector(`[data-part-id="${id}"]`), idAt(target));
    ids = await rowsInDom(page);
    expect(ids.length).toBeLessThanOrEqual(MAX_ROWS);
    const first = Number(ids[0]!.slice(5));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, k) => idAt(first + k)));
    expect(first).toBeLessThanOrEqual(target);
    expect(first + ids.length).toBeGreaterThan(target + Math.floor(VIEWPORT.height / ROW_HEIGHT_PX) - 3);
    // The row at the top of the viewport is the one at that index.
    const topId = await page.evaluate(() => {
      const s = document.getElementById('tn-scroll').getBoundingClientRect();
      return document.elementFromPoint(s.left + 300, s.top + 5).closest('[data-part-id]').getAttribute('data-part-id');
    });
    expect(topId).toBe(idAt(target));
    // part-5003 is a child of the subagent part-5000, whose row is above the window: its group
    // is still there (row-less), so nesting holds inside the window too.
    const enclosing = await page.locator(`[data-part-id="${idAt(target)}"]`).evaluate((e) => e.parentElement.closest('[data-part-id]').getAttribute('data-part-id'));
    expect(enclosing).toBe(idAt(5000));
    await screenshot(page, 'large-10k-middle');

    // Filters work on all 10,000 parts, not just the window.
    await page.locator('#tn-errors-only').check();
    const errors = largeSessionEvents(N).filter((e) => e.type === 'tool.failed').length;
    expect(await page.evaluate(() => Number(document.body.dataset.matches))).toBe(errors);
    await page.locator('#tn-errors-only').uncheck();
    await page.close();
  });

  it('End and Home jump to the last and first part, and collapsing every subagent shortens the list', async () => {
    const page = await browser.page();
    await openView(page, file);
    await page.locator('[data-part-id] > .tn-row').first().focus();
    await page.keyboard.press('End');
    await page.waitForFunction((id) => document.activeElement?.closest('[data-part-id]')?.getAttribute('data-part-id') === id, idAt(N - 1));
    expect((await rowsInDom(page)).length).toBeLessThanOrEqual(MAX_ROWS);
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.activeElement?.closest('[data-part-id]')?.getAttribute('data-part-id') === 'part-0');

    await page.locator('#tn-collapse-all').click();
    const children = largeSessionEvents(N).filter((e) => e.type === 'tool.started' && e.metadata?.parentId).length;
    expect(await page.evaluate(() => Number(document.body.dataset.rows))).toBe(N - children);
    const ids = await rowsInDom(page);
    // part-0 is a subagent with children part-1..part-20, now hidden.
    expect(ids.slice(0, 2)).toEqual([idAt(0), idAt(21)]);
    await page.close();
  });
});
