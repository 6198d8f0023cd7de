import { describe, it, expect, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import type { RunSummary } from '../kernel/results.ts';
import { writeReports } from './writers.ts';
import { fixtureRunSummary } from './fixture.ts';
import { fixtureComparedRun } from './history/fixture.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { defaultProfile, REQUIREMENTS } from '../contract/index.ts';
import { serveWrapped } from '../conformance/embedded.ts';
import { MUTANTS_BY_ID } from '../conformance/testing/mutants/index.ts';
import { runChecks } from '../conformance/runner.ts';

// Debian's chromium package, driven by playwright-core; playwright never downloads a browser here.
const CHROMIUM = process.env.LENDCHECK_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** Stable path, so people (and the lead) can open the last screenshot. */
export const SCREENSHOT = resolve('lendcheck-reports/screenshots/report.png');
export const SCREENSHOT_COMPARED = resolve('lendcheck-reports/screenshots/report-compared.png');
export const SCREENSHOT_FAILURES = resolve('lendcheck-reports/screenshots/report-failures.png');

const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-browser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const absent = hasChromium ? '' : ` — skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`;

/**
 * Writes the reports of a run, opens index.html in headless Chromium and hands the page to
 * `look`. Self-contained means no request leaves the page: any that is not the file fails.
 */
async function inBrowser(summary: RunSummary, look: (page: Page) => Promise<void>): Promise<void> {
  const { dir } = await writeReports(summary, { reportDir: tmp });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    const url = pathToFileURL(join(dir, 'index.html')).href;
    await page.goto(url);
    await look(page);
    expect(requests.filter((u) => u !== url)).toEqual([]);
  } finally {
    await browser.close();
  }
}

