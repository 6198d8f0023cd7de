import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDb } from '../store/check.ts';
import { caller, testSandbox } from '../testing/helpers.ts';

// The ledger keeps users and balances in memory in front of SQLite (ledger.ts). Generated
// runs interleave orders, orders the user cannot cover (their transaction, which may have
// created the user and credited starting funds, rolls back), cancels, withdrawals and
// transactions rolled back on purpose after a balance move; after every step each user's
// balances as the engine reads them must equal the rows on file, and the file's ledger must
// balance (store/check.ts).

type Step =
  | { kind: 'lend'; user: number; amount: number }
  | { kind: 'fail'; user: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'withdraw'; user: number }
  | { kind: 'undo'; user: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('lend' as const), user: fc.integer({ min: 0, max: 3 }), amount: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('fail' as const), user: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('withdraw' as const), user: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('undo' as const), user: fc.integer({ min: 0, max: 3 }) }),
);

describe('users and balances in memory', () => {
  it('read as the file holds them, through failed orders and rollbacks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 30 }), async (steps) => {
        const sb = testSandbox();
        const call = caller(sb);
        const e = sb.engine;
        const ids: string[] = [];
        const onFile = sb.db.prepare('SELECT asset, available, locked FROM balances WHERE partner_id = ? AND user_id = ? ORDER BY asset');
        try {
          for (const s of steps) {
            const userId = `u${'user' in s ? s.user : 0}`;
            if (s.kind === 'lend') {
              // What the file says the user holds decides the answer (a new user gets starting funds).
              const held = (onFile.all('partner_a', userId) as Array<{ asset: string; available: string }>).find((b) => b.asset === 'USDC');
              const available = Number(held?.available ?? e.config.startingFunds.USDC ?? 0);
              const r = await call('POST', '/lend', { body: { userId, asset: 'USDC', amount: String(s.amount), rate: 0.1, maturity: '30d' } });
              expect(r.status).toBe(s.amount <= available ? 201 : 400);
              if (r.status === 201) ids.push(r.body.positionId);
            } else if (s.kind === 'fail') {
              expect((await call('POST', '/lend', { body: { userId, asset: 'USDC', amount: '999999999', rate: 0.1, maturity: '30d' } })).status).toBe(400);
            } else if (s.kind === 'cancel' && ids.length) {
              await call('POST', `/positions/${ids[s.pick % ids.length]}/cancel`);
            } else if (s.kind === 'withdraw') {
              await call('POST', `/users/${userId}/withdraw`, { body: { asset: 'USDC', amount: '1', destination: '0xabc' } });
            } else if (s.kind === 'undo') {
              expect(() =>
                e.tx(() => {
                  e.ledger.ensureUser('partner_a', userId);
                  e.ledger.credit('partner_a', userId, 'USDC', e.ledger.bal('partner_a', userId, 'USDC').available.neg());
                  throw new Error('rolled back on purpose');
                }),
              ).toThrow('rolled back on purpose');
            }
            await e.settled();
            for (let u = 0; u < 4; u++) {
              const rows = onFile.all('partner_a', `u${u}`) as Array<{ asset: string; available: string; locked: string }>;
              const mem = rows.map((r) => ({ asset: r.asset, ...e.ledger.bal('partner_a', `u${u}`, r.asset) })).map((b) => ({ asset: b.asset, available: b.available.toFixed(), locked: b.locked.toFixed() }));
              expect(mem).toEqual(rows.map((r) => ({ asset: r.asset, available: r.available, locked: r.locked })));
              expect(e.ledger.userExists('partner_a', `u${u}`)).toBe(sb.db.prepare('SELECT 1 FROM users WHERE partner_id = ? AND user_id = ?').get('partner_a', `u${u}`) !== undefined);
            }
          }
          expect(checkDb(sb.db).violations).toEqual([]);
        } finally {
          await sb.close();
        }
      }),
      { numRuns: 40, seed: 9 },
    );
  });
});
