import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { EVENT_TYPES } from '../../contract/index.ts';
import { DEFAULT_KEYS } from '../auth/keys.ts';
import { D, str } from '../engine/money.ts';
import { spawnSandbox, type SandboxProcess } from '../spawn.ts';
import { checkDbFile, type Violation } from '../store/check.ts';
import { KEY_A, KEY_B } from '../test-helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/testkit.ts';

// The sandbox-kill drill (bench issue "Drills"): a mixed load from concurrent workers over
// two partners and several users, webhooks to a receiver that fails a share of first and
// second attempts, SIGKILL mid-load, restart on the same file, drain, then count: nothing
// acknowledged lost, nothing duplicated except webhook redelivery under the same event id,
// and the ledger invariant checker clean. kill-mixed.test.ts runs one short cycle;
// bench/drills/sandbox-kill.ts runs many under heavier load.

export interface DrillConfig {
  dbPath: string;
  /** Concurrent request loops. */
  workers: number;
  /** Kill once this many writes were acknowledged in the cycle (or at maxLoadMs). */
  killAfterAcked: number;
  maxLoadMs: number;
  /** Business seconds per real second. */
  timeScale: number;
  /** Share of events (by id) whose first two attempts the receiver answers 500. */
  failShare: number;
  drainTimeoutMs: number;
  log?: (line: string) => void;
}

export const OPS = ['lend', 'borrow', 'cancel', 'repay', 'withdraw', 'fund', 'patch', 'read', 'advance'] as const;
export type Op = (typeof OPS)[number];

interface AckedOrder {
  partnerId: string;
  userId: string;
  type: 'lend' | 'borrow';
  asset: string;
  amount: string;
  maturityMs: number;
  collateral?: { asset: string; amount: string };
}

/** Everything the client side saw; verify() holds the database to it. */
export interface Recorded {
  orders: Map<string, AckedOrder>;
  cancelled: Set<string>;
  fullyRepaid: Set<string>;
  /** Last acknowledged autoRollover per position; positions with a PATCH lost in flight are dropped. */
  patched: Map<string, boolean>;
  withdrawals: Map<string, { partnerId: string; userId: string; asset: string; amount: string }>;
  funds: Array<{ partnerId: string; userId: string; asset: string; amount: string }>;
  /** Event id → distinct bodies received. */
  bodies: Map<string, Set<string>>;
  /** Event ids the receiver answered 2xx (delivered). */
  delivered: Set<string>;
  /** Event ids received before each kill. */
  receivedBeforeKill: Set<string>;
  /** Positions present though never acknowledged, already accounted to an earlier kill. */
  knownUnacked: Set<string>;
}

export interface CycleResult {
  cycle: number;
  acked: Record<Op, number>;
  ackedWrites: number;
  rejected: number;
  /** Requests on the wire when SIGKILL was sent, and of them the order writes (lend/borrow). */
  inFlightAtKill: number;
  orderWritesCutByKill: number;
  /** At the kill, read from the file: deliveries waiting for a retry, and all pending. */
  retriesPendingAtKill: number;
  deliveriesPendingAtKill: number;
  presentUnacked: number;
  lost: number;
  duplicates: number;
  /** Outbox events in the file after the restart (cumulative, as are the three receipt counts). */
  events: number;
  receipts: number;
  /** Receipts of an event already answered 2xx (at-least-once redelivery, same id). */
  redeliveries: number;
  /** Receipts after a failed attempt. */
  retries: number;
  checkerViolations: Violation[];
  problems: string[];
  loadMs: number;
  restartMs: number;
  drainMs: number;
}

