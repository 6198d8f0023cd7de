import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, routeOfRequest } from '../contract/index.ts';
import { serveWrapped, type EmbeddedTarget } from './embedded.ts';
import { runChecks } from './runner.ts';

// Issue 47, cause 5, through the runner over loopback: a correct service whose authenticated order
// book (a body the spec does not show) answers `maturity: null` passes, with an advisory naming
// the sentence it leans on and the answer that shows it; --strict makes it a failure.

let t: EmbeddedTarget;
beforeAll(async () => {
  t = await serveWrapped(
    async (req, next) => {
      const res = await next(req);
      // The authenticated book only (the router tells it from the public one by the key).
      if (routeOfRequest(defaultProfile, req)?.id !== 'orderbook.get' || res.status !== 200) return res;
      const body = (await res.json()) as Record<string, unknown>;
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify({ asset: 'USDC', ...body, maturity: null }), { status: 200, headers });
    },
    { profile: defaultProfile, validateResponses: false },
  );
});
afterAll(async () => {
  await t.close();
});

describe('advice is not failure', () => {
  const only = ['endpoint.orderbook.get', 'endpoint.every-success-body'];

  it('passes a not-shown body with a same-named field of another type, and says so as advice with its evidence', async () => {
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, only });
    expect(r.checks.map((c) => [c.id, c.status])).toEqual([['endpoint.orderbook.get', 'passed'], ['endpoint.every-success-body', 'passed']]);
    expect(r.status).toBe('passed');
    for (const c of r.checks) {
      expect(c.advisories, c.id).toEqual([expect.objectContaining({ requirement: 'SHAPE-position', received: expect.stringMatching(/^maturity: .*null/), evidence: expect.stringMatching(/^GET \/v1\/markets\/USDC\/orderbook → 200$/) })]);
    }
    expect(r.figures).toMatchObject({ failed: 0, advisories: 2 });
  });

  it('fails it under --strict, naming the advice taken as a rule', async () => {
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, only, strict: true });
    expect(r.checks.find((c) => c.id === 'endpoint.orderbook.get')).toMatchObject({ status: 'failed', message: expect.stringMatching(/advice taken as a rule \(--strict\): SHAPE-position/) });
    expect(r.status).toBe('failed');
  });

  it('gives a deviation from the profile where the spec is silent (an unusual code) as advice too, with its evidence', async () => {
    const other = parseProfile({ errors: { invalidState: { code: 'invalid_state', status: 409 } } });
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: other, only: ['lifecycle.cancel'] });
    expect(r.checks[0]).toMatchObject({ status: 'passed', advisories: [expect.objectContaining({ profile: 'errors.invalidState', expected: expect.stringMatching(/^409 invalid_state, as the profile says/), received: '400 invalid_request', evidence: expect.stringMatching(/^POST \/v1\/positions\/.+\/cancel → 400$/) })] });
  });
});
