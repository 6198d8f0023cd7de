import { afterEach, describe, expect, it } from 'vitest';
import { defaultProfile, type Profile } from '../../contract/index.ts';
import { HttpClient } from '../../conformance/http.ts';
import { mutatedProfile } from '../../sandbox/choices/mutate-profile.ts';
import { sandboxOptions } from '../../sandbox/start.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { Probe } from '../probe.ts';
import { bookLevelsDetector } from './book-levels.ts';

// orderbookLevels is found by value: a resting lend, then a resting borrow, each between two
// reads of the authenticated book; the array that gained it is the side, whatever its key.

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function detect(profile: Profile, mutateShapes?: number): Promise<Probe> {
  server = await startSandboxServer({ ...sandboxOptions({ profile, controls: false, ...(mutateShapes !== undefined ? { mutateShapes } : {}) }) });
  const http = new HttpClient({ baseUrl: server.url });
  const p = new Probe(http, { key: 'ck_test_partner_a_growth', maxRequests: 20, runId: `t${mutateShapes ?? 'd'}` });
  // What earlier detectors leave: the markets, the bounds the probes' amounts and rates follow, a collateral seen taken.
  p.facts.set('maturities', profile.markets.maturities);
  p.facts.set('collateralAsset', 'ETH');
  p.set('amounts.minOrder', profile.amounts.minOrder, 'high', []);
  p.set('bounds.rateBelow', profile.bounds.rateBelow, 'high', []);
  await bookLevelsDetector.run(p);
  await http.close();
  return p;
}

describe('bookLevelsDetector', () => {
  it('finds the public form on the reference sandbox, in seven requests, leaving nothing resting', { timeout: 30_000 }, async () => {
    const p = await detect(defaultProfile);
    expect(p.found.get('orderbookLevels.lends')?.value).toEqual({ path: 'lends', rate: 'rate', amount: 'amount' });
    expect(p.found.get('orderbookLevels.borrows')?.value).toEqual({ path: 'borrows', rate: 'rate', amount: 'amount' });
    expect(p.used).toBe(7);
    const cancels = p.seen.filter((s) => s.path.endsWith('/cancel'));
    expect(cancels.map((c) => c.reply.status)).toEqual([200, 200]);
  });

  it('finds a renamed lend side and a nested borrow side (mutator seed 1)', { timeout: 30_000 }, async () => {
    const p = await detect(mutatedProfile(1), 1);
    expect(p.found.get('orderbookLevels.lends')?.value).toEqual({ path: 'lends_pnf', rate: 'rate', amount: 'orf_amount' });
    expect(p.found.get('orderbookLevels.borrows')?.value).toEqual({ path: 'cwakm.borrows', rate: 'rate', amount: 'amount' });
  });

  it('leaves a dropped lend side unknown and still finds the borrow side (mutator seed 2)', { timeout: 30_000 }, async () => {
    const p = await detect(mutatedProfile(2), 2);
    expect(p.found.has('orderbookLevels.lends')).toBe(false);
    expect(p.missed.get('orderbookLevels.lends')).toMatch(/no array of the book gained/);
    expect(p.found.get('orderbookLevels.borrows')?.value).toMatchObject({ path: 'wnyhc.borrows' });
  });

  it('takes the public name\'s borrows that gained one level showing neither rate nor amount (mutator seed 4), with low confidence', { timeout: 30_000 }, async () => {
    const p = await detect(mutatedProfile(4), 4);
    expect(p.found.has('orderbookLevels.lends')).toBe(false);
    expect(p.found.get('orderbookLevels.borrows')).toMatchObject({ value: { path: 'borrows', rate: null, amount: null }, confidence: 'low' });
  });
});
