import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controls } from '../../contract/index.ts';
import { defaultPlugins } from '../plugins.ts';
import { startSandboxServer, type SandboxServer } from '../server.ts';
import { caller, type Caller } from '../testing/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/testing/testkit.ts';
import { consolePlugin } from './plugin.ts';

// The console's whole flow in a real browser (Debian's chromium, driven by playwright-core),
// each step also checked through the API: open with a key, fund, lend and a matching borrow,
// the position turning active without a reload, the clock past maturity, position.matured in
// the delivery log, a failing receiver's retries, a resend by the button, pause and resume.
// It writes lendcheck-reports/screenshots/console.png on every run and, with
// LENDCHECK_UPDATE_DOCS=1, docs/console.png, the README's screenshot (a tracked file, so a plain
// `npm test` leaves the checkout clean).

const CHROMIUM = process.env.LENDCHECK_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const absent = hasChromium ? '' : ` — skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`;
const KEY = 'ck_test_partner_a_growth';
export const CONSOLE_SCREENSHOT = resolve('lendcheck-reports/screenshots/console.png');
const README_SCREENSHOT = resolve('docs/console.png');

let server: SandboxServer;
let rx: Receiver;
let call: Caller;
let browser: Browser | undefined;
let answer = 200;

beforeAll(async () => {
  // No built-in liquidity: the lend matches the test's borrow and nothing else.
  server = await startSandboxServer({ port: 0, plugins: [...defaultPlugins(), consolePlugin()], liquidity: { enabled: false, delaySeconds: 5 } });
  rx = await startReceiver(() => ({ status: answer }));
  call = caller(server.url);
});
afterAll(async () => {
  await browser?.close();
  await rx?.close();
  await server?.close();
});

const positionOf = async (id: string) => (await call('GET', `/positions/${id}`)).body as { status: string };
const deliveries = async () => controls.deliveriesResponse.parse((await call('GET', '/sandbox/deliveries')).body);

async function placeOrder(page: Page, side: 'lend' | 'borrow', userId: string): Promise<void> {
  await page.selectOption('#order-side', side);
  await page.fill('#order-user', userId);
  await page.selectOption('#order-asset', 'USDC');
  await page.fill('#order-amount', '1000');
  await page.fill('#order-rate', '0.05');
  await page.selectOption('#order-maturity', '30d');
  if (side === 'borrow') {
    await page.selectOption('#order-collateral-asset', 'ETH');
    await page.fill('#order-collateral-amount', '2');
  }
  await page.click('#order-form button');
}

