import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES, SIGNATURE_HEADER, controls, errorBody, eventEnvelope, parseProfile, shapes, type Profile } from '../../contract/index.ts';
import { verifyWebhook } from '../../signing/signature.ts';
import { caller, KEY_A, KEY_B, testSandbox } from '../testing/helpers.ts';
import { webhooksPlugin } from './plugin.ts';
import { startReceiver, type Receiver } from './testing/testkit.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});

async function setup(profile?: Profile) {
  const plugin = webhooksPlugin({ pollMs: 5 });
  const sb = testSandbox({ plugins: [plugin], ...(profile ? { profile } : {}) });
  open.push(sb);
  const rx: Receiver = await startReceiver();
  open.push(rx);
  return { sb, call: caller(sb), rx, plugin };
}


describe('webhook subscription routes', () => {
  it('generates a whsec_ secret when omitted, returns it once, and lists without it', async () => {
    const { call, rx } = await setup();
    const r = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.matched'] } });
    expect(r.status).toBe(201);
    const reg = shapes.webhookRegistration.parse(r.body);
    expect(reg.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await call('GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(shapes.webhookList.parse(list.body).webhooks).toEqual([{ webhookId: reg.webhookId, url: rx.url, events: ['position.matched'], createdAt: reg.createdAt }]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    // A secret the partner chose is never echoed.
    const own = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created'], secret: 'whsec_0123456789abcdef0123' } });
    expect(own.status).toBe(201);
    expect(own.body.secret).toBeUndefined();
  });

  it('refuses a secret shorter than the profile\'s minimum (webhooks.secretMinLength), and none when it is null', async () => {
    const short = { events: ['position.created'], secret: 'whsec_ABCD' };
    const bounded = await setup();
    const r = await bounded.call('POST', '/webhooks', { body: { ...short, url: bounded.rx.url } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/secret: must carry at least 16 characters after the prefix/);
    const free = await setup(parseProfile({ webhooks: { secretMinLength: null } }));
    expect((await free.call('POST', '/webhooks', { body: { ...short, url: free.rx.url } })).status).toBe(201);
  });

  it('echoes a secret the partner gave when the profile says so (webhooks.registrationSecret "always")', async () => {
    const { call, rx } = await setup(parseProfile({ webhooks: { registrationSecret: 'always' } }));
    const own = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created'], secret: 'whsec_0123456789abcdef0123' } });
    expect(own.status).toBe(201);
    expect(own.body.secret).toBe('whsec_0123456789abcdef0123');
  });

  it.each([
    [{ url: 'http://example.com/hook', events: ['position.matched'] }, 'url'],
    [{ url: 'ftp://127.0.0.1/hook', events: ['position.matched'] }, 'url'],
    [{ url: 'not a url', events: ['position.matched'] }, 'url'],
    [{ url: 'https://example.com/hook', events: ['position.exploded'] }, 'events'],
    [{ url: 'https://example.com/hook', events: [] }, 'events'],
    [{ url: 'https://example.com/hook' }, 'events'],
    [{ url: 'https://example.com/hook', events: ['position.matched'], secret: 'nope' }, 'secret'],
  ])('refuses %j with invalid_request naming %s', async (body, field) => {
    const { call } = await setup();
    const r = await call('POST', '/webhooks', { body });
    expect(r.status).toBe(400);
    const e = errorBody.parse(r.body).error;
    expect(e.code).toBe('invalid_request');
    expect(e.message.startsWith(`${field}`)).toBe(true);
  });

  it('accepts https anywhere and http on loopback only', async () => {
    const { call } = await setup();
    for (const url of ['https://partner.example/hooks', 'http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      expect((await call('POST', '/webhooks', { body: { url, events: ['position.created'] } })).status, url).toBe(201);
    }
  });

  it('refuses a body that is not JSON, and a call without a key', async () => {
    const { call } = await setup();
    expect((await call('POST', '/webhooks', { raw: '{', headers: { 'content-type': 'application/json' } })).body.error.message).toMatch(/^body/);
    expect((await call('GET', '/webhooks', { key: null })).status).toBe(401);
  });

  it("scopes subscriptions to the partner: another partner neither sees nor deletes them", async () => {
    const { call, rx } = await setup();
    const reg = (await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created'] } })).body;
    expect((await call('GET', '/webhooks', { key: KEY_B })).body.webhooks).toEqual([]);
    const other = await call('DELETE', `/webhooks/${reg.webhookId}`, { key: KEY_B });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toMatch(/^webhookId/);
    const del = await call('DELETE', `/webhooks/${reg.webhookId}`, { key: KEY_A });
    expect(del).toMatchObject({ status: 200, body: { webhookId: reg.webhookId, deleted: true } });
    expect((await call('GET', '/webhooks')).body.webhooks).toEqual([]);
    expect((await call('DELETE', `/webhooks/${reg.webhookId}`)).status).toBe(404);
  });
});

describe('sandbox trigger and attempts controls', () => {
  it('emits each event type on demand and delivers it signed; the attempts control shows the delivery', async () => {
    const { call, rx } = await setup();
    const reg = (await call('POST', '/webhooks', { body: { url: rx.url, events: [...EVENT_TYPES] } })).body;
    const ids: string[] = [];
    for (const type of EVENT_TYPES) {
      const r = await call('POST', '/sandbox/trigger', { body: { type, userId: 'u1' } });
      expect(r.status, type).toBe(200);
      expect(controls.triggerResponse.parse(r.body).type).toBe(type);
      ids.push(r.body.eventId);
    }
    await rx.waitFor(EVENT_TYPES.length);
    for (const [i, type] of EVENT_TYPES.entries()) {
      const got = rx.received.find((x) => JSON.parse(x.body).id === ids[i])!;
      expect(verifyWebhook(got.body, got.headers[SIGNATURE_HEADER] as string, reg.secret).ok, type).toBe(true);
      const env = eventEnvelope.parse(JSON.parse(got.body));
      expect(env.type).toBe(type);
      expect(shapes.eventDataShapes[type].safeParse(env.data).success, type).toBe(true);
    }
    await sleep(30);
    const a = await call('GET', `/sandbox/events/${ids[0]}/attempts`);
    expect(a.status).toBe(200);
    expect(controls.attemptsResponse.parse(a.body)).toMatchObject({ eventId: ids[0], state: 'delivered', attempts: [{ attempt: 1, webhookId: reg.webhookId, outcome: 'succeeded', status: 200 }] });
  });

  it("uses a real position's data when positionId is given, and 404s an unknown one", async () => {
    const { call, rx } = await setup();
    await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.matched'] } });
    const lend = (await call('POST', '/lend', { body: { userId: 'u9', asset: 'USDC', amount: '250', rate: 0.05 } })).body;
    const r = await call('POST', '/sandbox/trigger', { body: { type: 'position.matched', positionId: lend.positionId } });
    expect(r.status).toBe(200);
    await rx.waitFor(1);
    expect(JSON.parse(rx.received[0].body).data).toMatchObject({ positionId: lend.positionId, userId: 'u9', amount: '250' });
    expect((await call('POST', '/sandbox/trigger', { body: { type: 'position.matched', positionId: 'pos_nope' } })).status).toBe(404);
    expect((await call('POST', '/sandbox/trigger', { body: { type: 'withdrawal.completed', positionId: lend.positionId } })).body.error.message).toMatch(/^positionId/);
    expect((await call('POST', '/sandbox/trigger', { body: { type: 'position.exploded' } })).body.error.message).toMatch(/^type/);
  });

  it("shows another partner's event as not found, and a failing delivery as pending with its next attempt", async () => {
    const { sb, call } = await setup();
    const dead = await startReceiver(() => ({ status: 500 }));
    open.push(dead);
    await call('POST', '/webhooks', { body: { url: dead.url, events: ['position.created'] } });
    const ev = (await call('POST', '/sandbox/trigger', { body: { type: 'position.created' } })).body.eventId;
    expect((await call('GET', `/sandbox/events/${ev}/attempts`, { key: KEY_B })).status).toBe(404);
    await dead.waitFor(1);
    await sleep(30);
    const a = (await call('GET', `/sandbox/events/${ev}/attempts`)).body;
    expect(a.state).toBe('pending');
    expect(a.attempts.map((x: { outcome: string }) => x.outcome)).toEqual(['failed', 'pending']);
    // The retry is due one minute of business time after the failure; moving the clock sends it.
    expect(Date.parse(a.attempts[1].scheduledAt) - Date.parse(a.attempts[0].sentAt)).toBe(60_000);
    sb.clock.advance(60_000);
    await dead.waitFor(2);
    expect(JSON.parse(dead.received[1].body).id).toBe(ev);
  });
});
