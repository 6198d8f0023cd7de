import { describe, expect, it } from 'vitest';
import * as s from './schemas.ts';
import { endpoints } from './endpoints.ts';
import { buildOpenApi } from './openapi/document.ts';
import { defaultProfile, parseProfile } from './profile.ts';

/** A request body as the profile's endpoint table checks it: the rate bound (bounds.rateBelow) is the profile's, not the spec's. */
const bodyOf = (id: string, p = defaultProfile) => endpoints(p).find((e) => e.id === id)!.body!;

// Spec examples (parts 2, 4, 6, 7) must pass; each field rule must reject a wrong value.

const lend = { userId: 'user_123', asset: 'USDC', amount: '1000.00', rate: 0.08, maturity: '30d', mode: 'easy', autoRollover: true };
const borrow = {
  userId: 'user_123',
  collateral: { asset: 'ETH', amount: '1.5' },
  borrowAsset: 'USDC',
  borrowAmount: '2000.00',
  rate: 0.09,
  maturity: '2026-12-31',
  autoRefinance: false,
};
const created = {
  positionId: 'pos_abc',
  status: 'pending',
  userId: 'user_123',
  asset: 'USDC',
  amount: '1000.00',
  rate: 0.08,
  maturity: '2026-02-14T00:00:00Z',
  autoRollover: true,
  createdAt: '2026-01-15T10:30:00Z',
};
const full = {
  ...created,
  status: 'active',
  type: 'lend',
  cbt: { amount: '1000.00', tokenAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
  projectedReturn: '6.58',
  accruedInterest: '0.22',
  autoRefinance: false,
  matchedAt: '2026-01-15T10:30:05Z',
};

function rejects(schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) {
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);
}

describe('lend request', () => {
  it('accepts the spec example and the minimal form', () => {
    expect(s.lendRequest.parse(lend)).toEqual(lend);
    expect(s.lendRequest.safeParse({ userId: 'u', asset: 'DAI', amount: '5' }).success).toBe(true);
    expect(s.lendRequest.safeParse({ ...lend, maturity: '2027-03-31', mode: 'advanced' }).success).toBe(true);
  });
  it.each([
    ['userId missing', { ...lend, userId: undefined }],
    ['userId not a string', { ...lend, userId: 42 }],
    ['userId empty', { ...lend, userId: '' }],
    ['asset outside USDC/USDT/DAI', { ...lend, asset: 'ETH' }],
    ['asset missing', { ...lend, asset: undefined }],
    ['amount as number', { ...lend, amount: 1000 }],
    ['amount with exponent', { ...lend, amount: '1e3' }],
    ['amount negative', { ...lend, amount: '-5' }],
    ['amount zero', { ...lend, amount: '0.00' }],
    ['amount missing', { ...lend, amount: undefined }],
    ['rate as string', { ...lend, rate: '0.08' }],
    ['rate as percent', { ...lend, rate: 8 }],
    ['rate negative', { ...lend, rate: -0.01 }],
    ['maturity bad duration', { ...lend, maturity: '30days' }],
    ['maturity impossible date', { ...lend, maturity: '2026-02-30' }],
    ['maturity as number', { ...lend, maturity: 30 }],
    ['mode unknown', { ...lend, mode: 'expert' }],
    ['autoRollover as string', { ...lend, autoRollover: 'true' }],
  ])('rejects %s', (_n, v) => rejects(bodyOf('lend.create'), v));
});

describe('borrow request', () => {
  it('accepts the spec example', () => {
    expect(s.borrowRequest.parse(borrow)).toEqual(borrow);
    expect(s.borrowRequest.safeParse({ ...borrow, collateral: { asset: 'USDC', amount: '5000' } }).success).toBe(true);
  });
  it.each([
    ['collateral missing', { ...borrow, collateral: undefined }],
    ['collateral.asset missing', { ...borrow, collateral: { amount: '1' } }],
    ['collateral.amount as number', { ...borrow, collateral: { asset: 'ETH', amount: 1.5 } }],
    ['borrowAsset missing', { ...borrow, borrowAsset: undefined }],
    ['borrowAmount not decimal', { ...borrow, borrowAmount: '2,000' }],
    ['rate above 1', { ...borrow, rate: 9 }],
    ['maturity bad', { ...borrow, maturity: 'next week' }],
    ['autoRefinance as number', { ...borrow, autoRefinance: 1 }],
    ['userId missing', { ...borrow, userId: undefined }],
  ])('rejects %s', (_n, v) => rejects(bodyOf('borrow.create'), v));
});

