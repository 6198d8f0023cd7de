import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, errorBody } from '../../contract/index.ts';
import { defaultPlugins } from '../plugins.ts';
import { caller, testSandbox } from '../testing/helpers.ts';

// Bad input never gets a 5xx: random bodies, path parameters and query strings against
// every endpoint of the table must all end in a 2xx or a 4xx carrying the error object.

// The part-2 plugins ride along (rate limits off so every call reaches its route).
const sb = testSandbox({ liquidity: { enabled: true, delaySeconds: 5 }, plugins: defaultPlugins({ rateLimits: false, webhooks: false }) });
const call = caller(sb);
afterAll(() => sb.close());

const segment = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('USDC-30d', 'USDC', 'pos_x', 'u1', '%ZZ', '..', '%00', 'a'.repeat(300)));
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record({
    userId: fc.oneof(fc.constant('u1'), fc.string()),
    asset: fc.constantFrom('USDC', 'DAI', 'ETH', 'DOGE', ''),
    amount: fc.oneof(fc.constantFrom('1', '0', '-1', '1.0000001', '1e3', '99999999999999999999999'), fc.double().map(String)),
    rate: fc.oneof(fc.double(), fc.constant(0.05)),
    maturity: fc.constantFrom('30d', '45d', '2027-01-01', '2020-02-30', ''),
    collateral: fc.record({ asset: fc.constantFrom('ETH', 'USDC', 'X'), amount: fc.constantFrom('1', 'x', '0.000000000000000000001') }),
    borrowAsset: fc.constantFrom('USDC', 'ETH'),
    borrowAmount: fc.constantFrom('10', '1e2', '0'),
    destination: fc.constantFrom(`0x${'a'.repeat(40)}`, '0x1', ''),
    seconds: fc.oneof(fc.integer(), fc.double()),
    priceUsd: fc.constantFrom('1', '0', '-3', 'abc'),
    autoRollover: fc.oneof(fc.boolean(), fc.constant('yes')),
  }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);
const query = fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'type', 'depth', 'maturity', 'period', 'asset'), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('101', '-1', '1e400', 'NaN', '20')), { maxKeys: 3 });

describe('bad input never gets a 5xx', () => {
  const table = endpoints(defaultProfile);
  it('holds for random bodies, params and queries on every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...table.map((e) => e.id)), fc.array(segment, { minLength: 3, maxLength: 3 }), body, query, fc.constantFrom('application/json', 'text/plain', undefined), fc.boolean(), async (id, segs, raw, q, ct, withKey) => {
        const e = table.find((x) => x.id === id)!;
        let i = 0;
        const path = e.path.replace(/\{\w+\}/g, () => encodeURIComponent(segs[i++]).replace('%25ZZ', '%ZZ').replace('%2500', '%00'));
        const qs = new URLSearchParams(q).toString();
        const r = await call(e.method, `${path}${qs ? `?${qs}` : ''}`, {
          key: withKey ? undefined : null,
          raw: e.method === 'GET' ? undefined : raw,
          headers: ct ? { 'content-type': ct } : {},
        });
        expect(r.status, `${e.method} ${path}?${qs} ${raw.slice(0, 80)} → ${JSON.stringify(r.body).slice(0, 200)}`).toBeLessThan(500);
        if (r.status >= 400) expect(errorBody.safeParse(r.body).success).toBe(true);
      }),
      { numRuns: 600 },
    );
  });
});
