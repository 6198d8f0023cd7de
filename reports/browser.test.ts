import { describe, it, expect, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeReports } from './writers.ts';
import { fixtureRunSummary } from './fixture.ts';

// Debian's chromium package, driven by playwright-core; playwright never downloads a browser here.
const CHROMIUM = process.env.LENDCHECK_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** Stable path, so people (and the lead) can open the last screenshot. */
export const SCREENSHOT = resolve('lendcheck-reports/screenshots/report.png');

const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-browser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the report in a real browser', () => {
  it.skipIf(!hasChromium)(`renders verdict, tables and charts in headless Chromium${hasChromium ? '' : ` — skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`}`, async () => {
    const { dir } = await writeReports(fixtureRunSummary(), { reportDir: tmp });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // Self-contained means no request leaves the page: fail on any that is not the file itself.
      const requests: string[] = [];
      context.on('request', (r) => requests.push(r.url()));
      const page = await context.newPage();
      const url = pathToFileURL(join(dir, 'index.html')).href;
      await page.goto(url);

      await expect(page.locator('#verdict').textContent()).resolves.toBe('FAILED');
      expect(await page.locator('#verdict').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
      await expect(page.locator('#target').textContent()).resolves.toBe('http://127.0.0.1:41873/v1');
      expect(await page.locator('table#parts tbody tr').count()).toBe(5);
      expect(await page.locator('table.coverage tbody tr').count()).toBe(9);
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

      expect(requests.filter((u) => u !== url)).toEqual([]);

      mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(50_000);
    } finally {
      await browser.close();
    }
  });
});
