import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_TYPES, SIGNATURE_HEADER, eventEnvelope, shapes, type EventType } from '../../contract/index.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { defaultPlugins } from '../plugins.ts';
import { startSandboxServer, type SandboxServer } from '../server.ts';
import { caller, type Caller } from '../testing/helpers.ts';
import { startReceiver, type Receiver } from './testing/testkit.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// End to end over HTTP on a time-scaled clock (3600: an hour a second) with the default
// plugins: real engine events (not triggers) reach a subscribed receiver, signed.

describe('webhooks end to end, time-scaled sandbox', () => {
  let server: SandboxServer;
  let rx: Receiver;
  let call: Caller;
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0, timeScale: 3600, plugins: defaultPlugins() });
    rx = await startReceiver();
    call = caller(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await rx?.close();
  });

  it('delivers every event type the engine emits, each signed with the subscription secret', async () => {
    const reg = await call('POST', '/webhooks', { body: { url: rx.url, events: [...EVENT_TYPES] } });
    expect(reg.status).toBe(201);
    const secret = reg.body.secret as string;
    expect((await call('POST', '/lend', { body: { userId: 'l1', asset: 'USDC', amount: '1000', rate: 0.05, maturity: '30d' } })).status).toBe(201);
    expect((await call('POST', '/borrow', { body: { userId: 'b1', collateral: { asset: 'ETH', amount: '2' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.05, maturity: '30d' } })).status).toBe(201);
    expect((await call('POST', '/borrow', { body: { userId: 'b2', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.07, maturity: '90d' } })).status).toBe(201);
    expect((await call('POST', '/users/l1/withdraw', { body: { asset: 'DAI', amount: '1', destination: `0x${'b'.repeat(40)}` } })).status).toBe(202);
    // Matching (5 business s) and the withdrawal (10 business s) happen on their own at this
    // scale; their deliveries show they did, before the clock jumps past maturity.
    const typesSeen = () => new Set(rx.received.map((r) => JSON.parse(r.body).type as EventType));
    await vi.waitFor(() => expect([...typesSeen()]).toEqual(expect.arrayContaining(['position.matched', 'withdrawal.completed'])), { timeout: 10_000, interval: 20 });
    expect((await call('POST', '/sandbox/clock/advance', { body: { seconds: 31 * 86_400 } })).status).toBe(200);
    expect((await call('POST', '/sandbox/oracle', { body: { asset: 'ETH', priceUsd: '1000' } })).status).toBe(200);

    const seen = new Map<EventType, number>();
    const deadline = Date.now() + 10_000;
    while (seen.size < EVENT_TYPES.length && Date.now() < deadline) {
      await sleep(50);
      seen.clear();
      for (const r of rx.received) {
        const t = JSON.parse(r.body).type as EventType;
        seen.set(t, (seen.get(t) ?? 0) + 1);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...EVENT_TYPES].sort());
    for (const r of rx.received) {
      expect(verifyWebhook(r.body, r.headers[SIGNATURE_HEADER] as string, secret).ok).toBe(true);
      const env = eventEnvelope.parse(JSON.parse(r.body));
      expect(shapes.eventDataShapes[env.type as EventType].safeParse(env.data).success, `${env.type}: ${r.body}`).toBe(true);
    }
    // Every event went out once: a receiver that answers 200 sees no duplicate ids.
    const ids = rx.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
