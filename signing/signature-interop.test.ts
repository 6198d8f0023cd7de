import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { defaultPlugins } from '../sandbox/plugins.ts';
import { startSandboxServer, type SandboxServer } from '../sandbox/server.ts';
import { caller } from '../sandbox/testing/helpers.ts';
import { startReceiver, type Receiver } from '../sandbox/webhooks/testing/testkit.ts';
import { parseProfile } from '../contract/profile.ts';
import { generateWebhookSecret, signWebhook, signWebhookHeaders, verifyWebhook } from './signature.ts';

// Interoperability with the official libraries of the two timestamped schemes, both ways:
// what lendcheck signs, they verify; what they sign, verifyWebhook verifies. Each side also
// refuses a tampered body, so a pass cannot come from a verifier that accepts anything.

const body = JSON.stringify({ id: 'evt_interop_1', type: 'position.matched', timestamp: '2026-01-01T00:00:00.000Z', data: { positionId: 'pos_1', amount: '100.50' } });
const tampered = body.replace('100.50', '900.50');
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('standard-webhooks against the standardwebhooks package', () => {
  const secret = generateWebhookSecret();
  const wh = new Webhook(secret);

  it('standardwebhooks verifies what signWebhookHeaders makes, and refuses it over another body', () => {
    const headers = signWebhookHeaders(body, secret, { scheme: 'standard-webhooks', id: 'evt_interop_1' });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['x-service-signature']).toBe(headers['webhook-signature']);
    expect(wh.verify(body, headers)).toMatchObject({ id: 'evt_interop_1' });
    expect(() => wh.verify(tampered, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('verifyWebhook verifies what standardwebhooks signs (as headers, or the signature with id and timestamp), and refuses a tampered body', () => {
    const t = new Date(nowSeconds() * 1000);
    const sig = wh.sign('msg_1', t, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(t.getTime() / 1000), 'webhook-signature': sig };
    expect(verifyWebhook(body, headers, secret, { scheme: 'standard-webhooks' })).toEqual({ ok: true, timestamp: t.getTime() / 1000 });
    expect(verifyWebhook(body, new Headers(headers), secret, { scheme: 'standard-webhooks' }).ok).toBe(true);
    expect(verifyWebhook(body, sig, secret, { scheme: 'standard-webhooks', id: 'msg_1', timestamp: t.getTime() / 1000 }).ok).toBe(true);
    expect(verifyWebhook(tampered, headers, secret, { scheme: 'standard-webhooks' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, { ...headers, 'webhook-id': 'msg_2' }, secret, { scheme: 'standard-webhooks' })).toEqual({ ok: false, reason: 'mismatch' });
    // Several space-separated signatures (rotation): one match is enough.
    expect(verifyWebhook(body, { ...headers, 'webhook-signature': `v1,${'A'.repeat(43)}= ${sig}` }, secret, { scheme: 'standard-webhooks' }).ok).toBe(true);
  });

  it('refuses a stale timestamp and a missing id, as standardwebhooks does', () => {
    const old = nowSeconds() - 3600;
    const headers = signWebhookHeaders(body, secret, { scheme: 'standard-webhooks', id: 'evt_interop_1', timestamp: old });
    expect(() => wh.verify(body, headers)).toThrow(/too old/);
    expect(verifyWebhook(body, headers, secret, { scheme: 'standard-webhooks' })).toEqual({ ok: false, reason: 'stale' });
    const { 'webhook-id': _drop, ...noId } = signWebhookHeaders(body, secret, { scheme: 'standard-webhooks', id: 'x' });
    expect(verifyWebhook(body, noId, secret, { scheme: 'standard-webhooks' })).toEqual({ ok: false, reason: 'missing' });
  });
});

describe('t-v1-hmac-sha256 against the stripe package', () => {
  const stripe = new Stripe('sk_test_interop_not_used_for_requests');
  const secret = generateWebhookSecret();

  it('stripe.webhooks.constructEvent accepts the x-service-signature value signWebhook makes, and refuses a tampered body', () => {
    const header = signWebhook(body, secret);
    expect(stripe.webhooks.constructEvent(body, header, secret)).toMatchObject({ id: 'evt_interop_1', type: 'position.matched' });
    expect(() => stripe.webhooks.constructEvent(tampered, header, secret)).toThrow(/No signatures found matching/);
  });

  it('verifyWebhook accepts stripe.webhooks.generateTestHeaderString, and refuses it over a tampered body or another secret', () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    expect(verifyWebhook(body, header, secret).ok).toBe(true);
    expect(verifyWebhook(body, { 'x-service-signature': header }, secret).ok).toBe(true);
    expect(verifyWebhook(tampered, header, secret)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, header, generateWebhookSecret())).toEqual({ ok: false, reason: 'mismatch' });
  });
});

describe('the sandbox under each timestamped scheme, verified by the official library', () => {
  const servers: Array<{ s: SandboxServer; rx: Receiver }> = [];
  beforeAll(async () => {
    for (const scheme of ['standard-webhooks', 't-v1-hmac-sha256'] as const) {
      const s = await startSandboxServer({ port: 0, profile: parseProfile({ signature: { scheme } }), plugins: defaultPlugins({ rateLimits: false }) });
      servers.push({ s, rx: await startReceiver() });
    }
  });
  afterAll(async () => {
    for (const { s, rx } of servers) await Promise.all([s.close(), rx.close()]);
  });

  it('standard-webhooks: a triggered event verifies with standardwebhooks; a secret that is not base64 is refused naming the field', async () => {
    const { s, rx } = servers[0];
    const call = caller(s.url);
    const bad = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.matched'], secret: 'whsec_not-base64!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^secret/);
    const reg = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.matched'] } });
    expect(reg.status).toBe(201);
    const t = await call('POST', '/sandbox/trigger', { body: { type: 'position.matched' } });
    await rx.waitFor(1, 10_000);
    const got = rx.received[0];
    const verified = new Webhook(reg.body.secret as string).verify(got.body, got.headers as Record<string, string>) as { id: string };
    expect(verified.id).toBe(t.body.eventId);
    expect(got.headers['webhook-id']).toBe(t.body.eventId);
  });

  it('t-v1-hmac-sha256: a triggered event verifies with stripe.webhooks.constructEvent', async () => {
    const { s, rx } = servers[1];
    const call = caller(s.url);
    const reg = await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created'] } });
    const t = await call('POST', '/sandbox/trigger', { body: { type: 'position.created' } });
    await vi.waitFor(() => expect(rx.received).toHaveLength(1), { timeout: 10_000 });
    const got = rx.received[0];
    const ev = new Stripe('sk_test_x').webhooks.constructEvent(got.body, got.headers['x-service-signature'] as string, reg.body.secret as string);
    expect(ev.id).toBe(t.body.eventId);
  });
});
