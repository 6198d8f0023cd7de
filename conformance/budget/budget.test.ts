import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { CheckSkip } from '../../kernel/check-kernel.ts';
import { RequestBudget, PUBLIC_BUCKET } from './budget.ts';
import { readLimits } from './bucket.ts';

// The budget on a fake clock: waits are virtual, so each assertion is exact.
function fake(maxWaitMs = 120_000) {
  let t = 0;
  const said: string[] = [];
  const budget = new RequestBudget({ profile: defaultProfile, maxWaitMs, tiers: { k1: 'starter', k2: 'starter' }, say: (l) => said.push(l), now: () => t, wait: async (ms) => void (t += ms) });
  return { budget, said, now: () => t, advance: (ms: number) => void (t += ms) };
}
const headers = (limit: number, remaining: number, reset = 0) => ({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) });

describe('request budget', () => {
  it('sends while the bucket holds tokens, then slows to the refill rate instead of meeting a 429', async () => {
    const { budget, now } = fake();
    for (let i = 0; i < 100; i++) await budget.admit('k1', true, 'GET /rates');
    expect(now()).toBe(0);
    await budget.admit('k1', true, 'GET /rates');
    // Starter refills one token a second.
    expect(now()).toBe(1_000);
    expect(budget.figures.waits).toBe(1);
  });

  it('learns the level from X-RateLimit-Remaining, less what is still in flight', async () => {
    const { budget, now } = fake();
    await budget.admit('k1', true, 'a');
    await budget.admit('k1', true, 'b');
    // The first answer says 3 remain; the second request is still out, so 2 are ours to spend.
    budget.settle('k1', { status: 200, headers: headers(100, 3) }, true, true);
    await budget.admit('k1', true, 'c');
    await budget.admit('k1', true, 'd');
    expect(now()).toBe(0);
    await budget.admit('k1', true, 'e');
    expect(now()).toBe(1_000);
  });

  it('a storm waits until its bucket holds all of it, then fires from the reservation without further waits', async () => {
    const { budget, now } = fake();
    budget.settle('k1', { status: 200, headers: headers(100, 2) }, true, true);
    await budget.reserve('k1', 8, 'a storm of 8');
    expect(now()).toBe(6_000);
    for (let i = 0; i < 8; i++) await budget.admit('k1', true, 'storm');
    expect(now()).toBe(6_000);
    budget.release('k1');
    expect(budget.bucket('k1').credit).toBe(0);
  });

  it('gives back what a reservation did not spend', async () => {
    const { budget } = fake();
    budget.settle('k1', { status: 200, headers: headers(100, 10) }, true, true);
    await budget.reserve('k1', 8, 'storm');
    await budget.admit('k1', true, 'one of it');
    budget.release('k1');
    expect(Math.floor(budget.bucket('k1').level(0))).toBe(9);
  });

  it('spreads work over the keys of one partner: the fuller bucket goes first', () => {
    const { budget } = fake();
    budget.settle('k1', { status: 200, headers: headers(100, 1) }, true, true);
    budget.settle('k2', { status: 200, headers: headers(100, 50) }, true, true);
    expect(budget.soonest(['k1', 'k2'], 8)).toBe('k2');
  });

  it('skips past --max-wait, saying how long it waited and what it needed', async () => {
    const { budget } = fake(5_000);
    budget.settle('k1', { status: 429, headers: headers(100, 0, 60) }, true, true);
    const e = await budget.acquire('k1', 20, 'a storm of 20').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CheckSkip);
    expect((e as Error).message).toMatch(/no room within --max-wait \(5 s\) for a storm of 20: 20 requests .* needs 20 s; waited 0 s/);
  });

  it('a storm larger than the bucket skips at once: it can never fit', async () => {
    const { budget } = fake();
    await expect(budget.acquire('k1', 101, 'a storm of 101')).rejects.toThrow(/holds at most 100/);
  });

  it('says a long wait as it starts, so a paced run never reads as a hang', async () => {
    const { budget, said } = fake();
    budget.settle('k1', { status: 200, headers: headers(100, 0) }, true, true);
    await budget.acquire('k1', 10, 'a storm of 8');
    expect(said.join('\n')).toMatch(/waiting 10 s for the rate limit: room for 10 requests/);
  });

  it('counts a 429 on a paced request as overspending (a harness defect), and a 429 blocks the bucket for Retry-After', async () => {
    const { budget, now } = fake();
    await budget.admit('k1', true, 'x');
    budget.settle('k1', { status: 429, headers: { ...headers(100, 0, 30), 'retry-after': '7' } }, true, true);
    expect(budget.figures.overspent429).toBe(1);
    await budget.admit('k1', true, 'y');
    expect(now()).toBe(7_000);
  });

  it('an unknown key spends the public bucket without learning from its answer', async () => {
    const { budget } = fake();
    await budget.admit(PUBLIC_BUCKET, true, 'a 401');
    budget.settle(PUBLIC_BUCKET, { status: 401, headers: headers(2000, 1999) }, true, false);
    expect(budget.bucket(PUBLIC_BUCKET).shape.capacity).toBe(defaultProfile.limits.publicBurst);
  });

  it('reads X-RateLimit-Reset in the profile\'s unit', () => {
    const at = 1_700_000_000_000;
    const p = (unit: 'delta-seconds' | 'unix-seconds' | 'unix-ms') => ({ ...defaultProfile, limits: { ...defaultProfile.limits, resetUnit: unit } });
    expect(readLimits(p('delta-seconds'), { 'x-ratelimit-reset': '12' }, 200, at).resetSeconds).toBe(12);
    expect(readLimits(p('unix-seconds'), { 'x-ratelimit-reset': String(at / 1000 + 12) }, 200, at).resetSeconds).toBe(12);
    expect(readLimits(p('unix-ms'), { 'x-ratelimit-reset': String(at + 12_000) }, 200, at).resetSeconds).toBe(12);
  });

  it('learns the tier from X-RateLimit-Limit in the profile\'s reading of Limit', () => {
    const { budget } = fake();
    budget.settle('k1', { status: 200, headers: headers(500, 500) }, true, true);
    expect(budget.bucket('k1').shape).toMatchObject({ capacity: 500, perSecond: 5 });
  });
});

describe('stale readings', () => {
  it('an answer to an earlier request that comes late (a slow write) cannot raise the belief above a later reading', async () => {
    let t = 0;
    const budget = new RequestBudget({ profile: defaultProfile, tiers: { k1: 'starter' }, now: () => t, wait: async (ms) => void (t += ms) });
    const slow = await budget.admit('k1', true, 'a slow write');
    const quick = await budget.admit('k1', true, 'a quick read');
    // The quick one, sent later, is answered first: 3 left. Then the slow one, counted on arrival, says 10.
    budget.settle('k1', { status: 200, headers: headers(100, 3) }, true, true, quick);
    budget.settle('k1', { status: 200, headers: headers(100, 10) }, true, true, slow);
    expect(Math.floor(budget.bucket('k1').level(t))).toBe(2);
    // A later, fresh reading is taken whole again.
    const next = await budget.admit('k1', true, 'next');
    budget.settle('k1', { status: 200, headers: headers(100, 40) }, true, true, next);
    expect(Math.floor(budget.bucket('k1').level(t))).toBe(40);
  });
});
