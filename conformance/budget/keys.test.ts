import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { executeCheck, prepareRun } from '../runner.ts';

// More keys only make a run faster: against the sandbox with its rate limits on and Starter
// keys (burst 100), the pagination family and the generated invalid cases (about 200 requests)
// on one key must wait for the refill; on two keys of the same partner they spread over both and
// wait less. Neither meets a 429 or skips for want of room.

const PA = ['ck_test_budget_a1', 'ck_test_budget_a2'];
const PB = 'ck_test_budget_b1';

async function pages(keys: string[]) {
  const s = await startSandboxServer({ port: 0, host: '127.0.0.1', profile: defaultProfile, controls: false, validateResponses: false, keys: [...PA.map((key) => ({ key, partnerId: 'partner_a', tier: 'starter' as const })), { key: PB, partnerId: 'partner_b', tier: 'starter' as const }] });
  const run = await prepareRun({ baseUrl: s.url, apiKey: keys[0]!, moreApiKeys: keys.slice(1), apiKey2: PB, profile: defaultProfile, only: ['pagination.*', 'errors.invalid.*'], seed: 1, say: () => {} });
  try {
    const results = [];
    for (const item of run.plan) results.push(await executeCheck(run, item));
    const used = new Set(run.ctx.http.log.map((x) => x.credential).filter(Boolean));
    return { results, used, figures: run.ctx.http.budget!.figures, statuses: run.ctx.http.log.map((x) => x.status) };
  } finally {
    await run.close();
    await s.close();
  }
}

describe('the budget over several keys of one partner', () => {
  it('one Starter key waits for the refill and still reaches every verdict; two keys share the work and wait less', { timeout: 240_000 }, async () => {
    // Side by side: each has a sandbox (so buckets) of its own, and both are mostly waits for the refill.
    const [one, two] = await Promise.all([pages(PA.slice(0, 1)), pages(PA)]);
    for (const r of [one, two]) {
      expect(r.results.map((c) => `${c.id} ${c.status} ${c.message ?? ''}`).filter((l) => !/ passed $/.test(l))).toEqual([]);
      expect(r.statuses.filter((s) => s === 429)).toEqual([]);
      expect(r.figures.overspent429).toBe(0);
    }
    expect(one.figures.waitedMs).toBeGreaterThan(5_000);
    expect([...two.used].sort()).toEqual(['LENDCHECK_API_KEY', 'LENDCHECK_API_KEY#2']);
    expect(two.figures.waitedMs).toBeLessThan(one.figures.waitedMs / 2);
  });
});
