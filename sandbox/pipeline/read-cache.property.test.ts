import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../engine/clock.ts';
import { KEY_A, KEY_B, START_MS, testSandbox } from '../testing/helpers.ts';
import type { Sandbox } from '../app.ts';

// The read cache (read-cache.ts) may stay only while it is provably the core's answer. This
// property interleaves writes (orders, cancels, repays, PATCHes, withdrawals), controls
// (funds, oracle prices, clock advances that mature, liquidate and fill through the built-in
// liquidity provider) and reads (single positions and list pages with filters and cursors,
// by both partners), and at every read compares what the cache would serve now with what the
// core answers at the same instant: the same status and the same bytes, or no entry at all.

const USERS = ['u1', 'u2'];
const AUTH = { a: `Bearer ${KEY_A}`, b: `Bearer ${KEY_B}` } as const;
const PARTNER_OF: Record<string, string> = { [AUTH.a]: 'partner_a', [AUTH.b]: 'partner_b' };

type Action =
  | { t: 'fund'; user: number; amount: string }
  | { t: 'lend'; user: number; amount: string; rate: number | undefined; maturity: string }
  | { t: 'borrow'; user: number; amount: string; rate: number | undefined; maturity: string }
  | { t: 'cancel'; pick: number }
  | { t: 'repay'; pick: number; amount: string | undefined }
  | { t: 'patch'; pick: number; flag: 'autoRollover' | 'autoRefinance'; on: boolean }
  | { t: 'withdraw'; user: number; amount: string }
  | { t: 'advance'; seconds: number }
  | { t: 'pass'; ms: number }
  | { t: 'oracle'; price: string }
  | { t: 'readOne'; pick: number; as: 'a' | 'b' }
  | { t: 'readList'; user: number; as: 'a' | 'b'; query: string; follow: boolean };

const user = fc.integer({ min: 0, max: USERS.length - 1 });
const pick = fc.nat();
const amount = fc.constantFrom('1', '10', '250.5', '1000', '90000');
const maturity = fc.constantFrom('30d', '90d');
const rate = fc.option(fc.constantFrom(0.04, 0.05, 0.06, 0.5), { nil: undefined });
const query = fc.constantFrom('', '?limit=2', '?status=pending', '?status=active', '?type=borrow', '?type=lend&limit=1', '?status=matured');

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ t: fc.constant('fund' as const), user, amount }),
  fc.record({ t: fc.constant('lend' as const), user, amount, rate, maturity }),
  fc.record({ t: fc.constant('borrow' as const), user, amount, rate, maturity }),
  fc.record({ t: fc.constant('cancel' as const), pick }),
  fc.record({ t: fc.constant('repay' as const), pick, amount: fc.option(fc.constantFrom('1', '5.25'), { nil: undefined }) }),
  fc.record({ t: fc.constant('patch' as const), pick, flag: fc.constantFrom('autoRollover' as const, 'autoRefinance' as const), on: fc.boolean() }),
  fc.record({ t: fc.constant('withdraw' as const), user, amount }),
  // From a second (reads of accrued interest change) to past a 90-day maturity.
  fc.record({ t: fc.constant('advance' as const), seconds: fc.constantFrom(1, 7, 3_600, 86_400, 31 * 86_400, 95 * 86_400) }),
  // Time passing on its own (a clock that runs), with no write: interest accrues, nothing else.
  fc.record({ t: fc.constant('pass' as const), ms: fc.constantFrom(1, 500, 60_000) }),
  fc.record({ t: fc.constant('oracle' as const), price: fc.constantFrom('3000', '1500', '400') }),
  fc.record({ t: fc.constant('readOne' as const), pick, as: fc.constantFrom('a' as const, 'a' as const, 'b' as const) }),
  fc.record({ t: fc.constant('readList' as const), user, as: fc.constantFrom('a' as const, 'a' as const, 'b' as const), query, follow: fc.boolean() }),
);

let sb: Sandbox | undefined;
const writes = { ok: 0, refused: 0, crashed: 0 };
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/**
 * One request through the sandbox's fetch door (the same dispatch, caller and cache stages
 * as the node:http door).
 */
