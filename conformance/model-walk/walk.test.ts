import { describe, expect, it } from 'vitest';
import { defaultProfile, loadProfile, parseProfile, routeOfRequest, type Profile } from '../../contract/index.ts';
import { serveWrapped } from '../embedded.ts';
import { runChecks } from '../runner.ts';
import type { FaultSetting } from '../../sandbox/faults/index.ts';
import { WALK, walkChecks } from './walk-check.ts';

// The walk against the sandbox over real HTTP: clean, with and without controls (and under
// each example profile), it passes; each sequential money fault is caught on every seed tried,
// shrunk to a short sequence shown with its seed.

type Wrap = Parameters<typeof serveWrapped>[0];

async function run(opts: { faults?: FaultSetting[]; controls?: boolean; profile?: Profile; target?: Profile; seed?: number; tour?: boolean; budgetMs?: number; timeLimitMs?: number; wrap?: Wrap } = {}) {
  const profile = opts.profile ?? defaultProfile;
  const t = await serveWrapped(opts.wrap ?? ((req, next) => next(req)), { profile: opts.target ?? profile, validateResponses: false, ...(opts.controls === false ? { controls: false } : {}), ...(opts.faults ? { faults: opts.faults } : {}) });
  try {
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile, checks: walkChecks(profile, { ...WALK, tour: opts.tour ?? true, budgetMs: opts.budgetMs ?? WALK.budgetMs, timeLimitMs: opts.timeLimitMs ?? WALK.timeLimitMs }), seed: opts.seed ?? Date.now() % 2 ** 31 });
    return r.checks[0]!;
  } finally {
    await t.close();
  }
}

