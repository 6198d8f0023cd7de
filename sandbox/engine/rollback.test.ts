import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../app.ts';
import { testSandbox } from '../testing/helpers.ts';
import type { Engine } from './engine.ts';

// A group commit that fails rolls back every write of its batch; the engine's in-memory
// caches (order books, last trade rates, oracle prices) must fall back with it, or later
// quotes, matches and collateral checks would follow writes that never happened.

/** Everything the engine keeps in memory, in a comparable form. */
function caches(engine: Engine) {
  const books = [...engine.markets.books].map(([k, b]) => [
    k,
    [...b.lends.inOrder()].map((o) => `${o.positionId}@${o.rate}:${o.remaining.toFixed()}`),
    [...b.borrows.inOrder()].map((o) => `${o.positionId}@${o.rate}:${o.remaining.toFixed()}`),
  ]);
  const nonEmpty = books.filter(([, l, b]) => (l as string[]).length + (b as string[]).length > 0);
  return {
    books: nonEmpty,
    lastRate: [...engine.markets.lastRate].sort(),
    eth: engine.price('ETH').toFixed(),
    quotes: ['30d', '90d'].map((m) => engine.quote('USDC', m)),
  };
}

describe('a failed commit', () => {
  let sb: Sandbox;
  afterEach(async () => sb.close());

  it('restores every in-memory cache to what is stored', async () => {
    sb = testSandbox();
    const { engine, db } = sb;
    // A deferred foreign key is checked at COMMIT: writing an orphan child makes the batch's COMMIT fail.
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE boom_parent (id INTEGER PRIMARY KEY);
             CREATE TABLE boom_child (parent INTEGER REFERENCES boom_parent (id) DEFERRABLE INITIALLY DEFERRED)`);
    engine.lend('pa', { userId: 'l1', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' });
    engine.lend('pa', { userId: 'l2', asset: 'USDC', amount: '7', rate: 0.06, maturity: '90d' });
    await engine.settled();
    const before = caches(engine);
    const rollbacks = engine.rollbacks;

    // One batch: a fill (empties a resting order, sets a last rate), a new resting order and an oracle move.
    engine.borrow('pb', { userId: 'b1', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '10', rate: 0.09, maturity: '30d' });
    engine.borrow('pb', { userId: 'b2', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '3', rate: 0.02, maturity: '90d' });
    engine.setOraclePrice('ETH', '1234');
    const during = caches(engine);
    expect(during.lastRate, 'the batch changed the last rates in memory').not.toEqual(before.lastRate);
    expect(during.eth).toBe('1234');
    expect(during.books).not.toEqual(before.books);
    db.prepare('INSERT INTO boom_child (parent) VALUES (42)').run();

    await expect(engine.settled()).rejects.toThrow(/FOREIGN KEY/);
    expect(engine.rollbacks).toBe(rollbacks + 1);
    expect(db.prepare("SELECT COUNT(*) FROM positions WHERE user_id IN ('b1', 'b2')").pluck().get(), 'the batch is gone from the file').toBe(0);
    expect(caches(engine)).toEqual(before);

    // And the engine goes on from there: the same crossing order fills against the restored book.
    db.pragma('foreign_keys = OFF');
    const again = engine.borrow('pb', { userId: 'b3', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '10', rate: 0.09, maturity: '30d' });
    await engine.settled();
    expect(engine.row(again.id)?.status).toBe('active');
  });
});
