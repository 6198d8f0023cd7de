import { afterEach, describe, expect, it, vi } from 'vitest';
import { controls } from '../../contract/index.ts';
import { caller, KEY_B, testSandbox } from '../testing/helpers.ts';
import { webhooksPlugin } from './plugin.ts';
import { startReceiver, type Receiver } from './testing/testkit.ts';

// The delivery controls the console's buttons use: the log, resend, pause and resume.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});

async function setup(answer: () => number) {
  const sb = testSandbox({ plugins: [webhooksPlugin({ pollMs: 5 })] });
  open.push(sb);
  const rx: Receiver = await startReceiver(() => ({ status: answer() }));
  open.push(rx);
  const call = caller(sb);
  const reg = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created', 'position.matched'] } });
  return { sb, call, rx, webhookId: reg.body.webhookId as string };
}

describe('delivery controls', () => {
  it('the log shows every attempt with status, latency, response excerpt and signature; resend makes one more attempt', async () => {
    let status = 503;
    const { call, rx, webhookId } = await setup(() => status);
    const t = await call('POST', '/sandbox/trigger', { body: { type: 'position.created' } });
    await rx.waitFor(1);
    const log = async () => controls.deliveriesResponse.parse((await call('GET', '/sandbox/deliveries')).body);
    await vi.waitFor(async () => expect((await log()).events[0].attempts[0]).toMatchObject({ attempt: 1, status: 503, outcome: 'failed' }), { timeout: 5_000 });
    const first = (await log()).events[0];
    expect(first).toMatchObject({ eventId: t.body.eventId, type: 'position.created', state: 'pending' });
    expect(first.attempts[0]).toMatchObject({ webhookId, response: 'ok', signature: expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) });
    expect(first.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    expect(first.attempts[1]).toMatchObject({ attempt: 2, outcome: 'pending' });
    expect((await log()).subscriptions).toEqual([expect.objectContaining({ webhookId, paused: false, disabled: false })]);

    status = 200;
    const r = await call('POST', `/sandbox/events/${t.body.eventId}/resend`, { body: {} });
    expect(r.status).toBe(200);
    await rx.waitFor(2);
    await vi.waitFor(async () => expect((await log()).events[0]).toMatchObject({ state: 'delivered', attempts: [{ status: 503 }, { attempt: 2, status: 200, outcome: 'succeeded' }] }), { timeout: 5_000 });
  });

  it('pause queues deliveries unsent; resume sends them', async () => {
    const { call, rx, webhookId } = await setup(() => 200);
    expect((await call('POST', `/sandbox/webhooks/${webhookId}/pause`)).body).toEqual({ webhookId, paused: true });
    await call('POST', '/sandbox/trigger', { body: { type: 'position.matched' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received).toHaveLength(0);
    expect((await call('GET', '/sandbox/deliveries')).body.subscriptions[0].paused).toBe(true);
    expect((await call('POST', `/sandbox/webhooks/${webhookId}/resume`)).body).toEqual({ webhookId, paused: false });
    await rx.waitFor(1, 5_000);
  });

  it('refuses what it cannot do with 4xx naming the field, and keeps partners apart', async () => {
    const { call, webhookId } = await setup(() => 200);
    const t = await call('POST', '/sandbox/trigger', { body: { type: 'position.created' } });
    expect((await call('GET', '/sandbox/deliveries?limit=0')).status).toBe(400);
    expect((await call('GET', '/sandbox/deliveries?limit=x')).body.error.message).toMatch(/limit/);
    const noEvent = await call('POST', '/sandbox/events/evt_nope/resend', { body: {} });
    expect(noEvent.status).toBe(404);
    expect(noEvent.body.error.message).toMatch(/^eventId/);
    expect((await call('POST', `/sandbox/events/${t.body.eventId}/resend`, { body: { webhookId: 'wh_nope' } })).body.error.message).toMatch(/^webhookId/);
    expect((await call('POST', `/sandbox/webhooks/${webhookId}/pause`, { key: KEY_B })).status).toBe(404);
    expect((await call('POST', `/sandbox/events/${t.body.eventId}/resend`, { key: KEY_B, body: {} })).status).toBe(404);
    expect((await call('GET', '/sandbox/deliveries', { key: KEY_B })).body.events).toEqual([]);
    expect((await call('GET', '/sandbox/deliveries', { key: null })).status).toBe(401);
  });

  it('lists the caller\'s users with funds per asset', async () => {
    const { call } = await setup(() => 200);
    await call('POST', '/sandbox/fund', { body: { userId: 'console_u1', asset: 'USDC', amount: '12.5' } });
    const r = controls.usersResponse.parse((await call('GET', '/sandbox/users')).body);
    expect(r.partnerId).toBe('partner_a');
    const u = r.users.find((x) => x.userId === 'console_u1')!;
    expect(u.balances.find((b) => b.asset === 'USDC')?.available).toMatch(/^100012\.5/);
    expect((await call('GET', '/sandbox/users', { key: KEY_B })).body.users.some((x: { userId: string }) => x.userId === 'console_u1')).toBe(false);
  });
});
