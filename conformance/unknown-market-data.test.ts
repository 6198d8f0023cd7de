import { describe, expect, it } from 'vitest';
import { DEFAULT_ASSET_INFO, parseProfile, type ProfileInput } from '../contract/index.ts';
import { runChecks } from './runner.ts';
import { withServed } from './testing/served.ts';

// Issue 47: what detection could not establish is unknown (null) in the detected profile, and the
// checks that need it skip naming it, or send only what the spec itself states. Prices: a borrow's
// pledge at the minimum ratio is priced by assets.info. Periods: the analytics reads send a
// period the profile lists, else the spec's example 30d; a refusal of it is the profile's gap.

function run(target: ProfileInput, profile: ProfileInput, only: string[]) {
  return withServed({ profile: parseProfile(target), controls: false }, async (t) =>
    (await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: parseProfile(profile), only })).checks);
}

const BORROWS = ['endpoint.borrow.create', 'concurrency.borrow-overcommit'];
// The target's ETH is at 1000, not the sandbox's 3000: a pledge priced at 3000 would be a third short.
const CHEAP_ETH = { assets: { info: { ...DEFAULT_ASSET_INFO, ETH: { decimals: 18, oraclePriceUsd: '1000' } } } };

describe('unknown asset prices (assets.info)', () => {
  it('skip the checks that pledge at the minimum ratio, naming assets.info', async () => {
    const checks = await run(CHEAP_ETH, { assets: { info: null } }, BORROWS);
    expect(checks.map((c) => c.id).sort()).toEqual([...BORROWS].sort());
    for (const c of checks) {
      expect(c.status, `${c.id}: ${c.message}`).toBe('skipped');
      expect(c.message).toMatch(/needs profile assets\.info, which is unknown/);
    }
  }, 90_000);

  it('run and pass them where the profile file gives the target\'s prices', async () => {
    const checks = await run(CHEAP_ETH, CHEAP_ETH, BORROWS);
    for (const c of checks) expect(c.status, `${c.id}: ${c.message}`).toBe('passed');
  }, 90_000);
});

describe('unknown analytics periods (markets.periods)', () => {
  const OTHER_PERIODS = { markets: { periods: ['7d', '1y'], defaultPeriod: '7d' } };
  const TVL = ['endpoint.public.tvl'];

  it('send the spec\'s example 30d, and pass a target that takes it', async () => {
    const [c] = await run({}, { markets: { periods: null, defaultPeriod: null } }, TVL);
    expect(c?.status, c?.message).toBe('passed');
  }, 90_000);

  it('skip naming markets.periods where the target refuses the spec\'s example', async () => {
    const [c] = await run(OTHER_PERIODS, { markets: { periods: null, defaultPeriod: null } }, TVL);
    expect(c?.status, c?.message).toBe('skipped');
    expect(c?.message).toMatch(/period=30d.*profile markets\.periods/);
  }, 90_000);

  it('run with a period the profile file lists', async () => {
    const [c] = await run(OTHER_PERIODS, OTHER_PERIODS, TVL);
    expect(c?.status, c?.message).toBe('passed');
  }, 90_000);
});
