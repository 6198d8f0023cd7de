import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../app.ts';
import { ApiError } from '../answer/errors.ts';
import { caller, testSandbox } from '../testing/helpers.ts';

// Group commit: writes of one event-loop turn share one COMMIT, each still rolls back
// alone, and nothing is answered or announced before its commit.

describe('group commit', () => {
  let sb: Sandbox;
  afterEach(async () => sb.close());

  it('commits concurrent writes together and answers only after the commit', async () => {
    sb = testSandbox();
    const call = caller(sb);
    await sb.engine.settled();
    let commits = 0;
    const orig = sb.engine.commitNow.bind(sb.engine);
    sb.engine.commitNow = () => {
      if (sb.db.inTransaction) commits++;
      orig();
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', '/lend', { body: { userId: `g${i}`, asset: 'USDC', amount: '5', rate: 0.09 } }).then((r) => {
          expect(sb.db.inTransaction, 'answered only after commit').toBe(false);
          return r.status;
        }),
      ),
    );
    expect(answers).toEqual(Array(10).fill(201));
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(10);
    expect(sb.db.prepare("SELECT COUNT(*) FROM positions WHERE user_id LIKE 'g%'").pluck().get()).toBe(10);
  });

  it('rolls back a failing write alone and announces events only after the commit', async () => {
    sb = testSandbox();
    await sb.engine.settled();
    const seen: string[] = [];
    sb.engine.onEvents((evs) => seen.push(...evs.map((e) => e.type)));
    const ok = sb.engine.lend('p', { userId: 'a', asset: 'USDC', amount: '5', rate: 0.09 });
    expect(() => sb.engine.lend('p', { userId: 'b', asset: 'USDC', amount: '999999999' })).toThrow(ApiError);
    expect(sb.db.inTransaction).toBe(true);
    expect(seen).toEqual([]);
    await sb.engine.settled();
    expect(seen).toEqual(['position.created']);
    expect(sb.engine.row(ok.id)?.status).toBe('pending');
    expect(sb.db.prepare("SELECT COUNT(*) FROM positions WHERE user_id = 'b'").pluck().get()).toBe(0);
  });
});
