// `npm run bench -- view [--parts N] [--rounds R]`
// The viewer on a large generated session (default 10,000 nested parts): page build time and
// size in Node (size at N/4, N/2 and N shows the per-part slope), then in Debian's Chromium the
// time to first render and the frame times while scrolling the whole list. Baselines measured in
// the same run: a 100-part viewer page, and a static page holding the same N rows as plain
// elements (no script, nothing virtualized), opened and scrolled the same way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { ViewBuilder, pageOverheadBytes, renderViewHtml } from '../src/view/index.js';
import { chromiumAvailable, launch } from '../test/view/browser.js';
import { largeSessionEvents } from '../test/view/sessions.js';
import { fmt, median } from './_measure.js';

declare const document: any;
declare const performance: any;

function page(n: number): { html: string; buildMs: number } {
  const events = largeSessionEvents(n);
  const t0 = performance.now();
  const b = new ViewBuilder();
  for (const e of events) b.add(e);
  const html = renderViewHtml(b.data(`synthetic ${n} parts`));
  return { html, buildMs: performance.now() - t0 };
}

function staticPage(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) rows.push(`<div class="r"><span>Step ${i}</span><span>complete</span><span>120 ms</span></div>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title><style>body{margin:0;height:100vh;display:flex;flex-direction:column}#s{flex:1;overflow:auto}.r{height:28px;display:grid;grid-template-columns:1fr 90px 70px}</style></head><body><div id="s">${rows.join('')}</div><script>performance.mark('toolnorm-view-ready')</script></body></html>`;
}

async function firstRender(p: Page, file: string): Promise<number> {
  await p.goto(`file://${file}`);
  return p.evaluate(() => performance.getEntriesByName('toolnorm-view-ready')[0].startTime as number);
}

/**
 * Scrolls the list in `frames` animation frames, by `stepPx` each (0: top to bottom over the
 * frames); returns each frame's duration. Sent as source text: tsx would wrap a named function
 * in a helper the page does not have.
 */
async function scrollFrames(p: Page, selector: string, frames: number, stepPx = 0): Promise<number[]> {
  return p.evaluate(`new Promise((resolve) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const frames = ${frames};
    el.scrollTop = 0;
    const step = ${stepPx} || (el.scrollHeight - el.clientHeight) / frames;
    const out = [];
    let last = 0, k = 0;
    const tick = (t) => {
      if (last) out.push(t - last);
      last = t;
      if (k++ >= frames) return resolve(out);
      el.scrollTop = k * step;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`) as Promise<number[]>;
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { parts: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } } });
  const n = Number(values.parts);
  const rounds = Number(values.rounds);
  console.log(`view bench: ${n.toLocaleString('en-US')} generated parts (every 50th a subagent with 20 children, every 13th failed); Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}`);

  const overhead = pageOverheadBytes();
  const sizes = [n / 4, n / 2, n].map((k) => Math.round(k)).map((k) => ({ k, ...page(k) }));
  const big = sizes.at(-1)!;
  console.log(`page overhead (no parts): ${fmt(overhead / 1024)} KiB`);
  for (const s of sizes) console.log(`  ${s.k.toLocaleString('en-US').padStart(7)} parts: ${fmt(Buffer.byteLength(s.html) / 1e6, 2)} MB, ${fmt((Buffer.byteLength(s.html) - overhead) / s.k, 0)} bytes/part, built in ${fmt(s.buildMs, 0)} ms`);
  const slope = (Buffer.byteLength(big.html) - Buffer.byteLength(sizes[0]!.html)) / (big.k - sizes[0]!.k);
  console.log(`  marginal size: ${fmt(slope, 0)} bytes per added part (linear when it matches bytes/part above)`);

  if (!chromiumAvailable()) return;
  const dir = mkdtempSync(join(tmpdir(), 'toolnorm-view-bench-'));
  const files = { viewer: join(dir, 'viewer.html'), small: join(dir, 'small.html'), plain: join(dir, 'plain.html') };
  writeFileSync(files.viewer, big.html);
  writeFileSync(files.small, page(100).html);
  writeFileSync(files.plain, staticPage(n));
  const browser = await launch();
  try {
    const p = await browser.page();
    const ready: Record<string, number[]> = { viewer: [], small: [], plain: [] };
    const frames: Record<string, number[]> = { viewer: [], plain: [] };
    const wheel: Record<string, number[]> = { viewer: [], plain: [] };
    const dom: Record<string, number> = {};
    for (let r = 0; r < rounds; r++) {
      for (const name of ['viewer', 'small', 'plain'] as const) {
        ready[name]!.push(await firstRender(p, files[name]));
        if (name === 'small') continue;
        frames[name]!.push(...await scrollFrames(p, name === 'viewer' ? '#tn-scroll' : '#s', 300));
        wheel[name]!.push(...await scrollFrames(p, name === 'viewer' ? '#tn-scroll' : '#s', 300, 100));
        dom[name] = await p.evaluate(() => document.getElementsByTagName('*').length as number);
      }
    }
    const row = (name: string, v: number, base: number, unit = 'ms') => console.log(`  ${name.padEnd(44)} ${fmt(v).padStart(8)} ${unit}   ${fmt(v / base, 2)}× baseline`);
    console.log(`time to first render (navigation start to rendered), median of ${rounds}:`);
    row(`viewer, ${n.toLocaleString('en-US')} parts`, median(ready.viewer!), median(ready.plain!));
    row('viewer, 100 parts', median(ready.small!), median(ready.plain!));
    row(`baseline: static page, ${n.toLocaleString('en-US')} plain rows`, median(ready.plain!), median(ready.plain!));
    for (const [label, set] of [['fling: top to bottom in 300 frames', frames], ['wheel: 100 px per frame, 300 frames', wheel]] as const) {
      console.log(`scroll frame times, ${label}, × ${rounds} (p50 / p95 / max):`);
      for (const name of ['viewer', 'plain'] as const) {
        const f = set[name]!;
        console.log(`  ${(name === 'viewer' ? `viewer, ${n.toLocaleString('en-US')} parts (virtualized)` : 'baseline: static page').padEnd(44)} ${fmt(pct(f, 0.5))} / ${fmt(pct(f, 0.95))} / ${fmt(Math.max(...f))} ms; ${dom[name]!.toLocaleString('en-US')} DOM elements`);
      }
      console.log(`  p50 ratio viewer / baseline: ${fmt(pct(set.viewer!, 0.5) / pct(set.plain!, 0.5), 2)}×, p95: ${fmt(pct(set.viewer!, 0.95) / pct(set.plain!, 0.95), 2)}×`);
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
