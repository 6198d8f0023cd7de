import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { caller, testSandbox } from '../testing/helpers.ts';
import { listItemView } from './views.ts';

// A list page is assembled in memory (each user's keys with their status and type, kept in
// step by inserts and saves, and the row cache); SQLite builds the same page from the rows.
// Generated runs interleave orders (several in one business millisecond, so ids break
// ties), cancels, failed orders, transactions rolled back after an insert or a status
// change (their memory changes taken back by the journal), reloads of the keys from the
// table (as at start), and pages read with and without cursors and filters, in both
// orders; every page must equal SQLite's, item by item.

type Step =
  | { kind: 'lend'; user: number; tick: boolean }
  | { kind: 'cancel'; pick: number }
  | { kind: 'fail'; user: number }
  | { kind: 'undo'; user: number; pick: number }
  | { kind: 'reload' }
  | { kind: 'page'; user: number; limit: number; status?: string; type?: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('lend' as const), user: fc.integer({ min: 0, max: 2 }), tick: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('fail' as const), user: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('undo' as const), user: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }),
  fc.record({ kind: fc.constant('reload' as const) }),
  fc.record(
    {
      kind: fc.constant('page' as const),
      user: fc.integer({ min: 0, max: 2 }),
      limit: fc.integer({ min: 1, max: 7 }),
      status: fc.constantFrom('pending', 'cancelled'),
      type: fc.constantFrom('lend', 'borrow'),
    },
    { requiredKeys: ['kind', 'user', 'limit'] },
  ),
);

describe('list pages from memory', () => {
  for (const order of ['created-desc', 'created-asc'] as const) {
    it(`equal SQLite's pages under ${order}, through inserts, cancels and rollbacks`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
          const sb = testSandbox({ profile: parseProfile({ pagination: { order } }) });
          const call = caller(sb);
          const ids: string[] = [];
          try {
            for (const s of steps) {
              if (s.kind === 'lend') {
                if (s.tick) sb.clock.advance(1);
                const r = await call('POST', '/lend', { body: { userId: `u${s.user}`, asset: 'USDC', amount: '10', rate: 0.1, maturity: '30d' } });
                expect(r.status).toBe(201);
                ids.push(r.body.positionId);
              } else if (s.kind === 'cancel' && ids.length) {
                await call('POST', `/positions/${ids[s.pick % ids.length]}/cancel`);
              } else if (s.kind === 'fail') {
                // More than the user holds: the order's transaction rolls back.
                expect((await call('POST', '/lend', { body: { userId: `u${s.user}`, asset: 'USDC', amount: '999999999', rate: 0.1, maturity: '30d' } })).status).toBe(400);
              } else if (s.kind === 'undo') {
                // An insert and a status change inside a transaction that then fails.
                const e = sb.engine;
                expect(() =>
                  e.tx(() => {
                    e.insertPosition({
                      partner_id: 'partner_a', user_id: `u${s.user}`, type: 'lend', asset: 'USDC', market: '30d', amount: '1',
                      limit_rate: 0.1, mode: 'easy', auto_rollover: false, auto_refinance: false, created_at_ms: e.now(),
                    });
                    const open = ids.map((id) => e.getPosition('partner_a', id)).filter((r) => r.status === 'pending');
                    const r = open[s.pick % Math.max(1, open.length)];
                    if (r) {
                      e.transition(r, 'cancelled');
                      e.savePosition(r);
                    }
                    throw new Error('rolled back on purpose');
                  }),
                ).toThrow('rolled back on purpose');
              } else if (s.kind === 'reload') {
                sb.engine.reads.reload();
              } else if (s.kind === 'page') {
                let cursor: string | undefined;
                do {
                  const q = { limit: s.limit, status: s.status, type: s.type, ...(cursor ? { cursor } : {}) };
                  const mem = sb.engine.listPositions('partner_a', `u${s.user}`, q, 'json');
                  const sql = sb.engine.listPositions('partner_a', `u${s.user}`, q, 'rows');
                  expect(mem.items!.map((t) => JSON.parse(t))).toEqual(sql.rows.map(listItemView));
                  expect(mem.hasMore).toBe(sql.hasMore);
                  expect(mem.nextCursor).toBe(sql.nextCursor);
                  cursor = mem.nextCursor;
                } while (cursor);
              }
            }
          } finally {
            await sb.close();
          }
        }),
        { numRuns: 40, seed: 27 },
      );
    });
  }

  it('would catch a key list that misses an insert', async () => {
    const sb = testSandbox();
    const call = caller(sb);
    try {
      await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '10', rate: 0.1, maturity: '30d' } });
      expect(sb.engine.listPositions('partner_a', 'u', {}, 'json').items).toHaveLength(1);
      const reads = sb.engine.reads as unknown as { added(r: unknown): void };
      const real = reads.added;
      reads.added = () => {};
      try {
        await call('POST', '/lend', { body: { userId: 'u', asset: 'USDC', amount: '10', rate: 0.1, maturity: '30d' } });
      } finally {
        reads.added = real;
      }
      const mem = sb.engine.listPositions('partner_a', 'u', {}, 'json').items!.length;
      const sql = sb.engine.listPositions('partner_a', 'u', {}, 'rows').rows.length;
      expect([mem, sql]).toEqual([1, 2]);
    } finally {
      await sb.close();
    }
  });
});
