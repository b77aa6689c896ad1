// A real Chromium for the viewer suites: Debian's /usr/bin/chromium driven by playwright-core
// (never a downloaded browser), with a fresh profile per launch. Without chromium the suites are
// skipped with a visible message, except under CI (which installs it in .ci/run): there they fail.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { REPO_ROOT } from '../helpers/corpus.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
/** Screenshots for people to look at; .toolnorm/ is git-ignored. */
export const ARTIFACTS = join(REPO_ROOT, '.toolnorm', 'artifacts', 'view');

export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium and CI must run the viewer suites`);
  console.warn(`[toolnorm tests] ${CHROMIUM} not found: viewer browser suites are SKIPPED (apt-get install chromium; they run under CI)`);
  return false;
}

export interface Browser {
  context: BrowserContext;
  /** Every request any page made, in order. */
  requests: Request[];
  /** Uncaught errors of any page (a suite asserts there are none). */
  errors: string[];
  page(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** `extraArgs`: e.g. a `--host-resolver-rules` that maps a test name to loopback (never a real lookup). */
export async function launch(extraArgs: readonly string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'toolnorm-view-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1400, height: 800 },
  });
  const requests: Request[] = [];
  const errors: string[] = [];
  context.on('request', (r) => requests.push(r));
  for (const p of context.pages()) await p.close();
  return {
    context,
    requests,
    errors,
    async page() {
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a viewer file and waits until its script has rendered. */
export async function openView(page: Page, file: string): Promise<void> {
  await page.goto(`file://${file}`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30_000 });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}