async function call(s: Sandbox, method: string, target: string, auth: string, body?: unknown) {
  const req = new Request(`http://sandbox.test${target}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await s.fetch(req);
  if (method !== 'GET') writes[res.status < 300 ? 'ok' : res.status < 500 ? 'refused' : 'crashed']++;
  return { status: res.status, text: await res.text() };
}

/** What the cache stage would answer this partner for this target now. */
const cachedRead = (s: Sandbox, target: string, auth: string) => s.readCache!.get(PARTNER_OF[auth]!, target);

/** What the cache would serve for this read now, then what the core answers: they must agree. */
async function read(s: Sandbox, target: string, auth: string, seen: { hits: number; reads: number }): Promise<string> {
  const cached = cachedRead(s, target, auth);
  s.readCache!.bypass = true;
  const core = await call(s, 'GET', target, auth).finally(() => (s.readCache!.bypass = false));
  seen.reads++;
  if (cached) {
    seen.hits++;
    expect({ status: cached.answer.status, body: cached.answer.body }, `cached answer to GET ${target}`).toEqual({ status: core.status, body: core.text });
  }
  return core.text;
}

async function runActions(actions: Action[], seen: { hits: number; reads: number }): Promise<void> {
  let real = 0;
  sb = testSandbox({ liquidity: { enabled: true, delaySeconds: 5 }, clock: new TestClock({ startMs: START_MS, realNow: () => real }) });
  const s = sb;
  expect(s.readCache, 'the read cache is on (no plugin stage)').toBeDefined();
  const ids: string[] = [];
  const idOf = (n: number) => (ids.length ? ids[n % ids.length]! : 'pos_missing');
  const v1 = '/v1';
  for (const a of actions) {
    switch (a.t) {
      case 'fund':
        await call(s, 'POST', `${v1}/sandbox/fund`, AUTH.a, { userId: USERS[a.user], asset: 'USDC', amount: a.amount });
        break;
      case 'lend': {
        const r = await call(s, 'POST', `${v1}/lend`, AUTH.a, { userId: USERS[a.user], asset: 'USDC', amount: a.amount, rate: a.rate, maturity: a.maturity });
        const id = (JSON.parse(r.text) as { positionId?: string }).positionId;
        if (id) ids.push(id);
        break;
      }
      case 'borrow': {
        const body = { userId: USERS[a.user], collateral: { asset: 'ETH', amount: '2' }, borrowAsset: 'USDC', borrowAmount: a.amount, rate: a.rate, maturity: a.maturity };
        const r = await call(s, 'POST', `${v1}/borrow`, AUTH.a, body);
        const id = (JSON.parse(r.text) as { positionId?: string }).positionId;
        if (id) ids.push(id);
        break;
      }
      case 'cancel':
        await call(s, 'POST', `${v1}/positions/${idOf(a.pick)}/cancel`, AUTH.a);
        break;
      case 'repay':
        await call(s, 'POST', `${v1}/positions/${idOf(a.pick)}/repay`, AUTH.a, a.amount === undefined ? {} : { amount: a.amount });
        break;
      case 'patch':
        await call(s, 'PATCH', `${v1}/positions/${idOf(a.pick)}`, AUTH.a, { [a.flag]: a.on });
        break;
      case 'withdraw':
        await call(s, 'POST', `${v1}/users/${USERS[a.user]}/withdraw`, AUTH.a, { asset: 'USDC', amount: a.amount, destination: '0x' + 'ab'.repeat(20) });
        break;
      case 'advance':
        await call(s, 'POST', `${v1}/sandbox/clock/advance`, AUTH.a, { seconds: a.seconds });
        break;
      case 'pass':
        real += a.ms;
        break;
      case 'oracle':
        await call(s, 'POST', `${v1}/sandbox/oracle`, AUTH.a, { asset: 'ETH', priceUsd: a.price });
        break;
      case 'readOne':
        // Twice: the second read is the one the cache can answer.
        await read(s, `${v1}/positions/${idOf(a.pick)}`, AUTH[a.as], seen);
        await read(s, `${v1}/positions/${idOf(a.pick)}`, AUTH[a.as], seen);
        break;
      case 'readList': {
        const target = `${v1}/users/${USERS[a.user]}/positions${a.query}`;
        await read(s, target, AUTH[a.as], seen);
        const text = await read(s, target, AUTH[a.as], seen);
        const next = (JSON.parse(text) as { nextCursor?: string }).nextCursor;
        if (a.follow && next) {
          const more = `${target}${a.query ? '&' : '?'}cursor=${encodeURIComponent(next)}`;
          await read(s, more, AUTH[a.as], seen);
          await read(s, more, AUTH[a.as], seen);
        }
        break;
      }
    }
  }
  await s.close();
  sb = undefined;
}

describe('read cache against the core', () => {
  it('serves only what the core answers at that instant, through interleaved writes, controls and clock advances', { timeout: 120_000 }, async () => {
    const seen = { hits: 0, reads: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 60 }), (actions) => runActions(actions, seen)),
      { numRuns: 100, seed: 20261125 },
    );
    // A property over a cache that never answered, or over writes that never landed, would prove nothing.
    expect(seen.hits, `cache hits among ${seen.reads} reads`).toBeGreaterThan(seen.reads / 10);
    expect(writes.crashed, 'writes answered 5xx').toBe(0);
    expect(writes.ok, `accepted writes (${writes.refused} refused)`).toBeGreaterThan(100);
  });

  it('has no entry after a write that changes the answer, even one made between two identical reads', async () => {
    const seen = { hits: 0, reads: 0 };
    sb = testSandbox();
    const s = sb;
    await call(s, 'POST', '/v1/sandbox/fund', AUTH.a, { userId: 'u9', asset: 'USDC', amount: '100' });
    const lend = JSON.parse((await call(s, 'POST', '/v1/lend', AUTH.a, { userId: 'u9', asset: 'USDC', amount: '10', rate: 0.5, maturity: '30d' })).text) as { positionId: string };
    const target = `/v1/positions/${lend.positionId}`;
    await read(s, target, AUTH.a, seen);
    expect(cachedRead(s, target, AUTH.a), 'a repeat is answered from the cache').toBeDefined();
    await call(s, 'PATCH', target, AUTH.a, { autoRollover: false });
    expect(cachedRead(s, target, AUTH.a), 'no entry survives the PATCH').toBeUndefined();
    const after = JSON.parse(await read(s, target, AUTH.a, seen)) as { autoRollover: boolean };
    expect(after.autoRollover).toBe(false);
    await read(s, target, AUTH.a, seen);
    await call(s, 'POST', '/v1/sandbox/clock/advance', AUTH.a, { seconds: 1 });
    // A pending lend's view does not change with time; whatever the cache holds must still be the core's answer.
    await read(s, target, AUTH.a, seen);
  });

  it('keeps a view that changes with time (accrued interest) only for the instant it was made, on a clock that runs', async () => {
    const seen = { hits: 0, reads: 0 };
    let real = 0;
    sb = testSandbox({ liquidity: { enabled: true, delaySeconds: 5 }, clock: new TestClock({ startMs: START_MS, realNow: () => real }) });
    const s = sb;
    await call(s, 'POST', '/v1/sandbox/fund', AUTH.a, { userId: 'u8', asset: 'USDC', amount: '5000' });
    const lend = JSON.parse((await call(s, 'POST', '/v1/lend', AUTH.a, { userId: 'u8', asset: 'USDC', amount: '1000', maturity: '30d' })).text) as { positionId: string };
    await call(s, 'POST', '/v1/sandbox/clock/advance', AUTH.a, { seconds: 10 });
    const target = `/v1/positions/${lend.positionId}`;
    const first = JSON.parse(await read(s, target, AUTH.a, seen)) as { status: string; accruedInterest: string };
    expect(first.status, 'the built-in liquidity matched the lend').toBe('active');
    expect(cachedRead(s, target, AUTH.a), 'the same instant is answered from the cache').toBeDefined();
    real += 60_000;
    expect(cachedRead(s, target, AUTH.a), 'a minute later the entry is not served').toBeUndefined();
    const later = JSON.parse(await read(s, target, AUTH.a, seen)) as { accruedInterest: string };
    expect(later.accruedInterest).not.toBe(first.accruedInterest);
  });
});
