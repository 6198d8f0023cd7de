import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../contract/index.ts';
import { pass, type Check } from './check.ts';
import { everyAnswerCheck } from './checks/every-answer.ts';
import { serveWrapped } from './embedded.ts';
import { runChecks } from './runner.ts';

// The per-response rules over real HTTP: a check calls the position list by its name, the
// target answers a 100-item page (far over the 4 KiB the log keeps of a body), and the answer
// is judged whole as it arrives: a broken last item fails endpoint.every-success-body, naming
// the endpoint and the check that sent the request; the same page unbroken passes.

const item = (i: number) => ({ positionId: `pos_${i}`, status: 'pending', type: 'lend', asset: 'USDC', amount: '100.00', rate: 0.05, maturity: '2026-12-31T00:00:00Z' });

const reader: Check = {
  id: 'test.reads-a-long-page',
  title: 'reads one long page of positions',
  requirements: ['EP-positions-list'],
  async run(ctx) {
    const r = await ctx.call('positions.list', { params: { userId: ctx.user('long') }, query: { limit: 100 } });
    ctx.note(`${r.text.length} bytes`);
    return pass();
  },
};

async function run(last: Record<string, unknown>) {
  const page = { positions: [...Array.from({ length: 99 }, (_, i) => item(i)), last], nextCursor: 'c2', hasMore: true };
  const t = await serveWrapped(
    async (req, next) => (routeOfRequest(defaultProfile, req)?.id === 'positions.list' ? new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } }) : next(req)),
    { profile: defaultProfile, validateResponses: false },
  );
  try {
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, checks: [reader, everyAnswerCheck(defaultProfile)], seed: 1 });
    return { size: JSON.stringify(page).length, read: r.checks[0]!, every: r.checks[1]! };
  } finally {
    await t.close();
  }
}

describe('answers judged on arrival, whole', () => {
  it('fails a broken item past the first 4 KiB of a body, naming the endpoint and the check that sent it; passes it unbroken', { timeout: 60_000 }, async () => {
    const bad = await run({ ...item(99), amount: 100 });
    expect(bad.size).toBeGreaterThan(4096);
    expect(bad.read.status).toBe('passed');
    expect(bad.every.status).toBe('failed');
    expect(bad.every.message ?? '').toMatch(/positions/);
    expect(JSON.stringify(bad.every)).toMatch(/positions\.list, sent by test\.reads-a-long-page/);
    const clean = await run(item(99));
    expect(`${clean.every.status} ${clean.every.message ?? ''}`).toBe('passed ');
    expect(clean.every.notes.join('\n')).toMatch(/1 success answers judged as they arrived, each whole/);
  });
});