describe('the rate bound (bounds.rateBelow)', () => {
  it('is the profile\'s: below 1 by default, another bound, or none (the spec gives none)', () => {
    const lend = { userId: 'u1', asset: 'USDC', amount: '10' };
    expect(bodyOf('lend.create').safeParse({ ...lend, rate: 1 }).success).toBe(false);
    expect(bodyOf('lend.create', parseProfile({ bounds: { rateBelow: 100 } })).safeParse({ ...lend, rate: 1 }).success).toBe(true);
    expect(bodyOf('lend.create', parseProfile({ bounds: { rateBelow: 100 } })).safeParse({ ...lend, rate: 100 }).success).toBe(false);
    expect(bodyOf('lend.create', parseProfile({ bounds: { rateBelow: null } })).safeParse({ ...lend, rate: 250 }).success).toBe(true);
    // Answers too, nested ones included: a position list item at the bound is refused.
    const list = endpoints(defaultProfile).find((e) => e.id === 'positions.list')!.response;
    const item = { positionId: 'p1', status: 'pending', type: 'lend', asset: 'USDC', amount: '10', rate: 1, maturity: '2026-02-14T00:00:00Z' };
    expect(list.safeParse({ positions: [item], hasMore: false }).success).toBe(false);
    expect(list.safeParse({ positions: [{ ...item, rate: 0.5 }], hasMore: false }).success).toBe(true);
  });
});

describe('the order book depth maximum (bounds.orderbookMaxDepth)', () => {
  const depthOf = (p = defaultProfile) => ((buildOpenApi(p) as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: unknown }> } }> }).paths['/markets/{id}/orderbook']!.get.parameters.find((x) => x.name === 'depth')!.schema);
  const query = (p = defaultProfile) => endpoints(p).find((e) => e.id === 'orderbook.get')!.query!;
  it('is stated and checked as the profile says, and not at all when null (not even 2^53-1)', () => {
    expect(depthOf()).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(depthOf(parseProfile({ bounds: { orderbookMaxDepth: null } }))).toEqual({ type: 'integer', minimum: 1 });
    expect(query().safeParse({ depth: '1001' }).success).toBe(false);
    expect(query(parseProfile({ bounds: { orderbookMaxDepth: null } })).safeParse({ depth: '100000000000000000000' }).success).toBe(true);
    expect(query(parseProfile({ bounds: { orderbookMaxDepth: null } })).safeParse({ depth: '2.5' }).success).toBe(false);
  });
});

describe('the position list limit maximum (pagination.overMax)', () => {
  const limitOf = (p = defaultProfile) => ((buildOpenApi(p) as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: unknown }> } }> }).paths['/users/{userId}/positions']!.get.parameters.find((x) => x.name === 'limit')!.schema);
  it('states the spec\'s 100 where the target refuses more, and no maximum (not even 2^53-1) where it clamps', () => {
    expect(limitOf(parseProfile({ pagination: { overMax: 'reject' } }))).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(limitOf(parseProfile({ pagination: { overMax: 'clamp' } }))).toEqual({ type: 'integer', minimum: 1 });
    // A clamping target takes any integer limit, however large; a fraction is still no limit.
    expect(s.positionListQuery.safeParse({ limit: '100000000000000000000' }).success).toBe(true);
    expect(s.positionListQuery.safeParse({ limit: '2.5' }).success).toBe(false);
  });
});

describe('the webhook secret minimum length (webhooks.secretMinLength)', () => {
  const secretOf = (p = defaultProfile) => {
    const body = (buildOpenApi(p) as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> }).paths['/webhooks']!.post.requestBody;
    return body.content['application/json']!.schema.properties.secret;
  };
  const bodyOf = (p = defaultProfile) => endpoints(p).find((e) => e.id === 'webhooks.create')!.body!;
  const sub = { url: 'https://partner.example/hooks', events: ['position.matched'] };
  it('states only the spec\'s prefix when null, and the profile\'s minimum where it gives one', () => {
    expect(secretOf(parseProfile({ webhooks: { secretMinLength: null } }))).toEqual({ type: 'string', pattern: '^whsec_' });
    expect(secretOf(parseProfile({ webhooks: { secretMinLength: 30 } }))).toEqual({ type: 'string', pattern: '^whsec_', minLength: 30 });
    expect(defaultProfile.webhooks.secretMinLength).toBe(22);
    expect(bodyOf(parseProfile({ webhooks: { secretMinLength: null } })).safeParse({ ...sub, secret: 'whsec_x' }).success).toBe(true);
    expect(bodyOf().safeParse({ ...sub, secret: 'whsec_x' }).success).toBe(false);
    expect(bodyOf().safeParse({ ...sub, secret: 'whsec_0123456789abcdef' }).success).toBe(true);
    // The spec's own rule holds under every profile.
    expect(bodyOf(parseProfile({ webhooks: { secretMinLength: null } })).safeParse({ ...sub, secret: 'sk_0123456789abcdef0123' }).success).toBe(false);
  });
});

