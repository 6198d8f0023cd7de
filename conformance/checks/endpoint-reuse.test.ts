import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { pass, type Check } from '../check.ts';
import { serveWrapped } from '../embedded.ts';
import { runChecks } from '../runner.ts';
import { endpointChecks } from './endpoints.ts';
import { sharedLend } from './fixtures.ts';

// An endpoint's own check judges the run's first success answer from that endpoint (another
// check's request, judged on arrival) instead of sending one of its own (issue 48): it passes
// naming that request, fails on it when it is broken, and asks itself when no answer came.

const reader: Check = {
  id: 'test.reads-a-position',
  title: 'reads the shared lend back',
  requirements: ['EP-position-get'],
  async run(ctx) {
    const { positionId } = await sharedLend(ctx);
    await ctx.call('position.get', { params: { positionId } });
    return pass();
  },
};

const getCheck = endpointChecks(defaultProfile).find((c) => c.id === 'endpoint.position.get')!;

async function run(checks: Check[], breakGet = false) {
  const t = await serveWrapped(
    async (req, next) => {
      const res = await next(req);
      if (!breakGet || routeOfRequest(defaultProfile, req)?.id !== 'position.get') return res;
      const b = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...b, amount: 100 }), { status: res.status, headers: res.headers });
    },
    { profile: defaultProfile, validateResponses: false },
  );
  try {
    return await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, checks, seed: 1 });
  } finally {
    await t.close();
  }
}

describe('an endpoint check on an answer the run already got', () => {
  it('runs after the scenarios, passes on the earlier answer with no request of its own, naming it and its check', { timeout: 60_000 }, async () => {
    expect(getCheck.phase).toBe('late');
    const r = await run([getCheck, reader]);
    const c = r.checks.find((x) => x.id === 'endpoint.position.get')!;
    expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
    expect(c.requests).toBe(0);
    expect(c.exchange?.url).toMatch(/\/positions\/pos_/);
    expect(c.exchange?.status).toBe(200);
    expect(c.notes.join('\n')).toMatch(/first success answer from position\.get, no request of its own: GET \/v1\/positions\/\S+ → 200, sent by test\.reads-a-position/);
  });

  it('fails on that answer when it is broken, citing it', { timeout: 60_000 }, async () => {
    const r = await run([reader, getCheck], true);
    const c = r.checks.find((x) => x.id === 'endpoint.position.get')!;
    expect(c.status).toBe('failed');
    expect(c.requests).toBe(0);
    expect(JSON.stringify(c)).toMatch(/amount/);
    expect(c.exchange?.url).toMatch(/\/positions\/pos_/);
  });

  it('sends its own request when no answer of its endpoint came', { timeout: 60_000 }, async () => {
    const r = await run([getCheck]);
    const c = r.checks[0]!;
    expect(`${c.status} ${c.message ?? ''}`).toBe('passed ');
    expect(c.requests).toBeGreaterThan(0);
    expect(c.notes.join('\n')).not.toMatch(/no request of its own/);
  });
});