describe('the sandbox web console in Chromium', () => {
  it.skipIf(!hasChromium)(`runs the whole flow, each step checked through the API too${absent}`, { timeout: 180_000 }, async () => {
    const origin = new URL(server.url).origin;
    const reg = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created', 'position.matched', 'position.matured', 'withdrawal.completed'] } });
    expect(reg.status).toBe(201);
    const webhookId = reg.body.webhookId as string;

    // The page source holds no key, before or after one is typed.
    for (const p of ['/', '/console']) {
      const html = await (await fetch(`${origin}${p}`)).text();
      expect(html).toContain('id="key-form"');
      expect(html).not.toContain(KEY);
    }

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${origin}/console`);

    // Read-only without a key: market data shows, partner sections and actions do not.
    await page.waitForSelector('#books [data-market="USDC-30d"]');
    expect(await page.locator('#fund-form').isVisible()).toBe(false);

    // 1. Open with the key.
    await page.fill('#key', KEY);
    await page.click('#key-form button');
    await expect.poll(() => page.locator('#partner').textContent(), { timeout: 10_000 }).toBe('partner_a');
    expect(await page.content()).not.toContain(KEY);
    // A marker that a reload would wipe: every later update must arrive without one.
    await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));

    // 2. Fund a user.
    await page.fill('#fund-user', 'alice');
    await page.selectOption('#fund-asset', 'USDC');
    await page.fill('#fund-amount', '2500');
    await page.click('#fund-form button');
    await page.waitForSelector('#users tr[data-user="alice"] >> text=USDC 102500');
    const bal = (await call('GET', '/sandbox/users/alice/balances')).body as { balances: Array<{ asset: string; available: string }> };
    expect(bal.balances.find((b) => b.asset === 'USDC')?.available).toMatch(/^102500(\.0+)?$/);

    // 3. A lend, then a matching borrow.
    await placeOrder(page, 'lend', 'alice');
    const lendRow = page.locator('#positions tr[data-position]', { hasText: 'alice' });
    await expect.poll(() => lendRow.getAttribute('data-status'), { timeout: 10_000 }).toBe('pending');
    const lendId = (await lendRow.getAttribute('data-position'))!;
    expect((await positionOf(lendId)).status).toBe('pending');
    await placeOrder(page, 'borrow', 'bob');

    // 4. The lend turns active on the page without a reload.
    await expect.poll(() => page.locator(`#positions tr[data-position="${lendId}"]`).getAttribute('data-status'), { timeout: 10_000 }).toBe('active');
    expect((await positionOf(lendId)).status).toBe('active');
    await page.waitForSelector(`#positions tr[data-position="${lendId}"] >> text=/created .* → matched/`);

    // 5. The clock past maturity (31 days).
    await page.fill('#advance-seconds', String(31 * 86_400));
    await page.click('#advance-form button');
    await expect.poll(() => page.locator(`#positions tr[data-position="${lendId}"]`).getAttribute('data-status'), { timeout: 10_000 }).toBe('matured');
    expect((await positionOf(lendId)).status).toBe('matured');

    // 6. position.matured in the delivery log with its attempt: status, latency, signature.
    const matured = page.locator('#deliveries tr[data-type="position.matured"]').first();
    await matured.locator('.attempt[data-outcome="succeeded"]').waitFor({ timeout: 10_000 });
    expect(await matured.locator('.attempt').first().textContent()).toMatch(/^#1 200 · \d+ ms · “ok”t=\d+,v1=[0-9a-f]{64}$/);
    const log = await deliveries();
    const maturedEvents = log.events.filter((e) => e.type === 'position.matured' && e.data.positionId === lendId);
    expect(maturedEvents).toHaveLength(1);
    expect(maturedEvents[0]).toMatchObject({ state: 'delivered', attempts: [{ attempt: 1, status: 200, outcome: 'succeeded', webhookId }] });

    // 7. The receiver fails: a triggered event's attempt and its first retry (1 min later) fail.
    answer = 500;
    await page.selectOption('#trigger-type', 'withdrawal.completed');
    await page.click('#trigger-form button');
    const failing = page.locator('#deliveries tr[data-type="withdrawal.completed"]').first();
    await failing.locator('.attempt[data-attempt="1"][data-status="500"]').waitFor({ timeout: 10_000 });
    await page.fill('#advance-seconds', '61');
    await page.click('#advance-form button');
    await failing.locator('.attempt[data-attempt="2"][data-status="500"]').waitFor({ timeout: 10_000 });
    const eventId = (await failing.getAttribute('data-event'))!;
    const retried = (await call('GET', `/sandbox/events/${eventId}/attempts`)).body as { state: string; attempts: Array<{ attempt: number; status: number | null; outcome: string }> };
    expect(retried.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([[1, 500, 'failed'], [2, 500, 'failed'], [3, null, 'pending']]);

    // 8. The receiver recovers; the Resend button delivers it now, not at the 5-minute retry.
    answer = 200;
    await failing.locator('button[data-action="resend"]').click();
    await failing.locator('.attempt[data-attempt="3"][data-outcome="succeeded"]').waitFor({ timeout: 10_000 });
    await expect.poll(() => failing.getAttribute('data-state'), { timeout: 10_000 }).toBe('delivered');
    const resent = (await call('GET', `/sandbox/events/${eventId}/attempts`)).body as typeof retried;
    expect(resent.state).toBe('delivered');
    expect(resent.attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 500], [2, 500], [3, 200]]);

    // 9. Pause and resume the subscription.
    const sub = page.locator(`#subscriptions tr[data-webhook="${webhookId}"]`);
    await sub.locator('button[data-action="pause"]').click();
    await expect.poll(() => sub.getAttribute('data-state'), { timeout: 10_000 }).toBe('paused');
    expect((await deliveries()).subscriptions.find((s) => s.webhookId === webhookId)?.paused).toBe(true);
    await sub.locator('button[data-action="resume"]').click();
    await expect.poll(() => sub.getAttribute('data-state'), { timeout: 10_000 }).toBe('active');
    expect((await deliveries()).subscriptions.find((s) => s.webhookId === webhookId)?.paused).toBe(false);

    // Resting orders on both sides of one market, so the screenshot's depth chart has a shape.
    for (const [rate, amount] of [[0.05, '800'], [0.055, '1500'], [0.06, '2500']] as const) {
      expect((await call('POST', '/lend', { body: { userId: 'carol', asset: 'USDC', amount, rate, maturity: '90d' } })).status).toBe(201);
    }
    for (const [rate, amount] of [[0.045, '600'], [0.04, '1800'], [0.035, '2200']] as const) {
      expect((await call('POST', '/borrow', { body: { userId: 'dave', collateral: { asset: 'ETH', amount: '3' }, borrowAsset: 'USDC', borrowAmount: amount, rate, maturity: '90d' } })).status).toBe(201);
    }
    const book = page.locator('#books [data-market="USDC-90d"]');
    await expect.poll(async () => [await book.getAttribute('data-lends'), await book.getAttribute('data-borrows')], { timeout: 10_000 }).toEqual(['3', '3']);

    expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
    expect(errors).toEqual([]);
    // Nothing came from anywhere but the sandbox (echarts included).
    expect(requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    mkdirSync(dirname(CONSOLE_SCREENSHOT), { recursive: true });
    await page.screenshot({ path: CONSOLE_SCREENSHOT, fullPage: true });
    if (process.env.LENDCHECK_UPDATE_DOCS === '1') copyFileSync(CONSOLE_SCREENSHOT, README_SCREENSHOT);
  });
});