describe('position shapes', () => {
  it('accepts the create-lend response and rejects one with type', () => {
    expect(s.createLendResponse.safeParse(created).success).toBe(true);
    rejects(s.createLendResponse, { ...created, type: 'lend' });
    rejects(s.createLendResponse, { ...created, status: 'active' });
  });
  it('accepts a full position and rejects broken fields', () => {
    expect(s.position.safeParse(full).success).toBe(true);
    expect(s.position.safeParse({ ...full, matchedAt: undefined, status: 'pending' }).success).toBe(true);
    rejects(s.position, { ...full, amount: 1000 });
    rejects(s.position, { ...full, createdAt: '2026-01-15T10:30:00+02:00' });
    rejects(s.position, { ...full, maturity: '2026-02-14' });
    rejects(s.position, { ...full, type: 'loan' });
    rejects(s.position, { ...full, cbt: { amount: '1' } });
    rejects(s.position, { ...full, cbt: undefined });
    rejects(s.position, { ...full, projectedReturn: 6.58 });
    rejects(s.position, { ...full, accruedInterest: undefined });
    rejects(s.position, { ...full, rate: '0.08' });
  });
  it('checks list items and the list', () => {
    const item = { positionId: 'p', status: 'pending', type: 'borrow', asset: 'USDC', amount: '1', rate: 0.05, maturity: '2026-02-14T00:00:00Z' };
    expect(s.positionList.safeParse({ positions: [item], nextCursor: 'c1', hasMore: true }).success).toBe(true);
    expect(s.positionList.safeParse({ positions: [], hasMore: false }).success).toBe(true);
    // Part 2 types nextCursor only as "string": an empty one on the last page is legal (issue 47, cause 3).
    expect(s.positionList.safeParse({ positions: [], nextCursor: '', hasMore: false }).success).toBe(true);
    expect(s.positionList.safeParse({ positions: [], nextCursor: null, hasMore: false }).success).toBe(true);
    rejects(s.positionList, { positions: [item], hasMore: 'no' });
    rejects(s.positionList, { positions: [{ ...item, type: undefined }], hasMore: false });
    rejects(s.positionList, { hasMore: false });
  });
  it('checks the list query', () => {
    expect(s.positionListQuery.safeParse({ status: 'active', type: 'lend', limit: '50', cursor: 'x' }).success).toBe(true);
    rejects(s.positionListQuery, { status: 'open' });
    rejects(s.positionListQuery, { type: 'swap' });
    rejects(s.positionListQuery, { limit: 'ten' });
    rejects(s.positionListQuery, { limit: '0' });
    rejects(s.positionListQuery, { limit: '2.5' });
  });
});

describe('market data', () => {
  it('accepts rates, markets and order books', () => {
    const rates = { rates: [{ asset: 'USDC', maturity: '30d', lendRate: 0.08, borrowRate: 0.09, spread: 0.01 }], timestamp: '2026-01-15T10:30:00Z' };
    expect(s.ratesResponse.safeParse(rates).success).toBe(true);
    rejects(s.ratesResponse, { ...rates, timestamp: 'yesterday' });
    rejects(s.ratesResponse, { ...rates, rates: [{ ...rates.rates[0], maturity: '2026-02-01' }] });
    rejects(s.ratesResponse, { ...rates, rates: [{ ...rates.rates[0], lendRate: '0.08' }] });
    const m = { id: 'USDC-30d', asset: 'USDC', maturity: '30d', lendRate: 0.08, borrowRate: 0.09, totalLent: '100', totalBorrowed: '50' };
    expect(s.marketList.safeParse({ markets: [m] }).success).toBe(true);
    rejects(s.marketList, { markets: [{ ...m, totalLent: 100 }] });
    rejects(s.marketList, [m]);
    expect(s.orderBook.safeParse({ lends: [{ rate: 0.08, amount: '10' }], borrows: [] }).success).toBe(true);
    rejects(s.orderBook, { lends: [{ rate: 0.08, amount: 10 }], borrows: [] });
    rejects(s.orderBook, { lends: [] });
  });
});

