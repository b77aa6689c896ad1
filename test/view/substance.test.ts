// The viewer in a real Chromium shows what a call did from the contract's typed metadata: the
// command with its exit code and description, the files with their diffs (markup in a diff is
// text; a diff the metadata budget replaced says so), the plan, and approvals, a pending one
// above all. And OpenCode's subagent calls, which live in the child session, nest under the
// subagent part (the SSE recording, which has the child session). Expected values come from the
// library (collect(), the events), never from the page's code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/cli.js';
import { CORPUS, corpusAvailable } from '../helpers/corpus.js';
import { chromiumAvailable, launch, openView, screenshot, type Browser } from './browser.js';
import { SUBSTANCE, ndjson, substanceEvents } from './sessions.js';

declare const document: any;
declare const window: any;
declare const getComputedStyle: any;

const TMP = mkdtempSync(join(tmpdir(), 'toolnorm-view-substance-'));
const OPENCODE_SSE = join(CORPUS, 'opencode/captured/run1/events.sse');

interface EventLine { type: string; sessionId: string; partId: string; name?: string; metadata?: Record<string, unknown> }

async function writeView(name: string, args: string[]): Promise<string> {
  const out = join(TMP, `${name}.html`);
  const r = await cli(['view', ...args, '-o', out]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

/** The details panel's sections: heading text to the element after it. */
const section = (page: Page, name: string) => page.locator('#tn-details h3', { hasText: new RegExp(`^${name}`) }).locator('xpath=following-sibling::*[1]');

async function axeSerious(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run();
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.map((n: any) => String(n.target)).join(" ") }));
  });
  return result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
}

