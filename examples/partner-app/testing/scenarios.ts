import { expect, it } from 'vitest';
import type { PartnerReport } from 'lendcheck/testcontainers';
import { endpointRoute } from 'lendcheck/client';
import { LendingClient } from '../client.ts';
import { trustingHandler, webhookHandler, type Received } from '../webhook-handler.ts';

// The matcher installPartnerMatchers(expect) adds, declared for Vitest's types (a partner's own
// test project declares it the same way; lendcheck's shipped code does not import Vitest).
declare module 'vitest' {
  // The type parameter as Vitest declares it (any), which every augmentation must repeat.
  interface Matchers<T = any> {
    /** The partner report has no findings; the failure lists them with their requests. */
    toHaveNoPartnerFindings(): T;
  }
}

// The example partner app's scenarios, written once and run three ways (msw.test.ts,
// server.test.ts, container.test.ts): each way says how to reach the sandbox, move its
// clock, serve the app's webhook handler and read the partner report.

export interface Way {
  baseUrl: string;
  key(partnerId?: string, tier?: string): string;
  /** Moves the sandbox's business clock. */
  advance(seconds: number): Promise<void>;
  /** The URL the app subscribes; `serve` puts a handler behind it. */
  hookUrl: string;
  serve(handler: (req: Request) => Promise<Response>): void;
  /** How the client waits after a 429 on this way's rate-limit clock. */
  sleep(ms: number): Promise<void>;
  report(): Promise<PartnerReport>;
  resetReport(): Promise<void>;
}

const SECRET = 'whsec_partner_app_example_secret_0001';
let n = 0;
const user = (what: string) => `${what}_${process.pid}_${++n}`;

/** Polls `f` until it gives a value (deliveries arrive on their own time on a real server). */
async function until<T>(f: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function partnerScenarios(way: () => Way): void {
  const client = (tier = 'growth', onWait?: () => void) =>
    new LendingClient({
      baseUrl: way().baseUrl,
      apiKey: way().key('partner_a', tier),
      sleep: (ms) => {
        onWait?.();
        return way().sleep(ms);
      },
    });

  it('lends, a crossing borrow matches, the signed position.matched reaches the handler, maturity arrives, a withdrawal is taken; the report is empty', async () => {
    await way().resetReport();
    const events: Received[] = [];
    way().serve(webhookHandler(SECRET, (e) => events.push(e)));
    const c = client();
    expect((await c.subscribe(way().hookUrl, ['position.matched', 'position.matured'], SECRET)).status).toBeLessThan(300);
    const lend = await c.lend(user('lender'), '1000', 0.05);
    expect(lend.status, JSON.stringify(lend.body)).toBe(201);
    expect(lend.body.status).toBe('pending');
    const borrow = await c.borrow(user('borrower'), '1000', 0.06);
    expect(borrow.status, JSON.stringify(borrow.body)).toBe(201);
    const matched = await until(() => events.find((e) => e.type === 'position.matched' && e.data.positionId === lend.body.positionId), 'position.matched at the handler');
    expect(matched.data.rate).toBeTypeOf('number');
    await way().advance(31 * 86_400);
    expect((await c.position(lend.body.positionId)).body.status).toMatch(/matured|rolled/);
    const w = await c.withdraw(user('saver'), '10');
    expect(w.status, JSON.stringify(w.body)).toBeLessThan(300);
    expect(await way().report()).toHaveNoPartnerFindings();
  });

  it('meets a 429 politely: waits for the reset, then goes on; the report is empty', async () => {
    await way().resetReport();
    let waits = 0;
    const c = client('starter', () => waits++);
    const seen: number[] = [];
    // Past the Starter burst (100). On a port the bucket refills in real time while the requests
    // go out, so a slow (loaded) machine may need a few more before its 429 (bounded).
    for (let i = 0; i < 102 || (waits === 0 && i < 400); i++) seen.push((await c.call('positions.list', { userId: user('reader') })).status);
    expect(waits, 'the client met a 429 and waited').toBeGreaterThan(0);
    expect(seen.every((s) => s === 200), `statuses: ${[...new Set(seen)].join(',')}`).toBe(true);
    const report = await way().report();
    expect(report.exchanges, 'more requests than the answers: the 429s the client waited out').toBeGreaterThan(seen.length);
    expect(report).toHaveNoPartnerFindings();
  });

  it('names each planted mistake: no Content-Type, a blind retry, a poll loop, a ck_live_ key, a handler that trusts unsigned deliveries', async () => {
    await way().resetReport();
    way().serve(trustingHandler(() => {}));
    const c = client();
    await c.subscribe(way().hookUrl, ['position.created'], SECRET);
    const u = user('careless');
    // A careless client: a string body with no Content-Type (fetch sends text/plain).
    await fetch(`${way().baseUrl}${endpointRoute('lend.create').path}`, { method: 'POST', headers: { authorization: `Bearer ${way().key()}` }, body: JSON.stringify({ userId: u, asset: 'USDC', amount: '5', maturity: '30d' }) });
    // The same order again "after a timeout".
    const first = await c.lend(u, '7', 0.05);
    await c.lend(u, '7', 0.05);
    // Waiting for the match by polling.
    for (let i = 0; i < 6; i++) await c.position(first.body.positionId);
    // A production key in test code.
    await fetch(`${way().baseUrl}${endpointRoute('positions.list', { userId: u }).path}`, { headers: { authorization: 'Bearer ck_live_copied_from_the_dashboard_0000' } });
    // The trusting handler gets a real delivery (position.created), then the report's probe.
    let report = await way().report();
    for (let i = 0; i < 200 && !report.findings.some((f) => f.check === 'webhook-bad-signature'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      report = await way().report();
    }
    const named = new Set(report.findings.map((f) => f.check));
    for (const check of ['missing-content-type', 'duplicate-order', 'polling', 'live-key', 'webhook-bad-signature']) expect([...named], check).toContain(check);
    expect(JSON.stringify(report)).not.toContain('ck_live_copied');
  });
}