describe('webhooks and events', () => {
  const sub = { url: 'https://partner.example/hooks', events: ['position.matched', 'withdrawal.completed'], secret: 'whsec_0123456789abcdef0123' };
  it('accepts a subscription and rejects bad fields', () => {
    expect(s.webhookSubscription.safeParse(sub).success).toBe(true);
    expect(s.webhookSubscription.safeParse({ ...sub, secret: undefined }).success).toBe(true);
    rejects(s.webhookSubscription, { ...sub, url: 'not a url' });
    rejects(s.webhookSubscription, { ...sub, events: ['position.exploded'] });
    rejects(s.webhookSubscription, { ...sub, events: [] });
    rejects(s.webhookSubscription, { ...sub, secret: 'sk_0123456789abcdef0123' });
  });
  it('accepts the matched envelope', () => {
    const ev = {
      id: 'evt_1',
      type: 'position.matched',
      timestamp: '2026-01-15T10:30:05Z',
      data: { positionId: 'pos_abc', userId: 'user_123', rate: 0.08, amount: '1000.00', maturity: '2026-02-14T00:00:00Z', type: 'lend' },
    };
    expect(s.eventEnvelope.safeParse(ev).success).toBe(true);
    expect(s.positionMatchedData.safeParse(ev.data).success).toBe(true);
    expect(s.positionMatchedData.safeParse({ ...ev.data, type: undefined }).success).toBe(true);
    rejects(s.eventEnvelope, { ...ev, type: 'position.updated' });
    rejects(s.eventEnvelope, { ...ev, id: undefined });
    rejects(s.positionMatchedData, { ...ev.data, rate: '0.08' });
    rejects(s.positionMatchedData, { ...ev.data, amount: 1000 });
  });
});

describe('errors', () => {
  it('accepts the error object and the insufficient_funds details', () => {
    expect(s.errorBody.safeParse({ error: { code: 'position_not_found', message: 'Position does not exist' } }).success).toBe(true);
    const inf = { error: { code: 'insufficient_funds', message: 'Not enough balance', details: { required: '1000.00', available: '250.00' } } };
    expect(s.insufficientFundsError.safeParse(inf).success).toBe(true);
    rejects(s.insufficientFundsError, { error: { ...inf.error, details: undefined } });
    rejects(s.insufficientFundsError, { error: { ...inf.error, details: { required: 1000, available: '1' } } });
    rejects(s.errorBody, { code: 'invalid_request', message: 'x' });
    rejects(s.errorBody, { error: { code: 'invalid_request' } });
  });
  it('checks withdraw, repay and patch bodies', () => {
    expect(s.withdrawRequest.safeParse({ asset: 'USDC', amount: '10', destination: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }).success).toBe(true);
    rejects(s.withdrawRequest, { asset: 'USDC', amount: '10' });
    rejects(s.withdrawRequest, { asset: 'USDC', amount: 10, destination: '0x1' });
    expect(s.repayRequest.safeParse({}).success).toBe(true);
    rejects(s.repayRequest, { amount: '-1' });
    expect(s.patchPositionRequest.safeParse({ autoRollover: false }).success).toBe(true);
    rejects(s.patchPositionRequest, {});
    rejects(s.patchPositionRequest, { autoRefinance: 'yes' });
  });
});

describe('the subscription under a signature scheme', () => {
  it('under standard-webhooks the document states the secret as whsec_ + base64 (the target refuses the rest; neutrality seeds 3, 4)', () => {
    const sub = { url: 'https://hooks.example.com/x', events: ['position.created'] };
    const b64 = `whsec_${Buffer.from('0123456789abcdefghijklmn').toString('base64')}`;
    const std = s.webhookSubscriptionFor(22, 'standard-webhooks');
    expect(std.safeParse({ ...sub, secret: b64 }).success).toBe(true);
    rejects(std, { ...sub, secret: 'whsec_not-base64-at-all!!' });
    rejects(std, { ...sub, secret: 'whsec_abc=' });
    expect(s.webhookSubscriptionFor(22, 't-v1-hmac-sha256').safeParse({ ...sub, secret: 'whsec_not-base64-at-all!!' }).success).toBe(true);
    const doc = buildOpenApi(parseProfile({ signature: { scheme: 'standard-webhooks' } })) as { paths: Record<string, { post?: { requestBody: { content: { 'application/json': { schema: { properties: { secret: { pattern?: string } } } } } } } }> };
    expect(doc.paths['/webhooks']!.post!.requestBody.content['application/json'].schema.properties.secret.pattern).toMatch(/^\^whsec_\(\?:\[A-Za-z0-9\+\/\]\{4\}\)\*/);
  });
});
