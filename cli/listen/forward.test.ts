import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook } from '../../signing/signature.ts';
import { exampleProfile } from '../../examples/profiles/load.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { caller } from '../../sandbox/testing/helpers.ts';
import { startReceiver } from '../../sandbox/webhooks/testing/testkit.ts';
import { formatLine, startListen } from './forward.ts';

// startListen against another implementation: the sandbox playing a partner sandbox with no
// controls under fintech-rest (hex signatures, a required secret, no DELETE /webhooks, 200 for
// POST /webhooks). Events come from real activity (a lend and a crossing borrow).

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('startListen', () => {
  it('forwards organic events from a target without controls, under its profile, and leaves what it cannot delete, saying so', { timeout: 60_000 }, async () => {
    const profile = exampleProfile('fintech-rest');
    const target = await startSandboxServer({ port: 0, profile, controls: false });
    cleanups.push(() => target.close());
    const rx = await startReceiver();
    cleanups.push(() => rx.close());
    const lines: string[] = [];
    const l = await startListen({ baseUrl: target.url, apiKey: 'ck_test_partner_a_growth', profile, forwardTo: rx.url, events: ['position.created', 'position.matched'], log: (x) => lines.push(x) });
    cleanups.push(() => l.close());
    expect(l.webhookId).toMatch(/^wh_/);

    const call = caller(target.url);
    expect((await call('POST', '/lend', { body: { userId: 'fw_l', asset: 'USDC', amount: '100', rate: 0.05, maturity: '30d' } })).status).toBe(200);
    expect((await call('POST', '/borrow', { body: { userId: 'fw_b', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '100', rate: 0.05, maturity: '30d' } })).status).toBe(200);
    await vi.waitFor(() => expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(expect.arrayContaining(['position.created', 'position.matched'])), { timeout: 15_000, interval: 50 });
    // What arrived is the target's own signed bytes: they verify with the secret under the profile's scheme.
    for (const r of rx.received) expect(verifyWebhook(r.body, r.headers, l.secret, { scheme: 'hmac-sha256-hex' }), JSON.stringify(r.headers)).toEqual({ ok: true });
    // The line is printed once the receiver's answer is back, a moment after the receiver has the request.
    await vi.waitFor(() => expect(lines.some((x) => /position\.matched\s+evt_\S+\s+→ 200\s+\d+ ms$/.test(x))).toBe(true), { timeout: 5_000 });
    expect(l.forwarded.every((f) => f.status === 200)).toBe(true);

    // A forged delivery is refused and not forwarded.
    const forged = await fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': '0'.repeat(64) }, body: '{"id":"evt_forged","type":"position.matched"}' });
    expect(forged.status).toBe(401);
    await vi.waitFor(() => expect(lines.some((x) => x.includes('evt_forged'))).toBe(true), { timeout: 5_000 });
    expect(rx.received.some((r) => r.body.includes('evt_forged'))).toBe(false);
    expect(lines.find((x) => x.includes('evt_forged'))).toMatch(/signature mismatch/);

    await l.close();
    expect(lines.find((x) => x.includes('no DELETE'))).toMatch(/no DELETE \/webhooks\/\{id\}; subscription wh_\S+ is left on it/);
  });

  it('fails at start, naming the answer, when the target refuses the subscription', async () => {
    const target = await startSandboxServer({ port: 0, profile: exampleProfile('fintech-rest'), controls: false });
    cleanups.push(() => target.close());
    await expect(startListen({ baseUrl: target.url, apiKey: 'ck_test_unknown_key', profile: exampleProfile('fintech-rest'), forwardTo: 'http://127.0.0.1:9/', log: () => {} })).rejects.toThrow(/POST .*\/webhooks answered 401/);
  });

  it('prints one line per event: time, type, id, status or the error, latency', () => {
    const at = new Date('2026-01-01T10:11:12Z');
    expect(formatLine({ id: 'evt_1', type: 'position.matched', status: 200, ms: 12.4 }, at)).toMatch(/^10:11:12 {2}position\.matched\s+evt_1\s+→ 200 {2}12 ms$/);
    expect(formatLine({ id: 'evt_2', type: 'position.created', status: null, ms: 5000, error: 'ECONNREFUSED' }, at)).toMatch(/→ ✗ ECONNREFUSED {2}5000 ms$/);
  });
});
