import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { runAuthz } from './testing/proof.ts';

// The webhook list's body is not shown by the spec: a correct target may list its subscriptions
// without their ids (mutator seeds 20, 23, 30 dropped, nulled or renamed them). A's subscription
// then survives B's requests as long as A can still delete it; the matrix must not fail it.

async function run(faults: Array<{ name: string }> = []) {
  const r = await runAuthz(faults, defaultProfile, defaultProfile, async (req, next) => {
    const res = await next(req);
    if (routeOfRequest(defaultProfile, req)?.id !== 'webhooks.list' || res.status !== 200) return res;
    const j = (await res.json()) as { webhooks?: Array<Record<string, unknown>> };
    // Only the events of each subscription: no id, no url.
    const items = (j.webhooks ?? []).map((w) => ({ events: w.events }));
    return new Response(JSON.stringify({ items }), { status: 200, headers: res.headers });
  });
  return r.checks.find((c) => c.id === 'authz.matrix')!;
}

describe('authz.matrix against a webhook list that shows no ids', () => {
  it('passes a correct target: A deletes its own subscription after B\'s requests, and a note says so', async () => {
    const m = await run();
    expect(m.status, m.message ?? '').toBe('passed');
    expect(m.notes.join('\n')).toMatch(/did not show its subscription by id or url/);
  }, 60_000);

  it('still fails a target that lets B delete A\'s subscription (webhook-delete-unchecked)', async () => {
    const m = await run([{ name: 'webhook-delete-unchecked' }]);
    expect(m.status).toBe('failed');
  }, 60_000);
});
