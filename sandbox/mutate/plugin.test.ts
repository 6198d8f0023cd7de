import { describe, expect, it } from 'vitest';
import { collateralFor, endpointSuccess, endpoints, legalAmount, lendAsset, marketId, successSchema, type Endpoint } from '../../contract/index.ts';
import { mutatedProfile } from '../choices/mutate-profile.ts';
import { shapePlan } from '../choices/mutate-shapes.ts';
import { defaultPlugins } from '../plugins.ts';
import { caller, testSandbox } from '../testing/helpers.ts';
import { shapeMutatorPlugin } from './plugin.ts';

// A mutated sandbox stays legal: every body the spec shows still matches its spec schema under
// the seed's profile (its envelope, its status), the ids the profile records are where it says,
// an empty status has no body, and the same seed answers the same bytes. Three seeds, in-process.

const SEEDS = [1, 2, 3];

async function walk(seed: number) {
  const profile = mutatedProfile(seed);
  const sb = testSandbox({ profile, plugins: [...defaultPlugins({ rateLimits: false, webhooks: false }), shapeMutatorPlugin(seed)] });
  const call = caller(sb);
  const byId = new Map<string, Endpoint>(endpoints(profile).map((e) => [e.id, e]));
  const shown: string[] = [];
  /** A success of endpoint `id` in the profile's status; a body the spec shows matches its schema. */
  const expectSuccess = (id: string, r: { status: number; body: unknown }) => {
    const e = byId.get(id)!;
    expect(r.status, `seed ${seed} ${id}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(endpointSuccess(profile, e));
    if (e.responseSource === 'spec') {
      const p = successSchema(profile, e).safeParse(r.body);
      expect(p.success, `seed ${seed} ${id}: ${JSON.stringify(p.error?.issues.slice(0, 2))} in ${JSON.stringify(r.body).slice(0, 300)}`).toBe(true);
      shown.push(id);
    }
    return r.body as Record<string, unknown>;
  };
  try {
    const asset = lendAsset(profile);
    const maturity = profile.lifecycle.defaultMaturity;
    const lent = expectSuccess('lend.create', await call('POST', '/lend', { body: { userId: 'mut-u1', asset, amount: legalAmount(profile, 0), maturity } }));
    const id = lent.positionId as string;
    expectSuccess('position.get', await call('GET', `/positions/${id}`));
    expectSuccess('positions.list', await call('GET', '/users/mut-u1/positions'));
    expectSuccess('rates.get', await call('GET', profile.ratesPath!));
    expectSuccess('public.markets', await call('GET', '/markets', { key: null }));
    expectSuccess('public.orderbook', await call('GET', `/markets/${encodeURIComponent(marketId(profile, asset, maturity))}/orderbook`, { key: null }));
    const cancelled = await call('POST', `/positions/${id}/cancel`);
    expectSuccess('position.cancel', cancelled);
    if (cancelled.status === 204 || cancelled.status === 205) expect(cancelled.body).toBe('');
    const borrowAsset = profile.assets.borrow[0]!;
    const amount = legalAmount(profile, 0, { asset: borrowAsset });
    const borrowed = expectSuccess('borrow.create', await call('POST', '/borrow', { body: { userId: 'mut-u2', borrowAsset, borrowAmount: amount, collateral: collateralFor(profile, borrowAsset, amount), maturity } }));
    expect(typeof borrowed[profile.ids.borrow!], `seed ${seed}: ids.borrow ${profile.ids.borrow} in ${JSON.stringify(borrowed)}`).toBe('string');
    const hook = expectSuccess('webhooks.create', await call('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['position.matched'], secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` } }));
    expect(typeof hook[profile.ids.webhook!], `seed ${seed}: ids.webhook in ${JSON.stringify(hook)}`).toBe('string');
    const doc = (await call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, unknown> };
    expect(profile.ratesPath! in doc.paths, `seed ${seed}: rates path in the served document`).toBe(!shapePlan(seed).hideRatesPath);
    return { shown, vaults: JSON.stringify((await call('GET', '/vaults', { key: null })).body) };
  } finally {
    await sb.close();
  }
}

describe('the shape mutator on a running sandbox', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: shown bodies keep their spec schemas, recorded ids stay, the same seed answers the same`, async () => {
      const first = await walk(seed);
      expect(first.shown.sort()).toEqual(['lend.create', 'position.get', 'positions.list', 'public.markets', 'public.orderbook', 'rates.get']);
      expect((await walk(seed)).vaults).toBe(first.vaults);
    });
  }
});
