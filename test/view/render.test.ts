// The viewer in a real Chromium: corpus recordings of each provider (one with subagents), nesting,
// errors, filters, collapse, keyboard, details, compressed outputs, hostile strings, no network,
// and an axe-core accessibility pass. Expected values come from the library's own collect(), never
// from the page's code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { collect } from '../../src/pipeline/collect.js';
import { detectAdapter } from '../../src/adapters/registry.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { CORPUS, corpusAvailable } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';
import { chromiumAvailable, launch, openView, screenshot, type Browser } from './browser.js';
import { HOSTILE, compressibleEvents, hostileEvents, loopEvents, ndjson } from './sessions.js';

// Only inside page.evaluate callbacks, which run in the browser (the project has no DOM types).
declare const document: any;
declare const window: any;

const run = chromiumAvailable() && corpusAvailable();
/** toolnorm writes epoch milliseconds (the contract also allows strings, which it never writes). */
const ms = (v: number | string | undefined) => Number(v ?? 0);
const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-view-'));

interface Recording { name: string; files: string[] }
const corpus = (...files: string[]) => files.map((f) => join(CORPUS, f));
const CLAUDE_SUBAGENTS = corpus('claude/captured/transcript-2.1.332-all-tools.filtered.jsonl', 'claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.filtered.jsonl');
/** No ACP agent recording is in the corpus: ACP frames are made from the Claude one by `normalize --to acp` (in beforeAll). */
const ACP_FILE = join(TMP, 'claude-subagents.acp.jsonl');
const RECORDINGS: Recording[] = [
  { name: 'claude-subagents', files: CLAUDE_SUBAGENTS },
  { name: 'claude-task-untimed', files: corpus('claude/public/orchestrator-streamjson-2.1.6-task-explore.jsonl') },
  { name: 'codex', files: corpus('codex/captured/exec_tools_plan.jsonl') },
  { name: 'opencode', files: corpus('opencode/captured/run1/run.jsonl') },
  // The SSE form has the task subagent's child session, whose calls nest across sessions.
  { name: 'opencode-sse', files: corpus('opencode/captured/run1/events.sse') },
  { name: 'acp-from-claude', files: [ACP_FILE] },
];

/** The parts the library itself makes of a recording. */
function expectedParts(files: string[]): NormalizedToolPart[] {
  const inputs = files.map((f) => ({ name: f, text: readFileSync(f, 'utf8') }));
  const adapter = detectAdapter({ lines: inputs[0]!.text.split('\n').filter((l) => l.trim()).slice(0, 20), file: files[0] })!.adapter;
  return collect(adapter, inputs).parts;
}

