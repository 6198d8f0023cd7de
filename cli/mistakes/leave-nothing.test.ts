import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { detectProfile } from '../../detect/index.ts';
import { runConformance } from '../../conformance/suite/run.ts';

// Leave nothing behind: after `profile detect` and conformance's webhook checks against a
// sandbox, GET /webhooks lists none of their subscriptions; detection names the user-id
// prefix its positions stay under.

const KEY = 'ck_test_partner_a_growth';
let sb: SandboxServer;

const subscriptions = async (): Promise<unknown[]> => {
  const r = await request(`${sb.url}/webhooks`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await r.body.json()) as { webhooks: unknown[] }).webhooks;
};

beforeAll(async () => {
  sb = await startSandboxServer({ dbPath: ':memory:' });
});
afterAll(() => sb?.close());

describe('lendcheck leaves no subscription on a target', () => {
  it('profile detect deletes every subscription it made, and names the user-id prefix', { timeout: 180_000 }, async () => {
    const d = await detectProfile({ baseUrl: sb.url, apiKey: KEY });
    expect(d.options['webhooks.listAndDelete']).toMatchObject({ detected: true, value: true });
    expect(d.leftBehind?.subscriptions).toEqual([]);
    expect(d.leftBehind?.userPrefix).toMatch(/^detect-[a-z0-9]+-$/);
    expect(await subscriptions()).toEqual([]);
  });
  it("conformance's webhook checks delete theirs", { timeout: 180_000 }, async () => {
    const r = await runConformance({ baseUrl: sb.url, apiKey: KEY, apiKey2: 'ck_test_partner_b_growth', only: ['hooks.*'], inProcess: true });
    expect(Number(r.figures.passed)).toBeGreaterThan(0);
    expect(await subscriptions()).toEqual([]);
  });
});
