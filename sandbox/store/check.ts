import Database from 'better-sqlite3';
import { defaultProfile, type Profile } from '../../contract/index.ts';
import { D, str, type Dec } from '../money/money.ts';
import type { PositionRow, WithdrawalRow } from './rows.ts';

// The ledger invariants of a sandbox database, checked from the file alone (after a crash
// drill, or on any file a partner hands over). Every rule below was derived from what the
// engine (engine.ts, lifecycle.ts) actually writes; each is exact, in decimal.js.

export type Rule =
  | 'journal.missing'
  | 'conservation'
  | 'balance.negative'
  | 'locked.reserved'
  | 'position.amounts'
  | 'position.status'
  | 'position.debt'
  | 'fills.sum'
  | 'fills.orphan'
  | 'outbox.duplicate-id'
  | 'outbox.envelope'
  | 'withdrawal.amount';

export interface Violation {
  rule: Rule;
  /** What the violation is about, e.g. "USDC" or "pos_…" or "pa/u1/USDC". */
  subject: string;
  message: string;
}

export interface CheckResult {
  violations: Violation[];
  /** What was looked at, so a report shows the check was not vacuous. */
  counts: { users: number; balances: number; positions: number; fills: number; withdrawals: number; events: number; external: number };
}

const HOUSE = '__house';

const v = (rule: Rule, subject: string, expected: string, received: string): Violation => ({
  rule,
  subject,
  message: `${subject}: expected ${expected} / received ${received}`,
});

function knownStatuses(profile: Profile): Set<string> {
  const l = profile.lifecycle;
  return new Set([...Object.keys(l.transitions), ...Object.values(l.transitions).flat(), l.statusAfterFullRepay, l.statusAfterLiquidation]);
}

/** Opens `path` read-only and checks it; one read transaction, so a running sandbox is seen at one instant. */
export function checkDbFile(path: string, profile: Profile = defaultProfile): CheckResult {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.transaction(() => checkDb(db, profile))();
  } finally {
    db.close();
  }
}

