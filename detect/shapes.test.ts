import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../contract/index.ts';
import type { Reply } from '../conformance/http.ts';
import { learnShapes, type SeenReply } from './shapes.ts';

const reply = (status: number, json: unknown): Reply => ({ status, headers: {}, text: JSON.stringify(json), json, exchange: { method: 'X', url: 'u', status, requestHeaders: {}, responseHeaders: {}, durationMs: 1 } });
// Each answer names the endpoint its call was made to (Probe.call), never read back from its path.
const seen = (endpoint: string, method: string, path: string, status: number, json: unknown, keyed = true): SeenReply => ({ method, path, keyed, reply: reply(status, json), endpoint });

describe('learning the bodies the spec does not show', () => {
  it('records every success body of each such endpoint, field by field with its JSON type (two types seen: null)', () => {
    const got = learnShapes(defaultProfile, [
      seen('webhooks.create', 'POST', '/webhooks', 400, { error: { code: 'invalid_request', message: 'secret' } }),
      seen('webhooks.create', 'POST', '/webhooks', 201, { id: 'wh_1', url: 'https://x', events: ['position.created'], active: true, retries: 5, meta: null }),
      seen('position.cancel', 'POST', '/positions/pos_1/cancel', 200, { positionId: 'pos_1', status: 'cancelled' }),
      seen('position.cancel', 'POST', '/positions/pos_2/cancel', 200, { positionId: 'pos_2', status: 3, refund: '1' }),
      // Spec-shown bodies are not learned: the spec already says them.
      seen('lend.create', 'POST', '/lend', 201, { positionId: 'p' }),
      // The shared book path: with a key it is the authenticated book (not shown), without the public one (shown).
      seen('orderbook.get', 'GET', '/markets/USDC/orderbook?depth=1', 200, { lends: [], borrows: [], asset: 'USDC' }),
      seen('public.orderbook', 'GET', '/markets/USDC-30d/orderbook', 200, { lends: [], borrows: [] }, false),
    ]);
    expect(got.map((g) => [g.key, g.fields])).toEqual([
      ['POST /positions/{positionId}/cancel', { positionId: 'string', status: 'null', refund: 'string' }],
      ['GET /markets/{asset}/orderbook', { lends: 'array', borrows: 'array', asset: 'string' }],
      ['POST /webhooks', { id: 'string', url: 'string', events: 'array', active: 'boolean', retries: 'number', meta: 'null' }],
    ]);
  });

  it('reads a public payload inside the {data, timestamp} wrapper the profile names, and skips a body without it', () => {
    const p = parseProfile({ publicEnvelope: { '/vaults': 'data', '/analytics/tvl': 'data' } });
    const got = learnShapes(p, [
      seen('public.vaults', 'GET', '/vaults', 200, { data: { vaults: [] }, timestamp: '2026-01-01T00:00:00Z' }, false),
      seen('public.tvl', 'GET', '/analytics/tvl?period=7d', 200, { points: [] }, false),
    ]);
    expect(got.map((g) => [g.key, g.fields])).toEqual([['GET /vaults', { vaults: 'array' }]]);
  });

  it('learns nothing from a request that named no endpoint, whatever its path looks like', () => {
    const off: SeenReply = { method: 'POST', path: '/positions/pos_1/cancel', keyed: true, reply: reply(200, { positionId: 'pos_1' }) };
    expect(learnShapes(defaultProfile, [off])).toEqual([]);
  });
});