describe('the report in a real browser', () => {
  it.skipIf(!hasChromium)(`renders verdict, tables and charts in headless Chromium${absent}`, async () => {
    await inBrowser(fixtureRunSummary(), async (page) => {
      await expect(page.locator('#verdict').textContent()).resolves.toBe('FAILED');
      expect(await page.locator('#verdict').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
      await expect(page.locator('#target').textContent()).resolves.toBe('http://127.0.0.1:41873/v1');
      expect(await page.locator('table#parts tbody tr').count()).toBe(5);
      // 10 rows: the fixture's nine conformance requirements and one receiver rule (HOOK-invalid-401).
      expect(await page.locator('table.coverage tbody tr').count()).toBe(10);
      expect(await page.locator('.failure .exchange pre').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('table.latency tbody tr').count()).toBe(4);
      expect(await page.locator('table.timeline tbody tr').count()).toBe(6 + 3 + 6);

      // Charts: inline SVG elements that are laid out with real size and hold drawn shapes.
      const charts = page.locator('.chart svg');
      expect(await charts.count()).toBe(5);
      for (let i = 0; i < 5; i++) {
        const box = await charts.nth(i).boundingBox();
        expect(box && box.width > 300 && box.height > 150, `chart ${i} box ${JSON.stringify(box)}`).toBe(true);
        expect(await charts.nth(i).locator('path').count()).toBeGreaterThan(10);
      }
      expect(await page.locator('.load-chart svg text', { hasText: 'limit (60/min)' }).count()).toBe(1);
      expect(await page.locator('.timeline-chart svg text', { hasText: 'position.created evt_01J9Z3' }).count()).toBe(1);

      mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(50_000);
    });
  });

  it.skipIf(!hasChromium)(`shows the "compared with" section: sparklines per tier and endpoint, the diff table, the regressions${absent}`, async () => {
    await inBrowser(fixtureComparedRun(7), async (page) => {
      const section = page.locator('section.part-regression');
      await expect(section.locator('h2').textContent()).resolves.toMatch(/^Compared with: against 20261121T020000Z-05ab\s+failed$/);
      await expect(section.locator('#baseline').textContent()).resolves.toContain('Baseline 20261121T020000Z-05ab');
      // One sparkline per trended figure: p95 of every endpoint of every tier and of matching,
      // the burst and refill of each tier, accepted per series and time to match.
      const sparks = section.locator('table.trends td.sparkline svg');
      const trendRows = await section.locator('table.trends tbody tr').count();
      expect(trendRows).toBeGreaterThanOrEqual(4 * 2 + 3 * 2 + 1);
      expect(await sparks.count()).toBe(trendRows);
      for (let i = 0; i < trendRows; i++) {
        const box = await sparks.nth(i).boundingBox();
        expect(box && box.width >= 150 && box.height >= 30, `sparkline ${i} box ${JSON.stringify(box)}`).toBe(true);
        expect(await sparks.nth(i).locator('path').count()).toBeGreaterThan(0);
      }
      for (const tier of ['starter', 'growth', 'scale']) expect(await section.locator('table.trends tr', { hasText: `smoke rate limit, ${tier}` }).count()).toBeGreaterThanOrEqual(2);
      // The regressions are named in the diff table and in the failed checks.
      const regressed = section.locator('table.diff tr.row-failed');
      expect(await regressed.count()).toBe(2);
      await expect(regressed.nth(0).textContent()).resolves.toMatch(/lend\.create\s*p95.*↓ worse.*significant: slower.*regression\s*p95=10%/);
      await expect(regressed.nth(1).textContent()).resolves.toMatch(/rate-limit \(growth\) smoke\s*burstNet\s*500\s*497.*burst=0/);
      expect(await section.locator('table.checks tr.row-failed').count()).toBe(3); // p95, burst, and the new conformance failure
      expect(await section.locator('ul.new-failures li').count()).toBeGreaterThan(0);

      mkdirSync(resolve(SCREENSHOT_COMPARED, '..'), { recursive: true });
      await section.screenshot({ path: SCREENSHOT_COMPARED });
      expect(statSync(SCREENSHOT_COMPARED).size).toBeGreaterThan(30_000);
    });
  });

  it.skipIf(!hasChromium)(`a failing run: each failure names the requirements it breaks, and its reproduction is visible, copied whole in one click, and runs${absent}`, async () => {
    // A real failing run: the suite against a mutant answering 403 where 401 is due.
    const t = await serveWrapped(MUTANTS_BY_ID.get('auth.403-not-401')!.install({}), { profile: defaultProfile, validateResponses: false });
    try {
      const part = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, only: ['auth.missing-header', 'errors.position-not-found', 'endpoint.rates.get'] });
      const failed = part.checks.filter((c) => c.status === 'failed');
      expect(failed.map((c) => c.id)).toEqual(['auth.missing-header']);
      const summary: RunSummary = { runId: 'failing-run', verdict: 'failed', target: t.url, profile: defaultProfile.name, startedAt: part.startedAt, durationMs: part.durationMs, parts: [part] };
      await inBrowser(summary, async (page) => {
        expect(await page.locator('script').count(), 'the page stays script-free').toBe(0);
        const f = page.locator('.failure');
        expect(await f.count()).toBe(1);
        // Which requirement it breaks: each id with the spec's words for it.
        const breaks = f.locator('ul.breaks li');
        expect(await breaks.allTextContents()).toEqual(failed[0].requirements.map((id) => expect.stringContaining(id)));
        const auth4 = REQUIREMENTS.find((r) => r.id === 'AUTH-4')!;
        await expect(breaks.filter({ hasText: 'AUTH-4' }).textContent()).resolves.toContain(auth4.text);
        // The reproduction: open, visible, and one click selects it whole (user-select: all) for copying.
        const pre = f.locator('pre.repro');
        expect(await pre.isVisible()).toBe(true);
        const text = (await pre.textContent())!;
        expect(text).toMatch(/^# reproduce:\ncurl -sS -i .*'http:\/\/127\.0\.0\.1:\d+\/v1\/lend'/);
        await pre.click();
        const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
        expect(selected.trim()).toBe(text.trim());
        // What was copied from the page runs, and shows the wrong answer again.
        // (asynchronously: the target answers from this process)
        const { stdout: out } = await promisify(execFile)('bash', ['-c', selected], { env: { PATH: process.env.PATH, LENDCHECK_API_KEY: t.apiKey }, timeout: 30_000 });
        expect(out).toMatch(/^HTTP\/1\.1 403/m);
        expect(await page.content()).not.toContain(t.apiKey);
        mkdirSync(resolve(SCREENSHOT_FAILURES, '..'), { recursive: true });
        await f.screenshot({ path: SCREENSHOT_FAILURES });
      });
    } finally {
      await t.close();
    }
  });
});
