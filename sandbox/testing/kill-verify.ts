import Database from 'better-sqlite3';
import { D } from '../money/money.ts';
import { checkDbFile, type Violation } from '../store/check.ts';
import { PARTNERS, USERS, type Call } from './kill-client.ts';
import type { Recorded } from './kill-record.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// The kill drill's verdict after a restart: the database file and the API held to what the
// clients and the receiver recorded, then the ledger invariant checker.

export interface Verification {
  problems: string[];
  presentUnacked: number;
  lost: number;
  duplicates: number;
  events: number;
  checker: Violation[];
}


/** `orderWritesCut` bounds orders present but never acknowledged; `api: false` skips the balance comparison over `call`. */
export async function verifyAgainstFile(dbPath: string, call: Call, rec: Recorded, orderWritesCut: number, opts: { api?: boolean } = {}): Promise<Verification> {
  const problems: string[] = [];
  const db = new Database(dbPath, { readonly: true });
  let lost = 0;
  let presentUnacked = 0;
  let duplicates = 0;
  let events = 0;
  try {
    db.exec('BEGIN');
    const pos = new Map((db.prepare('SELECT * FROM positions').all() as any[]).map((r) => [r.id as string, r]));
    for (const [id, a] of rec.orders) {
      const r = pos.get(id);
      const problem = (what: string) => {
        lost++;
        problems.push(`acknowledged ${a.type} ${id}: ${what}`);
      };
      if (!r) problem('missing');
      else if (r.partner_id !== a.partnerId || r.user_id !== a.userId || r.type !== a.type || r.asset !== a.asset || r.maturity_ms !== a.maturityMs) {
        problem(`fields differ: ${JSON.stringify({ partner: r.partner_id, user: r.user_id, type: r.type, asset: r.asset, maturity: r.maturity_ms })}`);
      } else if (r.amount !== a.amount && !(r.status !== 'pending' && r.amount === r.filled && new D(r.amount).lt(a.amount))) {
        // The one legitimate change: a part-filled order expiring shrinks to its filled part.
        problem(`amount ${r.amount}, acknowledged ${a.amount}`);
      } else if (a.collateral && (r.collateral_asset !== a.collateral.asset || (r.collateral_amount !== a.collateral.amount && r.rolled_to === null && r.status !== 'liquidated'))) {
        problem(`collateral ${r.collateral_asset} ${r.collateral_amount}, acknowledged ${a.collateral.asset} ${a.collateral.amount}`);
      }
    }
    for (const id of rec.cancelled) if (pos.get(id)?.status !== 'cancelled') problems.push(`acknowledged cancel of ${id}: status ${pos.get(id)?.status}`);
    for (const id of rec.fullyRepaid) if (['pending', 'active'].includes(pos.get(id)?.status)) problems.push(`acknowledged full repay of ${id}: still ${pos.get(id)?.status}`);
    for (const [id, v] of rec.patched) {
      const r = pos.get(id);
      if (r && r.auto_rollover !== (v ? 1 : 0)) problems.push(`acknowledged PATCH autoRollover=${v} of ${id}: stored ${r.auto_rollover}`);
    }
    // Positions nobody acknowledged: lifecycle-made ones (rollover, refinance) name their origin.
    const fresh: string[] = [];
    for (const [id, r] of pos) if (r.rolled_from === null && !rec.orders.has(id) && !rec.knownUnacked.has(id)) fresh.push(id);
    presentUnacked = fresh.length;
    if (presentUnacked > orderWritesCut) problems.push(`${presentUnacked} orders present but never acknowledged, only ${orderWritesCut} order writes were cut by the kill`);
    for (const id of fresh) rec.knownUnacked.add(id);
    for (const [id, r] of pos) if (r.rolled_from !== null && !pos.has(r.rolled_from)) problems.push(`${id} rolled from missing ${r.rolled_from}`);
    // Every request carried a unique amount, so two rows with one amount are one request applied twice.
    const dups = db
      .prepare("SELECT partner_id, user_id, type, asset, amount, COUNT(*) AS n FROM positions WHERE rolled_from IS NULL GROUP BY 1, 2, 3, 4, 5 HAVING n > 1").all() as any[];
    duplicates += dups.length;
    for (const d of dups.slice(0, 5)) problems.push(`order written ${d.n} times: ${d.partner_id}/${d.user_id} ${d.type} ${d.amount} ${d.asset}`);
    const wdDups = db.prepare('SELECT amount, COUNT(*) AS n FROM withdrawals GROUP BY amount, asset, user_id HAVING n > 1').all() as any[];
    duplicates += wdDups.length;
    for (const d of wdDups.slice(0, 5)) problems.push(`withdrawal written ${d.n} times: ${d.amount}`);

    for (const [id, w] of rec.withdrawals) {
      const r = db.prepare('SELECT * FROM withdrawals WHERE id = ?').get(id) as any;
      if (!r || r.amount !== w.amount || r.user_id !== w.userId || r.partner_id !== w.partnerId || r.asset !== w.asset) {
        lost++;
        problems.push(`acknowledged withdrawal ${id}: ${r ? `stored ${r.amount} ${r.asset}` : 'missing'}`);
      }
    }
    const journal = new Map<string, number>();
    for (const j of db.prepare("SELECT partner_id, user_id, asset, amount FROM ledger_external WHERE kind = 'fund'").all() as any[]) {
      const k = `${j.partner_id}/${j.user_id}/${j.asset}/${j.amount}`;
      journal.set(k, (journal.get(k) ?? 0) + 1);
    }
    const ackedFunds = new Map<string, number>();
    for (const f of rec.funds) {
      const k = `${f.partnerId}/${f.userId}/${f.asset}/${f.amount}`;
      ackedFunds.set(k, (ackedFunds.get(k) ?? 0) + 1);
    }
    for (const [k, n] of ackedFunds) {
      const got = journal.get(k) ?? 0;
      if (got < n) {
        lost++;
        problems.push(`acknowledged fund ${k}: journalled ${got} of ${n}`);
      }
      if (got > 1) {
        duplicates++;
        problems.push(`fund ${k} journalled ${got} times`);
      }
    }

    // Events: what arrived before the kill is in the outbox unchanged; one id, one body.
    const outbox = new Map((db.prepare('SELECT id, payload FROM outbox_events').all() as Array<{ id: string; payload: string }>).map((e) => [e.id, e.payload]));
    events = outbox.size;
    for (const id of rec.receivedBeforeKill) {
      const payload = outbox.get(id);
      const bodies = rec.bodies.get(id);
      if (payload === undefined) problems.push(`event ${id} received before the kill is not in the outbox`);
      else if (bodies && !bodies.has(payload)) problems.push(`event ${id}: received body differs from the outbox payload`);
    }
    for (const [id, bodies] of rec.bodies) if (bodies.size > 1) {
      duplicates++;
      problems.push(`event id ${id} arrived with ${bodies.size} different bodies`);
    }
    const undelivered = [...outbox.keys()].filter((id) => !rec.delivered.has(id));
    if (undelivered.length) problems.push(`${undelivered.length} outbox events never delivered, e.g. ${undelivered[0]}`);
    const notSucceeded = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state <> 'succeeded'").pluck().get() as number;
    if (notSucceeded) problems.push(`${notSucceeded} deliveries not succeeded in the file`);

    // Balances over the API equal the file (read again if lifecycle work moved them in between).
    let mismatch = '';
    for (let attempt = 0; opts.api !== false && attempt < 4; attempt++) {
      mismatch = '';
      for (const p of PARTNERS) {
        for (const u of USERS) {
          const api = await call(p.key, 'GET', `/sandbox/users/${u}/balances`);
          db.exec('COMMIT');
          db.exec('BEGIN');
          const rows = db.prepare('SELECT asset, available, locked FROM balances WHERE partner_id = ? AND user_id = ? ORDER BY asset').all(p.partnerId, u);
          const a = JSON.stringify((api.body?.balances ?? []).map((b: any) => ({ asset: b.asset, available: b.available, locked: b.locked })));
          if (a !== JSON.stringify(rows)) mismatch = `${p.partnerId}/${u}: api ${a} file ${JSON.stringify(rows)}`;
        }
      }
      if (!mismatch) break;
      await sleep(300);
    }
    if (mismatch) problems.push(`balances over the API differ from the file: ${mismatch}`);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const checker = checkDbFile(dbPath).violations;
  for (const c of checker.slice(0, 5)) problems.push(`checker ${c.rule}: ${c.message}`);
  return { problems, presentUnacked, lost, duplicates, events, checker };
}