const PARTNERS = [KEY_A, KEY_B].map((key) => ({ key, partnerId: DEFAULT_KEYS.find((k) => k.key === key)!.partnerId }));
const USERS = ['kd-u1', 'kd-u2', 'kd-u3'];
const ASSETS = ['USDC', 'DAI'];
const DEST = `0x${'d'.repeat(40)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pad6 = (n: number) => String(n % 1_000_000).padStart(6, '0');

export function emptyRecorded(): Recorded {
  return {
    orders: new Map(), cancelled: new Set(), fullyRepaid: new Set(), patched: new Map(), withdrawals: new Map(), funds: [],
    bodies: new Map(), delivered: new Set(), receivedBeforeKill: new Set(), knownUnacked: new Set(),
  };
}

export class KillDrill {
  readonly rec = emptyRecorded();
  private rx!: Receiver;
  private sb: SandboxProcess | undefined;
  private readonly children: SandboxProcess['child'][] = [];
  /** Unique per request, so every amount names the one request that could have written it. */
  private seq = 0;
  private attempts = new Map<string, number>();
  private receipts = { redeliveries: 0, retries: 0, total: 0 };

  constructor(readonly cfg: DrillConfig) {}

  get url(): string {
    return this.sb!.url;
  }

  async start(): Promise<void> {
    this.rx = await startReceiver((r) => this.answer(r.body), { record: false });
    await this.startSandbox();
    for (const p of PARTNERS) {
      const r = await this.call(p.key, 'POST', '/webhooks', { url: this.rx.url, events: EVENT_TYPES });
      if (r.status !== 201) throw new Error(`webhook subscription: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  async close(): Promise<void> {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await this.rx?.close();
  }

  /** SIGTERM the running sandbox and wait for its exit code. */
  async stop(): Promise<number | null> {
    if (!this.sb) return null;
    this.sb.child.kill('SIGTERM');
    const code = await this.sb.exited;
    this.sb = undefined;
    return code;
  }

  private startSandbox = async () => {
    this.sb = await spawnSandbox(['--port', '0', '--db', this.cfg.dbPath, '--no-rate-limits', '--time-scale', String(this.cfg.timeScale)], { track: this.children });
  };

  /** The receiver: fails attempts 1 and 2 of a fixed share of events, records every body. */
  private answer(body: string): { status: number } {
    let id = '?';
    try {
      id = String((JSON.parse(body) as { id: unknown }).id);
    } catch {
      // a body that is not JSON is kept under "?" and fails verify()
    }
    const rec = this.rec;
    const set = rec.bodies.get(id) ?? new Set<string>();
    set.add(body);
    rec.bodies.set(id, set);
    this.receipts.total++;
    const n = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, n);
    if (rec.delivered.has(id)) this.receipts.redeliveries++;
    else if (n > 1) this.receipts.retries++;
    const h = createHash('sha256').update(id).digest().readUInt32BE(0) / 2 ** 32;
    if (h < this.cfg.failShare && n <= 2) return { status: 500 };
    rec.delivered.add(id);
    return { status: 200 };
  }

  private async call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const r = await fetch(`${this.sb!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  }

  /** One kill/restart cycle: load, SIGKILL, snapshot the file, restart, drain, verify. */
  async cycle(n: number): Promise<CycleResult> {
    const cfg = this.cfg;
    const acked = Object.fromEntries(OPS.map((o) => [o, 0])) as Record<Op, number>;
    let ackedWrites = 0;
    let rejected = 0;
    let inflight = 0;
    let killed = false;
    let orderWritesCut = 0;
    const serverErrors: string[] = [];
    const mine = new Map<number, Array<{ id: string; key: string; type: 'lend' | 'borrow' }>>();
    const uncertainPatch = new Set<string>();
    const rec = this.rec;

    const worker = async (w: number) => {
      let i = 0;
      const own = mine.set(w, []).get(w)!;
      while (!killed) {
        i++;
        const p = PARTNERS[(w + i) % PARTNERS.length]!;
        const userId = USERS[(w * 7 + i) % USERS.length]!;
        const s = ++this.seq;
        const r = (s * 2654435761) % 100;
        // Rollover is rare: a rolling lend rolls at every clock jump for ever, so over many
        // cycles a common one would make the outbox (and each drain) grow without bound.
        const op: Op =
          w === 0 && i % 25 === 0 ? 'advance'
          : r < 24 ? 'lend' : r < 40 ? 'borrow' : r < 50 ? 'cancel' : r < 60 ? 'repay' : r < 67 ? 'withdraw' : r < 72 ? 'fund' : r < 80 ? 'patch' : 'read';
        const asset = ASSETS[s % 2]!;
        const ownOfP = own.filter((o) => o.key === p.key);
        const target = ownOfP[ownOfP.length - 1 - (s % Math.min(ownOfP.length || 1, 4))];
        const borrowOfP = [...ownOfP].reverse().find((o) => o.type === 'borrow');
        let req: [string, string, unknown?] | undefined;
        switch (op) {
          case 'lend':
            req = ['POST', '/lend', { userId, asset, amount: `${1 + (s % 900)}.${pad6(s)}`, rate: [0.03, 0.05, 0.07][s % 3], maturity: ['30d', '90d'][s % 2], autoRollover: s % 8 === 0 }];
            break;
          case 'borrow':
            req = ['POST', '/borrow', { userId, collateral: { asset: 'ETH', amount: `1.${pad6(s)}` }, borrowAsset: asset, borrowAmount: `${1 + (s % 1500)}.${pad6(s)}`, rate: [0.04, 0.06, 0.08][s % 3], maturity: '30d', autoRefinance: s % 2 === 0 }];
            break;
          case 'cancel':
            if (target) req = ['POST', `/positions/${target.id}/cancel`];
            break;
          case 'repay':
            if (borrowOfP) req = ['POST', `/positions/${borrowOfP.id}/repay`, s % 2 ? {} : { amount: '1' }];
            break;
          case 'withdraw':
            req = ['POST', `/users/${userId}/withdraw`, { asset, amount: `1.${pad6(s)}`, destination: DEST }];
            break;
          case 'fund':
            req = ['POST', '/sandbox/fund', { userId, asset: s % 3 === 0 ? 'ETH' : asset, amount: `${100 + (s % 5000)}.${pad6(s)}` }];
            break;
          case 'patch':
            if (target) req = ['PATCH', `/positions/${target.id}`, target.type === 'lend' ? { autoRollover: s % 4 === 0 } : { autoRefinance: s % 2 === 0 }];
            break;
          case 'read':
            req = ['GET', [target ? `/positions/${target.id}` : `/users/${userId}/positions`, `/users/${userId}/positions?limit=5`, `/sandbox/users/${userId}/balances`][s % 3]!];
            break;
          case 'advance':
            // Jumps of days to weeks, so maturities, rollovers, refinances and liquidations happen.
            req = ['POST', '/sandbox/clock/advance', { seconds: [86_400, 7 * 86_400, 31 * 86_400][s % 3] }];
            break;
        }
        if (!req) continue;
        inflight++;
        let res: { status: number; body: any };
        try {
          res = await this.call(p.key, ...req);
        } catch {
          // Cut by the kill: never acknowledged, so it may or may not have been applied.
          if (op === 'lend' || op === 'borrow') orderWritesCut++;
          if (op === 'patch' && target) uncertainPatch.add(target.id);
          return;
        } finally {
          inflight--;
        }
        if (res.status >= 500) serverErrors.push(`${req[0]} ${req[1]} → ${res.status}`);
        if (res.status >= 300) {
          rejected++;
          continue;
        }
        acked[op]++;
        if (op !== 'read') ackedWrites++;
        const b = res.body;
        const body = req[2] as any;
        switch (op) {
          case 'lend':
          case 'borrow':
            rec.orders.set(b.positionId, {
              partnerId: p.partnerId, userId: b.userId, type: op, asset: b.asset, amount: b.amount, maturityMs: Date.parse(b.maturity),
              ...(op === 'borrow' ? { collateral: b.collateral } : {}),
            });
            own.push({ id: b.positionId, key: p.key, type: op });
            break;
          case 'cancel':
            rec.cancelled.add(target!.id);
            break;
          case 'repay':
            if (b.outstanding !== undefined && new D(b.outstanding).isZero()) rec.fullyRepaid.add(borrowOfP!.id);
            break;
          case 'withdraw':
            rec.withdrawals.set(b.withdrawalId, { partnerId: p.partnerId, userId, asset: b.asset, amount: b.amount });
            break;
          case 'fund':
            rec.funds.push({ partnerId: p.partnerId, userId, asset: body.asset, amount: str(new D(body.amount)) });
            break;
          case 'patch':
            if (target!.type === 'lend') rec.patched.set(target!.id, body.autoRollover);
            break;
        }
      }
    };

    const t0 = performance.now();
    const loops = Array.from({ length: cfg.workers }, (_, w) => worker(w));
    while (ackedWrites < cfg.killAfterAcked && performance.now() - t0 < cfg.maxLoadMs) await sleep(10);
    const inFlightAtKill = inflight;
    killed = true;
    this.sb!.child.kill('SIGKILL');
    await this.sb!.exited;
    await Promise.all(loops);
    const loadMs = performance.now() - t0;
    for (const id of this.rec.bodies.keys()) rec.receivedBeforeKill.add(id);
    for (const id of uncertainPatch) rec.patched.delete(id);

    // What the file holds at the kill, before anything restarts.
    const snap = new Database(cfg.dbPath, { readonly: true, fileMustExist: true });
    const retriesPendingAtKill = snap.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending' AND attempts > 0").pluck().get() as number;
    const deliveriesPendingAtKill = snap.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'").pluck().get() as number;
    snap.close();

    const t1 = performance.now();
    await this.startSandbox();
    const restartMs = performance.now() - t1;
    const t2 = performance.now();
    const drained = await this.drain();
    const drainMs = performance.now() - t2;
    const v = await this.verify(rec, orderWritesCut);
    const problems = [...serverErrors.slice(0, 5), ...(drained ? [] : [`deliveries not drained within ${cfg.drainTimeoutMs} ms`]), ...v.problems];
    const result: CycleResult = {
      cycle: n, acked, ackedWrites, rejected, inFlightAtKill, orderWritesCutByKill: orderWritesCut, retriesPendingAtKill, deliveriesPendingAtKill,
      presentUnacked: v.presentUnacked, lost: v.lost, duplicates: v.duplicates, events: v.events, receipts: this.receipts.total,
      redeliveries: this.receipts.redeliveries, retries: this.receipts.retries, checkerViolations: v.checker, problems,
      loadMs: Math.round(loadMs), restartMs: Math.round(restartMs), drainMs: Math.round(drainMs),
    };
    cfg.log?.(
      `cycle ${n}: acked ${ackedWrites} writes (${OPS.map((o) => `${o} ${acked[o]}`).join(', ')}), in flight at kill ${inFlightAtKill}, ` +
        `retries pending ${retriesPendingAtKill}/${deliveriesPendingAtKill} pending, present-unacked ${v.presentUnacked}, lost ${v.lost}, ` +
        `duplicates ${v.duplicates}, events ${v.events}, redeliveries ${this.receipts.redeliveries}, checker ${v.checker.length}, problems ${problems.length}`,
    );
    return result;
  }

  /** After a restart: make pending retries due (a clock jump) and wait until the receiver has every outbox event. */
  private async drain(): Promise<boolean> {
    const deadline = performance.now() + this.cfg.drainTimeoutMs;
    for (let i = 0; performance.now() < deadline; i++) {
      // Retries wait 1 and 5 business minutes: jump past them rather than wait them out.
      if (i % 5 === 0) await this.call(KEY_A, 'POST', '/sandbox/clock/advance', { seconds: 600 });
      const db = new Database(this.cfg.dbPath, { readonly: true });
      const ids = db.prepare('SELECT id FROM outbox_events').pluck().all() as string[];
      const open = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'").pluck().get() as number;
      db.close();
      if (open === 0 && ids.every((id) => this.rec.delivered.has(id))) return true;
      await sleep(100);
    }
    return false;
  }

  /** Holds the file and the API to what was recorded; `orderWritesCut` bounds orders present but never acknowledged. */
  async verify(rec: Recorded, orderWritesCut: number, opts: { api?: boolean } = {}): Promise<{ problems: string[]; presentUnacked: number; lost: number; duplicates: number; events: number; checker: Violation[] }> {
    const problems: string[] = [];
    const db = new Database(this.cfg.dbPath, { readonly: true });
    let lost = 0;
    let presentUnacked = 0;
    let duplicates = 0;
    let events = 0;
    try {
      db.exec('BEGIN');
      const pos = new Map((db.prepare('SELECT * FROM positions').all() as any[]).map((r) => [r.id as string, r]));
      for (const [id, a] of rec.orders) {
        const r = pos.get(id);
        const problem = (what: string) => (lost++, problems.push(`acknowledged ${a.type} ${id}: ${what}`));
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
        if (!r || r.amount !== w.amount || r.user_id !== w.userId || r.partner_id !== w.partnerId || r.asset !== w.asset) (lost++, problems.push(`acknowledged withdrawal ${id}: ${r ? `stored ${r.amount} ${r.asset}` : 'missing'}`));
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
        if (got < n) (lost++, problems.push(`acknowledged fund ${k}: journalled ${got} of ${n}`));
        if (got > 1) (duplicates++, problems.push(`fund ${k} journalled ${got} times`));
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
      for (const [id, bodies] of rec.bodies) if (bodies.size > 1) (duplicates++, problems.push(`event id ${id} arrived with ${bodies.size} different bodies`));
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
            const api = await this.call(p.key, 'GET', `/sandbox/users/${u}/balances`);
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
    const checker = checkDbFile(this.cfg.dbPath).violations;
    for (const c of checker.slice(0, 5)) problems.push(`checker ${c.rule}: ${c.message}`);
    return { problems, presentUnacked, lost, duplicates, events, checker };
  }
}