async function writeView(name: string, args: string[]): Promise<string> {
  const out = join(TMP, `${name}.html`);
  const r = await cli(['view', ...args, '-o', out]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

const matches = (page: Page) => page.evaluate(() => Number(document.body.dataset.matches));
const partCount = (page: Page) => page.locator('[data-part-id]').count();

describe.runIf(run)('toolnorm view in Chromium', () => {
  let browser: Browser;
  const pages: Record<string, string> = {};
  beforeAll(async () => {
    browser = await launch();
    const acp = await cli(['normalize', '--to', 'acp', ...CLAUDE_SUBAGENTS]);
    expect(acp.code, acp.stderr).toBe(0);
    writeFileSync(ACP_FILE, acp.stdout);
    for (const r of RECORDINGS) pages[r.name] = await writeView(r.name, r.files);
  });
  afterAll(async () => {
    await browser?.close();
    expect(browser?.errors ?? []).toEqual([]);
  });

  for (const rec of RECORDINGS) {
    it(`${rec.name}: one element per part, nesting inside the parent's group, errors with their code and message`, async () => {
      const expected = expectedParts(rec.files);
      expect(expected.length).toBeGreaterThan(0);
      const page = await browser.page();
      await openView(page, pages[rec.name]!);
      expect(await partCount(page)).toBe(expected.length);
      const seen = await page.$$eval('[data-part-id]', (els) => els.map((e) => ({
        id: e.getAttribute('data-part-id'), kind: e.getAttribute('data-kind'), state: e.getAttribute('data-state'),
        parent: e.getAttribute('data-parent-id'),
        enclosing: e.parentElement?.closest('[data-part-id]')?.getAttribute('data-part-id') ?? null,
        err: e.querySelector(':scope > .tn-row .tn-err')?.textContent ?? '',
        errTitle: e.querySelector(':scope > .tn-row .tn-err')?.getAttribute('title') ?? '',
        lane: e.querySelector(':scope > .tn-row .tn-lane')?.textContent ?? '',
        bar: !!e.querySelector(':scope > .tn-row .tn-bar'),
      })));
      const byId = new Map(seen.map((s) => [s.id, s]));
      const ids = new Set(expected.map((p) => p.id));
      for (const p of expected) {
        const s = byId.get(p.id)!;
        expect(s, p.id).toBeDefined();
        expect([s.kind, s.state]).toEqual([p.kind, p.state]);
        const parent = p.metadata?.parentId;
        if (parent && ids.has(parent)) expect([s.parent, s.enclosing]).toEqual([parent, parent]);
        else expect([s.parent, s.enclosing]).toEqual([null, null]);
        if (p.state === 'error') {
          expect(s.err).toContain(p.error.message.split('\n')[0]!.slice(0, 40));
          if (p.error.code) expect(s.err.startsWith(p.error.code)).toBe(true);
          expect(s.errTitle).toBe(p.error.message);
        } else expect(s.err).toBe('');
        // Untimed parts are marked as such and get no bar; timed parts get one.
        const timed = ms(p.timing?.startedAt) > 0;
        expect([s.bar, s.lane === 'untimed'], p.id).toEqual([timed, !timed]);
      }
      await expect.poll(() => page.locator('#tn-facts').textContent()).toContain(`Parts${expected.length}`);
      await screenshot(page, rec.name);
      await page.close();
    });
  }

  it('parallel calls overlap on the timeline, and bars follow startedAt and completedAt', async () => {
    const expected = expectedParts(corpus('opencode/captured/run1/run.jsonl'));
    const page = await browser.page();
    await openView(page, pages.opencode!);
    const boxes = new Map<string, { x: number; w: number }>();
    for (const p of expected) {
      const b = (await page.locator(`[data-part-id="${p.id}"] > .tn-row .tn-bar`).boundingBox())!;
      boxes.set(p.id, { x: b.x, w: b.width });
    }
    const t0 = Math.min(...expected.map((p) => ms(p.timing!.startedAt)));
    const t1 = Math.max(...expected.map((p) => ms(p.timing!.completedAt)));
    const lane = (await page.locator('.tn-lane').first().boundingBox())!;
    for (const p of expected) {
      const b = boxes.get(p.id)!;
      const x = lane.x + ((ms(p.timing!.startedAt) - t0) / (t1 - t0)) * lane.width;
      const w = ((ms(p.timing!.completedAt) - ms(p.timing!.startedAt)) / (t1 - t0)) * lane.width;
      expect(Math.abs(b.x - x), p.id).toBeLessThan(2);
      expect(Math.abs(b.w - Math.max(w, 3)), p.id).toBeLessThan(2);
    }
    // Two calls whose intervals intersect are drawn overlapping.
    const intersect = (p: NormalizedToolPart, q: NormalizedToolPart) => ms(q.timing!.startedAt) < ms(p.timing!.completedAt) && ms(p.timing!.startedAt) < ms(q.timing!.completedAt);
    const pairs = expected.flatMap((p, i) => expected.slice(i + 1).filter((q) => intersect(p, q)).map((q) => [p.id, q.id] as const));
    expect(pairs.length).toBeGreaterThan(0);
    for (const [p, q] of pairs) {
      const [a, b] = [boxes.get(p)!, boxes.get(q)!];
      expect(a.x < b.x + b.w && b.x < a.x + a.w, `${p} and ${q}`).toBe(true);
    }
    await page.close();
  });

  it('kind, state, provider, search and errors-only filters change the visible count', async () => {
    const expected = expectedParts(corpus('claude/public/orchestrator-streamjson-2.1.6-task-explore.jsonl'));
    const page = await browser.page();
    await openView(page, pages['claude-task-untimed']!);
    const matchingEls = () => page.locator('[data-part-id][data-match=true]').count();
    expect(await matches(page)).toBe(expected.length);

    await page.locator('#tn-filter-kind input[data-value=file_read]').uncheck();
    const notRead = expected.filter((p) => p.kind !== 'file_read').length;
    expect(await matches(page)).toBe(notRead);
    expect(await matchingEls()).toBe(notRead);
    await page.locator('#tn-filter-kind input[data-value=file_read]').check();

    await page.locator('#tn-filter-state input[data-value=complete]').uncheck();
    const notComplete = expected.filter((p) => p.state !== 'complete').length;
    expect(await matches(page)).toBe(notComplete);
    expect(await matchingEls()).toBe(notComplete);
    await page.locator('#tn-filter-state input[data-value=complete]').check();

    await page.locator('#tn-errors-only').check();
    const errors = expected.filter((p) => p.state === 'error').length;
    expect(errors).toBeGreaterThan(0);
    expect(await matches(page)).toBe(errors);
    expect(await matchingEls()).toBe(errors);
    expect(await page.locator('#tn-count').textContent()).toBe(`${errors} of ${expected.length} parts match`);
    await page.locator('#tn-errors-only').uncheck();

    await page.locator('#tn-search').fill('SCRIPTS');
    const found = expected.filter((p) => p.title.toLowerCase().includes('scripts')).length;
    expect(found).toBeGreaterThan(0);
    expect(await matches(page)).toBe(found);
    expect(await matchingEls()).toBe(found);
    // Ancestors of matches stay, as context, so nesting holds under a filter.
    const ctx = await page.$$eval('[data-part-id][data-match=true][data-parent-id]', (els) => els.every((e) => e.parentElement!.closest('[data-part-id]')!.getAttribute('data-part-id') === e.getAttribute('data-parent-id')));
    expect(ctx).toBe(true);
    await page.locator('#tn-search').fill('');

    await page.locator('#tn-filter-provider input[data-value=claude]').uncheck();
    expect(await matches(page)).toBe(0);
    expect(await page.locator('.tn-empty').textContent()).toBe('No part matches the filters.');
    await page.close();
  });

  it('collapse and expand a subagent, by mouse and by keyboard', async () => {
    const expected = expectedParts(corpus('claude/public/orchestrator-streamjson-2.1.6-task-explore.jsonl'));
    const parent = expected.find((p) => p.kind === 'subagent')!;
    const children = expected.filter((p) => p.metadata?.parentId === parent.id).length;
    expect(children).toBeGreaterThan(0);
    const page = await browser.page();
    await openView(page, pages['claude-task-untimed']!);
    const row = page.locator(`[data-part-id="${parent.id}"] > .tn-row`);
    await row.locator('.tn-toggle').click();
    expect(await row.getAttribute('aria-expanded')).toBe('false');
    expect(await partCount(page)).toBe(expected.length - children);
    await page.keyboard.press('ArrowRight');
    expect(await row.getAttribute('aria-expanded')).toBe('true');
    expect(await partCount(page)).toBe(expected.length);
    await page.keyboard.press('ArrowLeft');
    expect(await partCount(page)).toBe(expected.length - children);
    await page.locator('#tn-expand-all').click();
    expect(await partCount(page)).toBe(expected.length);
    await page.locator('#tn-collapse-all').click();
    expect(await partCount(page)).toBe(expected.length - children);
    await page.close();
  });

  it('keyboard: Tab reaches the tree, arrows move, Enter opens details, Escape closes them, / searches', async () => {
    const expected = expectedParts(RECORDINGS[0]!.files);
    const page = await browser.page();
    await openView(page, pages['claude-subagents']!);
    const active = () => page.evaluate(() => document.activeElement?.closest('[data-part-id]')?.getAttribute('data-part-id') ?? document.activeElement?.id ?? null);
    let tabs = 0;
    while ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'treeitem') {
      await page.keyboard.press('Tab');
      expect(++tabs).toBeLessThan(60);
    }
    // Pre-order: the rows as the page orders them (children right after their parent).
    const order = await page.$$eval('[data-part-id]', (els) => els.map((e) => e.getAttribute('data-part-id')));
    expect(new Set(order)).toEqual(new Set(expected.map((p) => p.id)));
    expect(await active()).toBe(order[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe(order[2]);
    await page.keyboard.press('End');
    expect(await active()).toBe(order.at(-1));
    await page.keyboard.press('Home');
    expect(await active()).toBe(order[0]);

    const child = expected.find((p) => p.metadata?.parentId)!;
    await page.locator(`[data-part-id="${child.id}"] > .tn-row`).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await active()).toBe(child.metadata!.parentId);

    await page.keyboard.press('Enter');
    const details = page.locator('#tn-details');
    expect(await details.isVisible()).toBe(true);
    const parent = expected.find((p) => p.id === child.metadata!.parentId)!;
    expect(await details.locator('h2').textContent()).toBe(parent.title);
    await page.keyboard.press('Escape');
    expect(await details.isVisible()).toBe(false);
    expect(await active()).toBe(parent.id);

    await page.keyboard.press('/');
    expect(await active()).toBe('tn-search');
    await page.close();
  });

  it('details show input, output, error, timing and metadata as pretty JSON', async () => {
    const expected = expectedParts(corpus('opencode/captured/run1/run.jsonl'));
    const failed = expected.find((p) => p.state === 'error')!;
    const done = expected.find((p) => p.state === 'complete' && 'output' in p)! as NormalizedToolPart & { output: unknown };
    const page = await browser.page();
    await openView(page, pages.opencode!);
    const sections = async () => page.$$eval('#tn-details h3', (hs) => Object.fromEntries(hs.map((h) => [h.textContent, h.nextElementSibling!.textContent])));
    await page.locator(`[data-part-id="${failed.id}"] > .tn-row`).click();
    let s = await sections();
    expect(JSON.parse(s.Error!)).toEqual(failed.error);
    expect(s.Error).toBe(JSON.stringify(failed.error, null, 2));
    expect(JSON.parse(s.Input!)).toEqual(failed.input);
    expect(JSON.parse(s.Timing!)).toEqual(failed.timing);
    expect(JSON.parse(s.Metadata!)).toEqual(failed.metadata);
    await page.locator(`[data-part-id="${done.id}"] > .tn-row`).click();
    s = await sections();
    expect(JSON.parse(s.Output!)).toEqual(done.output);
    expect(s.Error).toBeUndefined();
    expect(await page.locator(`[data-part-id="${done.id}"] > .tn-row`).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`[data-part-id="${failed.id}"] > .tn-row`).getAttribute('aria-selected')).toBe('false');
    await page.close();
  });

  it('compressed outputs: the compressed view, the original size, and the full text on demand (or a note when left out)', async () => {
    const { events, fullText } = compressibleEvents();
    const file = join(TMP, 'big.events.jsonl');
    writeFileSync(file, ndjson(events));
    const withFull = await writeView('compressed', ['--compress', file]);
    const omitted = await writeView('compressed-omit', ['--compress', '--omit-full', file]);
    expect(readFileSync(withFull, 'utf8')).toContain(JSON.stringify(fullText.split('\n')[2500]!).slice(1, -1));
    expect(readFileSync(omitted, 'utf8')).not.toContain(fullText.split('\n')[2500]!);
    const bytes = Buffer.byteLength(fullText);

    const page = await browser.page();
    await openView(page, withFull);
    await page.locator('[data-part-id=big] > .tn-row').click();
    const output = page.locator('#tn-details .tn-output');
    expect(await output.locator('.tn-note').first().textContent()).toContain(`of ${(bytes / 1024).toFixed(1)} KiB`);
    const shown = (await output.locator('pre').first().textContent())!;
    expect(shown).toContain('lines truncated');
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(30_000);
    await output.getByRole('button', { name: /Show full output/ }).click();
    expect(await output.locator('.tn-full-output pre').textContent()).toBe(fullText);
    await page.locator('[data-part-id=small] > .tn-row').click();
    expect(await page.locator('#tn-details .tn-output').count()).toBe(0);

    await openView(page, omitted);
    await page.locator('[data-part-id=big] > .tn-row').click();
    expect(await page.locator('#tn-details .tn-output').textContent()).toMatch(/The full output is not in this file: sha256 [0-9a-f]{64}/);
    expect(await page.getByRole('button', { name: /Show full output/ }).count()).toBe(0);
    await page.close();
  });

  it('hostile strings from a session are shown as text and never run or load anything', async () => {
    const file = join(TMP, 'hostile.events.jsonl');
    writeFileSync(file, ndjson(hostileEvents()));
    const out = await writeView('hostile', [file]);
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<script/g)!.length).toBe(2);
    expect(html).not.toContain('</script><script>window');
    const page = await browser.page();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await openView(page, out);
    const part = page.locator('[data-part-id="p1<script>"]');
    expect(await part.locator(':scope > .tn-row .tn-title').textContent()).toBe(HOSTILE.title);
    await part.locator(':scope > .tn-row').click();
    const text = await page.locator('#tn-details').textContent();
    expect(text).toContain(HOSTILE.output);
    expect(text).toContain(HOSTILE.input.command.replace(/"/g, '\\"'));
    await page.locator('[data-part-id=p2] > .tn-row').hover();
    await page.locator('[data-part-id=p2] > .tn-row').click();
    expect(await page.locator('[data-part-id=p2] > .tn-row .tn-err').textContent()).toBe(`<code> ${HOSTILE.error}`);
    expect(await page.locator('[data-part-id=p2]').getAttribute('data-parent-id')).toBe('p1<script>');
    expect(await page.locator('[data-part-id=p3]').getAttribute('data-parent-id')).toBeNull();
    const dom = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      scripts: document.scripts.length,
      injected: document.querySelectorAll('img, iframe, svg, b[onmouseover], textarea').length,
    }));
    expect(dom).toEqual({ pwned: null, scripts: 2, injected: 0 });
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('a loop of parentIds is cut once: every part of it is still shown, nested', async () => {
    const file = join(TMP, 'loop.events.jsonl');
    writeFileSync(file, ndjson(loopEvents()));
    const out = await writeView('loop', [file]);
    const page = await browser.page();
    await openView(page, out);
    const seen = await page.$$eval('[data-part-id]', (els) => els.map((e) => [e.getAttribute('data-part-id'), e.getAttribute('data-parent-id')]));
    // c is linked last, so it closes the loop and stays at the top: c > a > b, then d.
    expect(seen).toEqual([['c', null], ['a', 'c'], ['b', 'a'], ['d', null]]);
    await page.close();
  });

  it('opens from disk and makes no network request', async () => {
    const page = await browser.page();
    const before = browser.requests.length;
    const blocked: string[] = [];
    await browser.context.route(/^(https?|wss?|ftp):/, (route) => { blocked.push(route.request().url()); void route.abort(); });
    for (const name of Object.keys(pages)) {
      await openView(page, pages[name]!);
      await page.locator('[data-part-id] > .tn-row').first().click();
    }
    const urls = browser.requests.slice(before).map((r) => r.url());
    expect(blocked).toEqual([]);
    expect(urls.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'))).toEqual([]);
    expect(urls.filter((u) => u.startsWith('file://'))).toEqual(Object.values(pages).map((p) => `file://${p}`));
    // The watch itself works: a page without the viewer's policy that loads an image is caught.
    const probe = await browser.context.newPage();
    await probe.setContent('<img src="http://127.0.0.1:9/probe.png">');
    await expect.poll(() => blocked).toEqual(['http://127.0.0.1:9/probe.png']);
    await probe.close();
    await browser.context.unroute(/^(https?|wss?|ftp):/);
    await page.close();
  });

  it('axe-core finds no serious or critical accessibility violation', async () => {
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const page = await browser.page();
    for (const name of ['claude-subagents', 'codex', 'opencode-sse']) {
      await openView(page, pages[name]!);
      await page.locator('[data-part-id] > .tn-row').first().click();
      // Injected through the driver, not the page: the page's CSP allows no other script.
      await page.evaluate(axeSource);
      const result = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
        const r = await axe.run();
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      expect(result.filter((v) => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([]);
      // The tree's roles hold together: rows are treeitems, nested rows sit in groups.
      expect(await page.locator('[role=tree] [role=treeitem]').count()).toBe(await partCount(page));
    }
    await page.close();
  });
});