describe('model.ledger-walk', () => {
  it('passes the clean sandbox, with controls and without them under each example profile', { timeout: 120_000 }, async () => {
    const runs = await Promise.all([
      run(),
      run({ controls: false }),
      ...['fintech-rest', 'minimal-sandbox', 'strict-gateway'].map((p) => run({ controls: false, profile: loadProfile(`examples/profiles/${p}.json`) })),
      ...['fintech-rest', 'strict-gateway'].map((p) => run({ profile: loadProfile(`examples/profiles/${p}.json`) })),
    ]);
    for (const c of runs) expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
    expect(runs[0]!.notes.join('\n')).toMatch(new RegExp(`fixed tour of every step \\(13 of 13 taken\\), then ${WALK.numRuns} random walks .*\n.*via the sandbox balances control`));
    expect(runs[1]!.notes.join('\n')).toContain('clock steps skipped: the target has no sandbox clock');
  });

  it('a time bound that no random walk beats is a slow machine, not a broken rule: the tour\'s pass stands, and says no walk finished (CI stop 52 failed with "received null")', { timeout: 60_000 }, async () => {
    const c = await run({ timeLimitMs: 1 });
    expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
    expect(c.notes.join('\n')).toMatch(/fixed tour of every step \(13 of 13 taken\) agreed with the model; no random walk finished within 1 ms/);
    const bare = await run({ timeLimitMs: 1, tour: false });
    expect(bare.status).not.toBe('failed');
    expect(bare.message).toMatch(/no walk finished within 1 ms/);
  });

  it('lends at the run\'s resting rate, which a target whose rate bound is 0.5 takes (issue 47, mutator seed 12: a fixed 0.5 was refused)', { timeout: 60_000 }, async () => {
    const bound = parseProfile({ bounds: { rateBelow: 0.5 } });
    const c = await run({ controls: false, profile: bound, seed: 1 });
    expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
  });

  // A detected file whose budget ran out before assets.info keeps the default decimals (WBTC 8),
  // which minimal-sandbox's WBTC (6) does not follow: the walk's amounts must not rest on them.
  const minimal = loadProfile('examples/profiles/minimal-sandbox.json');
  const undetectedInfo = parseProfile({ ...minimal, assets: { ...minimal.assets, info: defaultProfile.assets.info } });

  it('passes a target whose decimals are not the profile\'s (assets.info left at the default), and still catches its money faults', { timeout: 120_000 }, async () => {
    const [clean, ...faulty] = await Promise.all([
      run({ controls: false, profile: undetectedInfo, target: minimal, seed: 1 }),
      ...['withdraw-not-debited', 'cancel-double-refund'].map((name) => run({ controls: false, profile: undetectedInfo, target: minimal, faults: [{ name }], seed: 1 })),
    ]);
    expect(`${clean!.status} ${clean!.message ?? ''}`).toBe('passed ');
    for (const c of faulty) {
      expect(c.status).toBe('failed');
      expect(c.message).toMatch(/money appeared/);
    }
  });

  it('a refusal of an amount for its decimal places is the profile\'s gap (assets.info): a skip naming it, never a failure', { timeout: 60_000 }, async () => {
    const places: Wrap = (req, next) =>
      routeOfRequest(defaultProfile, req)?.id === 'borrow.create'
        ? Promise.resolve(new Response(JSON.stringify({ error: { code: 'invalid_request', message: 'collateral.amount: has more than 1 decimal places for WBTC' } }), { status: 400, headers: { 'content-type': 'application/json' } }))
        : next(req);
    const c = await run({ controls: false, profile: undetectedInfo, target: minimal, wrap: places });
    expect(c.status).toBe('skipped');
    expect(c.message).toMatch(/^borrow .*: an amount of at most two decimal places was refused for its places: the target answered 400 .*as if profile assets\.info were set otherwise/);
  });

  it('an answer with more places than the profile gives the asset is the profile\'s gap too, never a broken rule', { timeout: 60_000 }, async () => {
    // A target whose interest runs to 12 places, where the profile (its default decimals) says 6.
    const fine: Wrap = async (req, next) => {
      const res = await next(req);
      if (routeOfRequest(defaultProfile, req)?.id !== 'position.get' || !res.ok) return res;
      const b = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...b, accruedInterest: '0.000000000001' }), { status: res.status, headers: res.headers });
    };
    const c = await run({ controls: false, wrap: fine });
    expect(c.status).toBe('skipped');
    expect(c.message).toMatch(/the position's accruedInterest: 0\.000000000001 has 12 decimal places; the profile gives \w+ \d+: the target answered .*as if profile assets\.info were set otherwise/);
  });

  for (const name of ['withdraw-not-debited', 'cancel-double-refund']) {
    it(`catches ${name} on every run (the fixed tour), cut down to the steps that break it`, { timeout: 120_000 }, async () => {
      const seeds = [Date.now() % 2 ** 31, 7];
      const runs = await Promise.all(seeds.map((seed) => run({ faults: [{ name }], seed })));
      for (const c of runs) {
        expect(c.status).toBe('failed');
        expect(c.message).toMatch(/money appeared/);
        expect(c.message).toContain('the fixed tour, cut down step by step');
        const shortest = /shortest sequence found: (.*?) \(the fixed tour/.exec(c.message ?? '')?.[1] ?? '';
        expect(shortest.split('),').length, shortest).toBeLessThanOrEqual(2);
      }
    });

    it(`catches ${name} in random walks alone, shrunk by fast-check and shown with the seed`, { timeout: 120_000 }, async () => {
      const seeds = [1, 2, 3];
      const runs = await Promise.all(seeds.map((seed) => run({ faults: [{ name }], seed, tour: false })));
      for (const [i, c] of runs.entries()) {
        expect(c.status, `seed ${seeds[i]}`).toBe('failed');
        expect(c.message).toContain(`seed ${seeds[i]}, path`);
        expect(c.message).toMatch(/money appeared/);
        const shortest = /shortest sequence found: (.*?) \/\*/.exec(c.message ?? '')?.[1] ?? '';
        expect(shortest.split('),').length, shortest).toBeLessThanOrEqual(3);
      }
      console.log(`${name}:\n${runs.map((c) => c.message).join('\n')}`);
    });
  }

  it('a target that rate-limits the walk makes it skip, saying so, never fail', { timeout: 60_000 }, async () => {
    const limited: Wrap = (req, next) =>
      routeOfRequest(defaultProfile, req)?.id === 'user.withdraw'
        ? Promise.resolve(new Response(JSON.stringify({ error: { code: 'rate_limit_exceeded', message: 'slow down' } }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '0' } }))
        : next(req);
    const c = await run({ wrap: limited });
    expect(c.status).toBe('skipped');
    expect(c.message).toMatch(/rate-limited the walk's fixed tour \(POST \/users\/.*\/withdraw answered 429 after one wait\)/);
  });

  it('a walk that runs out of its time budget skips, saying so, and claims no rate limit', { timeout: 60_000 }, async () => {
    // A budget of 0 ms is spent before the first step: no 429 is ever sent.
    const [tourRun, walkRun] = await Promise.all([run({ budgetMs: 0, seed: 1 }), run({ budgetMs: 0, seed: 1, tour: false })]);
    for (const c of [tourRun, walkRun]) {
      expect(c.status).toBe('skipped');
      expect(c.message).not.toMatch(/rate-limited/);
    }
    expect(tourRun.message).toMatch(/^the walk used up its 0 ms time budget in the fixed tour, with no broken rule found \(it stopped before (POST|GET|PATCH) \/\S+: the target answered too slowly, or held requests back with 429s\)$/);
    expect(walkRun.message).toMatch(/^the walk used up its 0 ms time budget after \d+ walks?, with no broken rule found \(it stopped before (POST|GET|PATCH) \/\S+: /);
  });
});
