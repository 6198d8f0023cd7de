import { D, str } from '../money/money.ts';
import { PARTNERS, USERS, type Call } from './kill-client.ts';
import type { Recorded } from './kill-record.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// The kill drill's mixed load: concurrent workers over two partners and several users, each
// acknowledged write recorded for verification after the restart.

export const OPS = ['lend', 'borrow', 'cancel', 'repay', 'withdraw', 'fund', 'patch', 'read', 'advance'] as const;
export type Op = (typeof OPS)[number];

export interface LoadResult {
  acked: Record<Op, number>;
  ackedWrites: number;
  rejected: number;
  inFlightAtKill: number;
  /** Order writes (lend/borrow) on the wire when the kill cut them. */
  orderWritesCut: number;
  serverErrors: string[];
  loadMs: number;
}

const ASSETS = ['USDC', 'DAI'];
const DEST = `0x${'d'.repeat(40)}`;
const pad6 = (n: number) => String(n % 1_000_000).padStart(6, '0');

export class MixedLoad {
  /** Unique per request, so every amount names the one request that could have written it. */
  private seq = 0;

  constructor(private readonly rec: Recorded, private readonly call: Call) {}

  /** Runs `workers` loops until `killAfterAcked` writes were acknowledged (or `maxLoadMs`), then `kill()`s the sandbox under them. */
  async run(opts: { workers: number; killAfterAcked: number; maxLoadMs: number }, kill: () => Promise<void>): Promise<LoadResult> {
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
    const loops = Array.from({ length: opts.workers }, (_, w) => worker(w));
    while (ackedWrites < opts.killAfterAcked && performance.now() - t0 < opts.maxLoadMs) await sleep(10);
    const inFlightAtKill = inflight;
    killed = true;
    await kill();
    await Promise.all(loops);
    const loadMs = performance.now() - t0;
    for (const id of uncertainPatch) rec.patched.delete(id);
    return { acked, ackedWrites, rejected, inFlightAtKill, orderWritesCut, serverErrors, loadMs };
  }
}
