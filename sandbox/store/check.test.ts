import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../app.ts';
import { TestClock } from '../engine/clock.ts';
import { ApiError } from '../answer/errors.ts';
import { START_MS } from '../testing/helpers.ts';
import { checkDbFile, type Rule } from './check.ts';

// The checker passes a file a real random workload wrote (orders, book matches, the
// liquidity provider, cancels, repays, withdrawals, maturities with rollover and
// refinance, liquidations), and each deliberately corrupted copy fails with its rule.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-check-'));
const good = join(dir, 'good.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small seeded PRNG so a failure reproduces. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const reached: Record<string, number> = {};

beforeAll(async () => {
  const clock = new TestClock({ startMs: START_MS, realNow: () => 0 });
  const sb = createSandbox({ dbPath: good, clock, plugins: [], tickMs: 0, liquidity: { enabled: true, delaySeconds: 5 }, validateResponses: false, groupCommit: false });
  const e = sb.engine;
  const r = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const ids: Array<[string, string]> = [];
  const count = (k: string) => (reached[k] = (reached[k] ?? 0) + 1);
  for (let i = 0; i < 600; i++) {
    const p = pick(['pa', 'pb']);
    const u = pick(['u1', 'u2', 'u3']);
    const amount = `${1 + Math.floor(r() * 3000)}${pick(['', '.5', '.125'])}`;
    const k = pick(['lend', 'lend', 'borrow', 'borrow', 'cancel', 'repay', 'repay', 'withdraw', 'fund', 'advance', 'oracle', 'patch']);
    try {
      switch (k) {
        case 'lend':
          ids.push([p, e.lend(p, { userId: u, asset: pick(['USDC', 'DAI']), amount, rate: pick([0.03, 0.05, 0.07]), maturity: pick(['30d', '90d']), autoRollover: r() < 0.5 }).id]);
          break;
        case 'borrow':
          ids.push([p, e.borrow(p, { userId: u, collateral: { asset: 'ETH', amount: pick(['1', '2', '3']) }, borrowAsset: pick(['USDC', 'DAI']), borrowAmount: amount, rate: pick([0.03, 0.05, 0.07]), maturity: pick(['30d', '90d']), autoRefinance: r() < 0.5 }).id]);
          break;
        case 'cancel':
          if (ids.length) e.cancel(...pick(ids));
          break;
        case 'repay':
          if (ids.length) e.repay(...pick(ids), r() < 0.5 ? undefined : pick(['1', '10.5']));
          break;
        case 'withdraw':
          e.withdraw(p, u, { asset: pick(['USDC', 'DAI', 'ETH']), amount: pick(['1', '25.5', '100']), destination: `0x${'a'.repeat(40)}` });
          break;
        case 'fund':
          e.fund(p, u, pick(['USDC', 'DAI', 'ETH']), amount);
          break;
        case 'advance':
          clock.advance(pick([3, 60, 3600, 5 * 86400, 40 * 86400]) * 1000);
          break;
        case 'oracle':
          e.setOraclePrice('ETH', pick(['800', '3000', '4000']));
          clock.advance(0); // the control runs the liquidation check too
          break;
        case 'patch':
          if (ids.length) e.patch(...pick(ids), { autoRollover: r() < 0.5 });
          break;
      }
      count(`ok:${k}`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  clock.advance(200 * 86400 * 1000);
  for (const s of sb.db.prepare('SELECT status, COUNT(*) AS n FROM positions GROUP BY status').all() as Array<{ status: string; n: number }>) reached[s.status] = s.n;
  reached.rolledLend = sb.db.prepare("SELECT COUNT(*) FROM positions WHERE type = 'lend' AND rolled_from IS NOT NULL").pluck().get() as number;
  reached.refinanced = sb.db.prepare("SELECT COUNT(*) FROM positions WHERE type = 'borrow' AND rolled_from IS NOT NULL").pluck().get() as number;
  reached.partFilledExpired = sb.db.prepare("SELECT COUNT(*) FROM positions p WHERE status <> 'pending' AND (SELECT COUNT(*) FROM fills f WHERE f.lend_id = p.id OR f.borrow_id = p.id) > 1").pluck().get() as number;
  reached.bookFills = sb.db.prepare('SELECT COUNT(*) FROM fills WHERE lend_id IS NOT NULL AND borrow_id IS NOT NULL').pluck().get() as number;
  await sb.close();
});

/** A copy of the good file with `sql` applied. */
function corrupt(name: string, sql: string): string {
  const f = join(dir, `${name}.db`);
  copyFileSync(good, f);
  const db = new Database(f);
  db.exec(sql);
  // A WHERE that matched nothing would leave a clean copy and a confusing failure.
  if (!sql.startsWith('DROP')) expect(db.prepare('SELECT total_changes()').pluck().get(), `${name} changed a row`).toBeGreaterThan(0);
  db.close();
  return f;
}

describe('ledger invariant checker', () => {
  it('passes the file a random workload wrote, and that workload reached every path the rules cover', () => {
    const r = checkDbFile(good);
    expect(r.violations).toEqual([]);
    expect(r.counts.positions).toBeGreaterThan(100);
    expect(r.counts.external).toBeGreaterThan(6); // starting funds and fund calls were journalled
    for (const k of ['ok:lend', 'ok:borrow', 'ok:cancel', 'ok:repay', 'ok:withdraw', 'ok:fund', 'ok:patch', 'matured', 'cancelled', 'liquidated', 'rolledLend', 'refinanced', 'bookFills']) {
      expect(reached[k] ?? 0, `workload reached ${k}`).toBeGreaterThan(0);
    }
  });

  const cases: Array<[string, Rule, string]> = [
    ['edited balance', 'conservation', "UPDATE balances SET available = available + 1 WHERE partner_id = 'pa' AND user_id = 'u1' AND asset = 'USDC'"],
    ['edited locked', 'locked.reserved', "UPDATE balances SET locked = '0.5', available = available - 0.5 WHERE partner_id = 'pa' AND user_id = 'u1' AND asset = 'USDC' AND locked = '0'"],
    ['deleted fill', 'fills.sum', 'DELETE FROM fills WHERE seq = (SELECT MIN(seq) FROM fills)'],
    ['duplicated fill', 'fills.sum', 'INSERT INTO fills (ts_ms, asset, market, lend_id, borrow_id, amount, rate) SELECT ts_ms, asset, market, lend_id, borrow_id, amount, rate FROM fills WHERE seq = (SELECT MAX(seq) FROM fills)'],
    ['duplicated position (value twice)', 'conservation', "INSERT INTO positions (id, partner_id, user_id, type, asset, market, amount, filled, fill_value, limit_rate, rate, maturity_ms, status, mode, auto_rollover, auto_refinance, collateral_asset, collateral_amount, debt, interest_paid, payout, created_at_ms, matched_at_ms, closed_at_ms, rolled_from, rolled_to) SELECT id || 'x', partner_id, user_id, type, asset, market, amount, filled, fill_value, limit_rate, rate, maturity_ms, status, mode, auto_rollover, auto_refinance, collateral_asset, collateral_amount, debt, interest_paid, payout, created_at_ms, matched_at_ms, closed_at_ms, rolled_from, rolled_to FROM positions WHERE type = 'borrow' AND status = 'active' LIMIT 1"],
    ['negative balance', 'balance.negative', "UPDATE balances SET available = '-3' WHERE partner_id = 'pb' AND user_id = 'u2' AND asset = 'DAI'"],
    ['over-filled position', 'position.amounts', "UPDATE positions SET filled = amount + 1 WHERE seq = (SELECT MIN(seq) FROM positions WHERE status = 'matured')"],
    ['unknown status', 'position.status', "UPDATE positions SET status = 'frozen' WHERE seq = (SELECT MIN(seq) FROM positions)"],
    ['cancelled yet filled', 'position.status', "UPDATE positions SET status = 'cancelled' WHERE seq = (SELECT MIN(seq) FROM positions WHERE status = 'matured')"],
    ['debt above filled', 'position.debt', "UPDATE positions SET debt = filled + 1 WHERE seq = (SELECT MIN(seq) FROM positions WHERE type = 'borrow' AND status = 'active')"],
    ['fill of a missing position', 'fills.orphan', "UPDATE fills SET lend_id = 'pos_gone' WHERE seq = (SELECT MIN(seq) FROM fills WHERE lend_id IS NOT NULL)"],
    ['zero withdrawal', 'withdrawal.amount', "UPDATE withdrawals SET amount = '0' WHERE rowid = (SELECT MIN(rowid) FROM withdrawals)"],
    ['lost journal row', 'conservation', 'DELETE FROM ledger_external WHERE seq = (SELECT MAX(seq) FROM ledger_external)'],
    ['journal table missing', 'journal.missing', 'DROP TABLE ledger_external'],
    ['payload of another event', 'outbox.envelope', "UPDATE outbox_events SET payload = (SELECT payload FROM outbox_events ORDER BY seq DESC LIMIT 1) WHERE seq = (SELECT MIN(seq) FROM outbox_events)"],
    [
      'duplicated event id',
      'outbox.duplicate-id',
      // The live schema forbids it (UNIQUE), so the copy is rebuilt without the constraint.
      `CREATE TABLE ob2 (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, partner_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, created_at_ms INTEGER NOT NULL);
       INSERT INTO ob2 SELECT * FROM outbox_events; DROP TABLE outbox_events; ALTER TABLE ob2 RENAME TO outbox_events;
       INSERT INTO outbox_events (id, partner_id, type, payload, created_at_ms) SELECT id, partner_id, type, payload, created_at_ms FROM outbox_events WHERE seq = (SELECT MIN(seq) FROM outbox_events);`,
    ],
  ];

  it.each(cases)('fails a copy with %s as %s', (name, rule, sql) => {
    const f = corrupt(name.replace(/\W+/g, '-'), sql);
    const r = checkDbFile(f);
    expect(r.violations.map((x) => x.rule)).toContain(rule);
    const hit = r.violations.find((x) => x.rule === rule)!;
    expect(hit.message).toMatch(/expected .+ \/ received .+/);
  });

  it('reads a file a running writer holds open (one read snapshot, read-only)', () => {
    const w = new Database(good);
    w.pragma('journal_mode = WAL');
    w.exec('BEGIN IMMEDIATE');
    try {
      expect(checkDbFile(good).violations).toEqual([]);
    } finally {
      w.exec('ROLLBACK');
      w.close();
    }
  });
});
