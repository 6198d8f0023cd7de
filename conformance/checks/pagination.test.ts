import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { runChecks } from '../runner.ts';
import { outOfOrder } from './pagination.ts';

// The list order is judged by createdAt with ties in any order (a target may order
// same-tick positions by id, by insertion, or not at all); under --strict a walk in the
// other order still fails.

describe('pagination order', () => {
  const t = (s: number) => new Date(Date.UTC(2026, 10, 23, 8, 0, s)).toISOString();
  it('takes same-tick ties in any order, either way', () => {
    expect(outOfOrder(['b', 'a', 'c'], [t(1), t(1), t(2)], 'created-asc')).toBeUndefined();
    expect(outOfOrder(['c', 'a', 'b'], [t(2), t(1), t(1)], 'created-desc')).toBeUndefined();
  });
  it('names the first pair out of order', () => {
    expect(outOfOrder(['a', 'b'], [t(1), t(2)], 'created-desc')).toMatch(/^a \(createdAt .*\) before b/);
    expect(outOfOrder(['a', 'b', 'c'], [t(1), t(3), t(2)], 'created-asc')).toMatch(/^b .* before c/);
  });

  describe('under --strict against the sandbox (25 lends in quick succession)', () => {
    let server: SandboxServer;
    beforeAll(async () => {
      server = await startSandboxServer({ validateResponses: false });
    });
    afterAll(() => server.close());
    const run = (order: 'created-desc' | 'created-asc') =>
      runChecks({ baseUrl: server.url, apiKey: 'ck_test_partner_a_scale', profile: parseProfile({ pagination: { order } }), only: ['pagination.walk'], strict: true });
    it('passes the order the sandbox follows, and fails the other', { timeout: 60_000 }, async () => {
      expect((await run('created-desc')).checks.map((c) => [c.status, c.message])).toEqual([['passed', undefined]]);
      const other = (await run('created-asc')).checks[0]!;
      expect(other.status).toBe('failed');
      expect(other.message).toMatch(/pagination\.order/);
    });
  });
});