describe.runIf(chromiumAvailable())('toolnorm view: substance in Chromium', () => {
  let browser: Browser;
  let substancePage: string;
  beforeAll(async () => {
    browser = await launch();
    substancePage = await writeView('substance', [writeEvents('substance', substanceEvents())]);
  });
  afterAll(async () => {
    await browser?.close();
    expect(browser?.errors ?? []).toEqual([]);
  });

  function writeEvents(name: string, events: readonly unknown[]): string {
    const file = join(TMP, `${name}.events.jsonl`);
    writeFileSync(file, ndjson(events));
    return file;
  }

  it.runIf(corpusAvailable())('OpenCode events.sse: the child session\'s calls nest under the task part that spawned it', async () => {
    const r = await cli(['normalize', '--to', 'events', OPENCODE_SSE]);
    expect(r.code, r.stderr).toBe(0);
    const starts = (r.lines as EventLine[]).filter((e) => e.type === 'tool.started');
    const task = starts.find((e) => typeof e.metadata?.childSessionId === 'string')!;
    expect(task, 'a subagent part naming its child session').toBeDefined();
    const child = task.metadata!.childSessionId as string;
    const inChild = starts.filter((e) => e.sessionId === child);
    expect(inChild.length).toBeGreaterThan(0);
    expect(task.sessionId).not.toBe(child);

    const page = await browser.page();
    await openView(page, await writeView('opencode-sse', [OPENCODE_SSE]));
    for (const c of inChild) {
      const el = page.locator(`[data-part-id="${c.partId}"][data-session="${child}"]`);
      expect(await el.getAttribute('data-parent-id'), c.partId).toBe(task.partId);
      expect(await el.getAttribute('data-parent-session')).toBe(task.sessionId);
      // Real DOM nesting: the child's element is inside the task's group, one level deeper.
      expect(await el.evaluate((e) => e.parentElement.closest('[data-part-id]').getAttribute('data-part-id'))).toBe(task.partId);
      expect(await el.locator(':scope > .tn-row').getAttribute('aria-level')).toBe('2');
    }
    const taskRow = page.locator(`[data-part-id="${task.partId}"] > .tn-row`);
    expect(await taskRow.getAttribute('aria-expanded')).toBe('true');
    await taskRow.locator('.tn-toggle').click();
    for (const c of inChild) expect(await page.locator(`[data-part-id="${c.partId}"]`).count()).toBe(0);
    await taskRow.locator('.tn-toggle').click();
    expect(await page.locator('[data-part-id]').count()).toBe(starts.length);
    await screenshot(page, 'opencode-sse-child-session');

    // The control: the same events with the child session's link removed leave its calls at the
    // top level, so the nesting above is the childSessionId/parentId lookup's doing.
    const unlinked = (r.lines as EventLine[]).map((e) => {
      if (!e.metadata) return e;
      const { parentId: _p, childSessionId: _c, ...metadata } = e.metadata;
      return { ...e, metadata };
    });
    await openView(page, await writeView('opencode-sse-unlinked', ['--from', 'events', writeEvents('unlinked', unlinked)]));
    for (const c of inChild) expect(await page.locator(`[data-part-id="${c.partId}"]`).getAttribute('data-parent-id')).toBeNull();
    await page.close();
  });

  it('a child session whose parts carry no parentId still nests under the subagent naming it; a parentId in another session nests only when one part has that id', async () => {
    const src = (line: number) => ({ provider: 'opencode' as const, line });
    const ev = (sessionId: string, partId: string, at: number, kind: string, metadata: Record<string, unknown> = {}) => [
      { type: 'tool.started', sessionId, partId, at, source: src(at), name: kind, kind, title: `${kind} ${partId}`, input: {}, metadata: { provider: 'opencode', ...metadata } },
      { type: 'tool.completed', sessionId, partId, at: at + 5, source: src(at + 5), output: { text: 'ok' } },
    ];
    // The child's calls come first in the file, before the subagent part that names the child.
    const events = [
      ...ev('child', 'c1', 10, 'bash'),
      ...ev('child', 'c2', 20, 'file_read', { parentId: 'c1' }),
      ...ev('other', 'task', 25, 'subagent'),
      ...ev('main', 'task', 30, 'subagent', { childSessionId: 'child' }),
      // Part ids are unique within a session only: a parentId that two other sessions both have
      // names neither, so the part stays at the top; one that only one other session has nests.
      ...ev('stray', 's1', 40, 'bash', { parentId: 'task' }),
      ...ev('solo', 'agent', 50, 'subagent'),
      ...ev('elsewhere', 'e1', 60, 'bash', { parentId: 'agent' }),
    ];
    const page = await browser.page();
    await openView(page, await writeView('child-first', ['--from', 'events', writeEvents('child-first', events)]));
    const seen = await page.$$eval('[data-part-id]', (els) => els.map((e) => [e.getAttribute('data-session'), e.getAttribute('data-part-id'), e.getAttribute('data-parent-id'), e.getAttribute('data-parent-session')]));
    expect(seen).toEqual([
      ['other', 'task', null, null],
      ['main', 'task', null, null],
      ['child', 'c1', 'task', 'main'],
      ['child', 'c2', 'c1', null],
      ['stray', 's1', null, null],
      ['solo', 'agent', null, null],
      ['elsewhere', 'e1', 'agent', 'solo'],
    ]);
    await page.close();
  });

  it('the diff view: each file with its operation, path and +added/-removed, diff lines marked, markup shown as text', async () => {
    const events = substanceEvents();
    const page = await browser.page();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await openView(page, substancePage);
    await page.locator('[data-part-id=edit] > .tn-row').click();
    const file = section(page, 'File').locator('.tn-file');
    expect(await file.getAttribute('data-path')).toBe(`${SUBSTANCE.cwd}/src/app.ts`);
    expect(await file.getAttribute('data-operation')).toBe('modify');
    expect(await file.locator('.tn-file-head').textContent()).toBe(`modify ${SUBSTANCE.cwd}/src/app.ts +2 -1`);
    const lines = await file.locator('.tn-diff-line').evaluateAll((els) => els.map((e) => [e.getAttribute('data-line'), e.textContent]));
    const started = events.find((e) => e.partId === 'edit' && e.type === 'tool.started') as { metadata: { files: { diff: string }[] } };
    const diff = started.metadata.files[0]!.diff;
    // Every line of the contract's diff, in order, with its kind.
    expect(lines.map((l) => l[1])).toEqual(diff.replace(/\n$/, '').split('\n'));
    expect(lines).toEqual([
      ['meta', `--- ${SUBSTANCE.cwd}/src/app.ts`],
      ['meta', `+++ ${SUBSTANCE.cwd}/src/app.ts`],
      ['hunk', '@@ -1,2 +1,3 @@'],
      ['del', '-const x = 1;'],
      ['add', '+const x = "<script>window.__pwned=8</script>";'],
      ['add', '+<img src=x onerror="window.__pwned=9">'],
      ['ctx', ' keep();'],
    ]);
    // Added and removed lines look different (not by the mark alone).
    const bg = await file.locator('.tn-diff-line').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    expect(new Set([bg[3], bg[4], bg[6]]).size).toBe(3);
    const dom = await page.evaluate(() => ({ pwned: window.__pwned ?? null, scripts: document.scripts.length, imgs: document.querySelectorAll('#tn-details img, #tn-details script').length }));
    expect(dom).toEqual({ pwned: null, scripts: 2, imgs: 0 });
    expect(dialogs).toEqual([]);

    // A created file: /dev/null on the old side, only additions.
    await page.locator('[data-part-id=write] > .tn-row').click();
    expect(await section(page, 'File').locator('.tn-file-head').textContent()).toBe(`create ${SUBSTANCE.cwd}/README.md +2 -0`);
    expect(await section(page, 'File').locator('.tn-diff-line').evaluateAll((els) => els.map((e) => e.getAttribute('data-line')))).toEqual(['meta', 'meta', 'hunk', 'add', 'add']);
    await screenshot(page, 'substance-diff');
    await page.close();
  });

  it('a diff the metadata budget replaced by its size marker says so, with the size, and keeps the file\'s stats', async () => {
    const r = await cli(['normalize', '--from', 'events', '--to', 'parts', join(TMP, 'substance.events.jsonl')]);
    const huge = (r.lines as { id: string; metadata: { files: { diff: string; stats: { added: number } }[] } }[]).find((p) => p.id === 'huge')!;
    // The reducer's budget, not the test, made the marker.
    const bytes = Number(/^\[omitted by toolnorm: (\d+) bytes\]$/.exec(huge.metadata.files[0]!.diff)![1]);
    expect(bytes).toBeGreaterThan(16 * 1024);
    const page = await browser.page();
    await openView(page, substancePage);
    await page.locator('[data-part-id=huge] > .tn-row').click();
    const file = section(page, 'File').locator('.tn-file');
    expect(await file.locator('.tn-file-head').textContent()).toBe(`modify ${SUBSTANCE.cwd}/big.txt +${SUBSTANCE.hugeLines} -0`);
    expect(await file.locator('.tn-diff-omitted').textContent()).toBe(`The diff was left out under toolnorm's metadata budget (${(bytes / 1024).toFixed(1)} KiB, ${bytes} bytes).`);
    expect(await file.locator('.tn-diff-line').count()).toBe(0);
    await page.close();
  });

  it('the command: metadata.command.command (not the input), the exit code, and the description beside it', async () => {
    const page = await browser.page();
    await openView(page, substancePage);
    await page.locator('[data-part-id=cmd] > .tn-row').click();
    const box = section(page, 'Command');
    expect(await box.locator('pre.tn-cmd').textContent()).toBe('cat README.md');
    const facts = await box.locator('dl div').evaluateAll((ds) => ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent]));
    expect(facts).toEqual([['Description', 'Show the readme'], ['Exit code', '0']]);
    // A command that has not ended has no exit code yet, and no description was given.
    await page.locator('[data-part-id=wait] > .tn-row').click();
    expect(await section(page, 'Command').locator('dl').textContent()).toBe('Exit codenot known');
    await page.close();
  });

  it('the plan: every entry in order with its status, and its priority when given', async () => {
    const page = await browser.page();
    await openView(page, substancePage);
    await page.locator('[data-part-id=plan] > .tn-row').click();
    const entries = await section(page, 'Plan').locator('li').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-status'), li.textContent]));
    expect(entries).toEqual([
      ['completed', 'completed Read the spec'],
      ['in_progress', 'in progresshigh priority Write the <b>parser</b>'],
      ['pending', 'pendinglow priority Ship it'],
      ['cancelled', 'cancelled Old idea'],
    ]);
    expect(await page.locator('#tn-details b').count()).toBe(0);
    await page.close();
  });

  it('approvals: a pending one says "waiting for approval" in its row and details; approved, denied (also an error) and expired say so', async () => {
    const page = await browser.page();
    await openView(page, substancePage);
    const rowBadge = (id: string) => page.locator(`[data-part-id=${id}] > .tn-row .tn-badge`);
    expect(await page.locator('[data-part-id=wait]').getAttribute('data-approval')).toBe('pending');
    expect(await page.locator('[data-part-id=wait]').getAttribute('data-state')).toBe('started');
    expect(await rowBadge('wait').textContent()).toBe('waiting for approval');
    // The row's accessible name says it too (the badge is text, not colour).
    expect(await page.getByRole('treeitem', { name: /waiting for approval/ }).count()).toBe(1);
    // In the row only what needs the person: waiting, or never answered. An approved call is a
    // success and a denied one reads as its `denied` error; their details say so (below).
    expect([await rowBadge('ok').count(), await rowBadge('no').count(), await rowBadge('late').textContent()]).toEqual([0, 0, 'approval expired']);
    expect(await rowBadge('cmd').count()).toBe(0);
    expect(await page.locator('[data-part-id=no]').getAttribute('data-state')).toBe('error');
    expect(await page.locator('[data-part-id=no] > .tn-row .tn-err b').textContent()).toBe('denied');

    await page.locator('[data-part-id=wait] > .tn-row').click();
    const box = section(page, 'Approval');
    expect(await box.locator('.tn-badge').textContent()).toBe('waiting for approval');
    expect(await box.locator('dl').textContent()).toBe(`Asked or answered byuserReasondeletes filesRequested${new Date(1710).toISOString()}`);
    expect(await box.locator('li').allTextContents()).toEqual(['Allow once (allow_once)', 'Reject (reject_once)']);
    await page.locator('[data-part-id=ok] > .tn-row').click();
    expect(await section(page, 'Approval').locator('.tn-badge').textContent()).toBe('approved');
    await page.locator('[data-part-id=no] > .tn-row').click();
    expect(await section(page, 'Approval').locator('.tn-badge').textContent()).toBe('denied');
    expect(await section(page, 'Approval').locator('li.tn-chosen').textContent()).toBe('Reject (reject_once): chosen');
    expect(JSON.parse((await section(page, 'Error').textContent())!).code).toBe('denied');
    await screenshot(page, 'substance-approvals');
    await page.close();
  });

  it('axe-core finds no serious or critical violation with the diff, plan, command and approval shown', async () => {
    const page = await browser.page();
    await openView(page, substancePage);
    for (const id of ['edit', 'plan', 'wait', 'cmd', 'huge']) {
      await page.locator(`[data-part-id=${id}] > .tn-row`).click();
      expect(await axeSerious(page), id).toEqual([]);
    }
    await page.close();
  });
});