export function checkDb(db: Database.Database, profile: Profile = defaultProfile): CheckResult {
  const out: Violation[] = [];
  const all = <T>(sql: string) => db.prepare(sql).all() as T[];
  const hasJournal = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ledger_external'").pluck().get() !== undefined;

  const balances = all<{ partner_id: string; user_id: string; asset: string; available: string; locked: string }>('SELECT * FROM balances');
  const positions = all<PositionRow>('SELECT * FROM positions ORDER BY seq');
  const fills = all<{ seq: number; lend_id: string | null; borrow_id: string | null; amount: string }>('SELECT seq, lend_id, borrow_id, amount FROM fills');
  const withdrawals = all<WithdrawalRow>('SELECT * FROM withdrawals');
  const external = hasJournal ? all<{ asset: string; amount: string }>('SELECT asset, amount FROM ledger_external') : [];
  const users = db.prepare('SELECT COUNT(*) FROM users').pluck().get() as number;
  const events = db.prepare('SELECT COUNT(*) FROM outbox_events').pluck().get() as number;

  // ---- conservation: held = Σ external − Σ withdrawn, per asset ----------------------------
  if (!hasJournal) {
    out.push(v('journal.missing', 'ledger_external', 'the external-flow journal table', 'a file written before it existed (conservation cannot be checked)'));
  } else {
    const held = new Map<string, Dec>();
    const inflow = new Map<string, Dec>();
    const add = (m: Map<string, Dec>, asset: string, x: Dec) => m.set(asset, (m.get(asset) ?? new D(0)).plus(x));
    for (const b of balances) add(held, b.asset, new D(b.available).plus(b.locked));
    for (const r of positions) {
      if (r.status !== 'pending' && r.status !== 'active') continue;
      if (r.type === 'lend') add(held, r.asset, new D(r.filled));
      else {
        add(held, r.collateral_asset ?? '?', new D(r.collateral_amount ?? '0'));
        add(held, r.asset, new D(r.debt).neg());
      }
    }
    for (const e of external) add(inflow, e.asset, new D(e.amount));
    for (const w of withdrawals) add(inflow, w.asset, new D(w.amount).neg());
    for (const asset of [...new Set([...held.keys(), ...inflow.keys()])].sort()) {
      const h = held.get(asset) ?? new D(0);
      const i = inflow.get(asset) ?? new D(0);
      if (!h.eq(i)) out.push(v('conservation', asset, `held ${str(i)} (Σ external − Σ withdrawn)`, `held ${str(h)} (balances + lent + collateral − debt)`));
    }
  }

  // ---- balances --------------------------------------------------------------------------
  // The house stands on the other side of interest and liquidations and may go negative;
  // nothing ever locks house funds.
  for (const b of balances) {
    const who = `${b.partner_id}/${b.user_id}/${b.asset}`;
    if (b.user_id !== HOUSE && new D(b.available).isNeg()) out.push(v('balance.negative', who, 'available ≥ 0', b.available));
    if (new D(b.locked).isNeg()) out.push(v('balance.negative', who, 'locked ≥ 0', b.locked));
  }

  // Only lend orders lock funds (borrow collateral, repayments and withdrawals leave
  // `available` directly), and a lend's lock shrinks exactly by each fill, by the unfilled
  // rest at cancel or expiry, and grows by a rollover's payout. So locked = Σ unfilled
  // remainder of the user's pending lends, exactly.
  const reserved = new Map<string, Dec>();
  for (const r of positions) {
    if (r.type !== 'lend' || r.status !== 'pending') continue;
    const k = `${r.partner_id}/${r.user_id}/${r.asset}`;
    reserved.set(k, (reserved.get(k) ?? new D(0)).plus(new D(r.amount).minus(r.filled)));
  }
  const lockedOf = new Map(balances.map((b) => [`${b.partner_id}/${b.user_id}/${b.asset}`, new D(b.locked)]));
  for (const k of [...new Set([...reserved.keys(), ...lockedOf.keys()])].sort()) {
    const want = reserved.get(k) ?? new D(0);
    const got = lockedOf.get(k) ?? new D(0);
    if (!want.eq(got)) out.push(v('locked.reserved', k, `locked ${str(want)} (Σ unfilled of pending lends)`, `locked ${str(got)}`));
  }

  // ---- positions -------------------------------------------------------------------------
  const statuses = knownStatuses(profile);
  const byId = new Map(positions.map((r) => [r.id, r]));
  const filledByFills = new Map<string, Dec>();
  for (const f of fills) {
    const amt = new D(f.amount);
    if (!amt.gt(0)) out.push(v('fills.orphan', `fill#${f.seq}`, 'amount > 0', f.amount));
    for (const [id, type] of [[f.lend_id, 'lend'], [f.borrow_id, 'borrow']] as const) {
      if (id === null) continue;
      const r = byId.get(id);
      if (!r || r.type !== type) out.push(v('fills.orphan', `fill#${f.seq}`, `${type}_id naming a ${type} position`, r ? `${id} is a ${r.type}` : `${id} does not exist`));
      else filledByFills.set(id, (filledByFills.get(id) ?? new D(0)).plus(amt));
    }
    if (f.lend_id === null && f.borrow_id === null) out.push(v('fills.orphan', `fill#${f.seq}`, 'a lend or borrow id', 'neither'));
  }
  for (const r of positions) {
    const amount = new D(r.amount);
    const filled = new D(r.filled);
    if (!amount.gt(0) || filled.isNeg() || filled.gt(amount)) out.push(v('position.amounts', r.id, '0 ≤ filled ≤ amount, amount > 0', `filled ${r.filled}, amount ${r.amount}`));
    if (!statuses.has(r.status)) out.push(v('position.status', r.id, `one of ${[...statuses].join(', ')}`, r.status));
    // Pending: part filled at most. Cancelled: only unfilled orders can be (cancel refuses
    // part-filled ones; expiry of a part-filled order shrinks it to its filled part instead).
    // Every other status was reached through `active`, which needs filled = amount.
    else if (r.status === 'pending' ? !filled.lt(amount) : r.status === 'cancelled' ? !filled.isZero() : !filled.eq(amount)) {
      out.push(v('position.status', r.id, r.status === 'pending' ? 'filled < amount while pending' : r.status === 'cancelled' ? 'filled 0 when cancelled' : `filled = amount when ${r.status}`, `filled ${r.filled}, amount ${r.amount}`));
    }
    if (r.type === 'borrow' && (r.status === 'pending' || r.status === 'active')) {
      const debt = new D(r.debt);
      if (debt.isNeg() || debt.gt(filled)) out.push(v('position.debt', r.id, '0 ≤ debt ≤ filled on an open borrow', `debt ${r.debt}, filled ${r.filled}`));
      if (r.collateral_asset === null || r.collateral_amount === null || new D(r.collateral_amount).isNeg()) {
        out.push(v('position.debt', r.id, 'collateral asset and amount ≥ 0 on an open borrow', `${r.collateral_asset} ${r.collateral_amount}`));
      }
    }
    // Fills rows carry every matched unit (book matches and the liquidity provider), except
    // a refinanced borrow: it is born active, funded by the old loan's settlement, no fill.
    const fromFills = filledByFills.get(r.id) ?? new D(0);
    const refinanced = r.type === 'borrow' && r.rolled_from !== null;
    const want = refinanced ? new D(0) : filled;
    if (!fromFills.eq(want)) out.push(v('fills.sum', r.id, refinanced ? 'no fills for a refinanced borrow' : `Σ fills = filled ${r.filled}`, `Σ fills ${str(fromFills)}`));
  }

  // ---- outbox and withdrawals ------------------------------------------------------------
  for (const d of all<{ id: string; n: number }>('SELECT id, COUNT(*) AS n FROM outbox_events GROUP BY id HAVING COUNT(*) > 1')) {
    out.push(v('outbox.duplicate-id', d.id, 'one outbox row per event id', `${d.n} rows`));
  }
  for (const e of all<{ seq: number; id: string; type: string; payload: string }>('SELECT seq, id, type, payload FROM outbox_events')) {
    let env: { id?: unknown; type?: unknown } | undefined;
    try {
      env = JSON.parse(e.payload);
    } catch {
      // reported below as an envelope that does not parse
    }
    if (env?.id !== e.id || env?.type !== e.type) out.push(v('outbox.envelope', `event#${e.seq}`, `payload with id ${e.id} and type ${e.type}`, e.payload.slice(0, 120)));
  }
  for (const w of withdrawals) {
    if (!new D(w.amount).gt(0)) out.push(v('withdrawal.amount', w.id, 'amount > 0', w.amount));
  }

  return {
    violations: out,
    counts: { users, balances: balances.length, positions: positions.length, fills: fills.length, withdrawals: withdrawals.length, events, external: external.length },
  };
}
