import { routePath } from '../contract/fill-path.ts';
import { TIERS, WEBHOOK_RETRY_DELAYS_MS } from '../contract/constants.ts';
import type { RunSummary, PartResult, CheckResult } from '../kernel/results.ts';

// A realistic run with all four parts (and the contract step), for the writer tests, the
// browser test and `lendcheck report --demo`. The load series come from simulating the
// token bucket the profile describes, so the charts look like real ones; nothing here is
// presented as a measurement of any service.

export const FIXTURE_KEYS = {
  starter: 'ck_test_partner_a_starter',
  growth: 'ck_test_partner_a_growth',
  live: 'ck_live_fake_fixture_9f8e7d6c5b4a',
  secret: 'whsec_fake_fixture_Zm9vYmFyYmF6',
};

function bucketRun(tier: keyof typeof TIERS, rps: number, seconds: number) {
  const { perMinute, burst } = TIERS[tier];
  let tokens: number = burst;
  const accepted = [];
  const rejected = [];
  for (let t = 0; t < seconds; t++) {
    let a = 0;
    for (let i = 0; i < rps; i++) {
      tokens = Math.min(burst, tokens + perMinute / 60 / rps);
      if (tokens >= 1) {
        tokens -= 1;
        a++;
      }
    }
    accepted.push({ t, value: a });
    rejected.push({ t, value: rps - a });
  }
  return { accepted, rejected, perMinute, burst };
}

const check = (c: Partial<CheckResult> & Pick<CheckResult, 'id' | 'title' | 'status'>): CheckResult => ({ requirements: [], durationMs: 12, notes: [], ...c });

export function fixtureRunSummary(opts: { withSecrets?: boolean; failing?: boolean } = {}): RunSummary {
  const failing = opts.failing ?? true;
  const key = opts.withSecrets ? FIXTURE_KEYS.starter : 'ck_test_***';
  const t0 = Date.parse('2026-11-22T15:00:00.000Z');
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const target = 'http://127.0.0.1:41873/v1';

  const contract: PartResult = {
    part: 'contract', name: 'profile and OpenAPI', status: 'passed', startedAt: at(0), durationMs: 180, target, profile: 'lendcheck-default',
    checks: [check({ id: 'openapi-fresh', title: 'contract/openapi/openapi.json matches the contract', status: 'passed' })], figures: {},
  };

  const confChecks: CheckResult[] = [
    check({ id: 'auth-invalid-key', title: 'an invalid key is refused with 401 authentication_failed', requirements: ['AUTH-4'], status: 'passed' }),
    check({ id: 'lend-create-pending', title: 'a new lend order is returned pending', requirements: ['STATE-create-pending', 'SHAPE-create-lend'], status: 'passed' }),
    check({ id: 'list-limit-max', title: 'a list limit above 100 is refused naming limit', requirements: ['PAGE-limit-max'], status: 'passed' }),
    check({ id: 'amount-decimal', title: 'amounts in responses are decimal strings', requirements: ['CONV-amount-decimal'], status: 'passed' }),
    check({
      id: 'insufficient-funds-details',
      title: 'insufficient funds carries required and available',
      requirements: ['ERR-insufficient_funds-details'],
      status: failing ? 'failed' : 'passed',
      message: failing ? 'expected error.details.available to be a decimal string / received number 12.5' : undefined,
      exchange: failing
        ? {
            method: 'POST', url: `${target}${routePath('user.withdraw', { userId: 'u-42' })}`, status: 400, endpoint: 'user.withdraw',
            requestHeaders: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            requestBody: JSON.stringify({ asset: 'USDC', amount: '1000000', destination: '0x52908400098527886E0F7030069857D2E4169EE7' }),
            responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-remaining': '97' },
            responseBody: JSON.stringify({ error: { code: 'insufficient_funds', message: `not enough USDC for key ${key}`, details: { required: '1000000', available: 12.5 } } }),
            durationMs: 4.2,
          }
        : undefined,
    }),
    check({ id: 'public-no-key', title: 'public endpoints answer without a key', requirements: ['AUTH-5'], status: 'passed' }),
    check({ id: 'webhook-secret-prefix', title: 'a generated webhook secret starts with whsec_', requirements: ['HOOK-secret-prefix'], status: 'passed', notes: opts.withSecrets ? [`received ${FIXTURE_KEYS.secret}`] : [] }),
    check({ id: 'live-key-refused', title: 'live keys are not used without opting in', requirements: ['AUTH-2'], status: 'skipped', message: 'skipped: no ck_live_ key was given (safety)' }),
  ];
  const conformance: PartResult = {
    part: 'conformance', name: 'conformance suite', status: failing ? 'failed' : 'passed', startedAt: at(1), durationMs: 8_420, target, profile: 'lendcheck-default',
    checks: confChecks,
    coverage: [
      { requirement: 'AUTH-4', checks: ['auth-invalid-key'], result: 'passed' },
      { requirement: 'AUTH-5', checks: ['public-no-key'], result: 'passed' },
      { requirement: 'AUTH-2', checks: ['live-key-refused'], result: 'skipped' },
      { requirement: 'CONV-amount-decimal', checks: ['amount-decimal'], result: 'passed' },
      { requirement: 'SHAPE-create-lend', checks: ['lend-create-pending'], result: 'passed' },
      { requirement: 'PAGE-limit-max', checks: ['list-limit-max'], result: 'passed' },
      { requirement: 'ERR-insufficient_funds-details', checks: ['insufficient-funds-details'], result: failing ? 'failed' : 'passed' },
      { requirement: 'HOOK-secret-prefix', checks: ['webhook-secret-prefix'], result: 'passed' },
      { requirement: 'SHAPE-orderbook', checks: [], result: 'uncovered' },
      // A receiver rule: conformance never checks it, the certify part below does.
      { requirement: 'HOOK-invalid-401', checks: [], result: 'uncovered' },
    ],
    figures: { checks: confChecks.length, requirementsCovered: 8 },
  };

  const tiers = (['starter', 'growth', 'scale'] as const).map((tier, i) => {
    const rps = Math.ceil((TIERS[tier].perMinute / 60) * 3);
    const r = bucketRun(tier, rps, 60);
    return {
      name: `smoke rate limit, ${tier} (${rps} req/s for 60 s)`,
      tier,
      limitPerMinute: r.perMinute,
      accepted: r.accepted,
      rejected: r.rejected,
      latencyMs: { p50: 2.1 + i, p90: 4.8 + i, p95: 6.3 + i, p99: 11.9 + 2 * i, max: 31.4 + 5 * i },
    };
  });
  const load: PartResult = {
    part: 'load', name: 'smoke rate limit per tier + matching smoke', status: 'passed', startedAt: at(10), durationMs: 184_000, target, profile: 'lendcheck-default',
    series: [
      ...tiers,
      {
        name: 'matching smoke (lend + borrow, 20 VUs)', tier: 'scale', limitPerMinute: 1000,
        accepted: Array.from({ length: 30 }, (_, t) => ({ t, value: 14 + (t % 3) })),
        rejected: Array.from({ length: 30 }, (_, t) => ({ t, value: 0 })),
        latencyMs: { p50: 5.5, p90: 9.1, p95: 12.2, p99: 20.4, max: 48 },
      },
    ],
    checks: [
      ...tiers.map((s) => check({ id: `burst-${s.tier}`, title: `a full ${s.tier} bucket admits exactly its burst`, requirements: [`LIMIT-tier-${s.tier}`], status: 'passed' })),
      check({ id: 'headers', title: 'every response carries the three X-RateLimit headers', requirements: ['LIMIT-headers'], status: 'passed' }),
      check({ id: 'matching-no-5xx', title: 'matching under load answers no 5xx', status: 'passed' }),
    ],
    figures: { requests: tiers.reduce((n, s) => n + s.accepted.concat(s.rejected).reduce((a, p) => a + p.value, 0), 0) },
  };

  const cum = WEBHOOK_RETRY_DELAYS_MS.reduce<number[]>((a, d) => [...a, (a.at(-1) ?? 0) + d], [0]);
  const jitter = [0, 212, -150, 900, 1300, 4100];
  const chaos: PartResult = {
    part: 'chaos', name: 'time-scaled retry schedule', status: failing ? 'failed' : 'passed', startedAt: at(200), durationMs: 96_500, target, profile: 'lendcheck-default',
    timeline: [
      { eventId: 'evt_01J9Z1', type: 'position.matched', expectedMs: cum, observedMs: cum.map((m, i) => m + jitter[i]), verdict: 'passed' },
      { eventId: 'evt_01J9Z2', type: 'withdrawal.completed', expectedMs: cum.slice(0, 3), observedMs: cum.slice(0, 3).map((m, i) => m + jitter[i] / 2), verdict: 'passed', message: 'answered 200 on retry 2' },
      failing
        ? { eventId: 'evt_01J9Z3', type: 'position.created', expectedMs: cum, observedMs: [0, 60_300, 361_000, 900_000], verdict: 'failed', message: 'expected retry 3 at 36 min ± 1 min / received 15 min; retries 4 and 5 missing' }
        : { eventId: 'evt_01J9Z3', type: 'position.created', expectedMs: cum.slice(0, 2), observedMs: [0, 60_100], verdict: 'passed' },
    ],
    checks: [
      check({ id: 'retry-schedule', title: 'failed deliveries are retried after 1m, 5m, 30m, 2h, 24h', requirements: ['HOOK-retry-schedule'], status: failing ? 'failed' : 'passed', message: failing ? 'expected 5 retries of evt_01J9Z3 / received 3' : undefined }),
      check({ id: 'signature', title: 'every delivery carries a valid x-service-signature', requirements: ['HOOK-signature-header'], status: 'passed' }),
    ],
    figures: { timeScale: 1, events: 3 },
  };

  const certify: PartResult = {
    part: 'certify', name: 'sample receiver (examples/receivers)', status: 'passed', startedAt: at(300), durationMs: 7_100, target: 'http://127.0.0.1:41900/webhooks',
    checks: [
      check({ id: 'bad-signature-401', title: 'a delivery with a bad signature is answered 401', requirements: ['HOOK-invalid-401'], status: 'passed' }),
      check({ id: 'answers-in-5s', title: 'a valid delivery is answered 200 within 5 seconds', requirements: ['HOOK-answer-5s'], status: 'passed' }),
      check({ id: 'idempotent', title: 'a repeated event id is processed once', requirements: ['HOOK-idempotent'], status: 'passed' }),
      check({ id: 'tampered-body', title: 'a body changed after signing is refused', status: 'passed' }),
    ],
    figures: { deliveries: 24 },
  };

  const parts = [contract, conformance, load, chaos, certify];
  return {
    runId: 'fixture-20261122T150000Z',
    verdict: parts.some((p) => p.status === 'failed') ? 'failed' : 'passed',
    target,
    profile: 'lendcheck-default',
    startedAt: at(0),
    durationMs: 307_100,
    parts,
  };
}
