import { Decimal } from '../../../contract/decimal.ts';
import { collateralAsset as pledgedAsset, LEND_ASSETS, pledgePerUnit, type Profile } from '../../../contract/index.ts';
import { CheckSkip, pass, show, type Check, type CheckContext } from '../../check.ts';
import { borrowBody, fundedUser, lendBody, pairAsset, restingRateFor, validAddress } from '../../checks/fixtures.ts';
import { exact, learnFunds, showFunds, type Funds } from '../funds.ts';
import { expectOnly, isInsufficient, noteRateLimited, requireAnswered, signed, sort, stormOf, stormFail, units } from '../kit.ts';
import { storm, type StormOp } from '../storm.ts';
import type { Exchanges } from '../exchanges.ts';
import { positionIdIn } from '../../body-id.ts';

// Over-commitment: STORM requests on one user that each fit its funds and together do not,
// sent at once. The accepted ones must fit (their sum at most the funds), the others must be
// refused with insufficient_funds (or 429), and afterwards the funds must be what was there
// less what was accepted, to the last unit, and never negative.

type Kind = 'withdraw' | 'lend' | 'borrow';

interface Plan {
  /** The asset whose funds the storm spends. */
  asset: string;
  op(userId: string, amount: string): StormOp;
  /** What the message calls the requests. */
  noun: string;
  /** "4 withdrawals of 330000 USDC", "4 borrows pledging 300030 ETH". */
  many(n: number | string, amount: string): string;
}

/** Collateral the search can learn when the target gives no details: a lendable one. */
export function searchableCollateral(p: Profile, borrowAsset: string, borrowAmount: string): { asset: string; amount: string } {
  const asset = collateralAsset(p, borrowAsset);
  const need = new Decimal(borrowAmount).mul(pledgePerUnit(p, asset, borrowAsset)).mul(2);
  return { asset, amount: need.toDecimalPlaces(Math.min(p.assets.info?.[asset]?.decimals ?? 2, 2), Decimal.ROUND_UP).toFixed() };
}

export function collateralAsset(p: Profile, borrowAsset: string): string {
  if (p.errors.insufficientFundsDetails) return pledgedAsset(p, borrowAsset);
  return p.assets.collateral.find((a) => a !== borrowAsset && (LEND_ASSETS as readonly string[]).includes(a)) ?? pledgedAsset(p, borrowAsset);
}

function plan(ctx: CheckContext, kind: Kind): Plan {
  const p = ctx.profile;
  if (kind === 'withdraw') {
    return {
      asset: 'USDC',
      noun: 'withdrawals',
      many: (n, amount) => `${n} withdrawals of ${amount} USDC`,
      op: (userId, amount) => ({ kind: 'user.withdraw', ids: { userId: userId }, body: { asset: 'USDC', amount, destination: validAddress(p) } }),
    };
  }
  if (kind === 'lend') {
    return { asset: 'USDC', noun: 'lends', many: (n, amount) => `${n} lends of ${amount} USDC`, op: (userId, amount) => ({ kind: 'lend.create', body: lendBody(ctx, userId, { amount }) }) };
  }
  const borrowAsset = pairAsset(p);
  const asset = collateralAsset(p, borrowAsset);
  return {
    asset,
    noun: 'borrows pledging collateral',
    many: (n, amount) => `${n} borrows pledging ${amount} ${asset}`,
    op: (userId, amount) => {
      // Half of what the collateral allows at the profile's minimum ratio: each borrow is valid alone.
      // pledgePerUnit: the ratio at the profile's prices, or a pledge seen taken; neither known, the check skips naming the ratio.
      const most = new Decimal(amount).div(pledgePerUnit(p, asset, borrowAsset)).div(2);
      const borrowAmount = Decimal.min(most, p.amounts.maxOrder).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed();
      return { kind: 'borrow.create', body: borrowBody(ctx, userId, { collateral: { asset, amount }, borrowAmount, rate: 0.0001 }) };
    },
  };
}

function overcommit(kind: Kind): Check {
  const id = `concurrency.${kind}-overcommit`;
  return {
    id,
    title: `overlapping ${{ withdraw: 'withdrawals', lend: 'lends', borrow: 'borrows pledging the same collateral' }[kind]} that together exceed the funds: the accepted ones fit, the rest get insufficient_funds, and the funds add up`,
    requirements: ['CONC-no-overcommit', 'CONC-conservation', 'ERR-insufficient_funds'],
    needs: ['write'],
    async run(ctx) {
      const pl = plan(ctx, kind);
      const n = stormOf(ctx);
      const userId = await fundedUser(ctx, `conc-${kind}`);
      if (kind === 'lend') await restingRateFor(ctx);
      // The funds read is recorded into the storm's history: the linearizability judge reads it too.
      const pre: Exchanges = [];
      const before = await learnFunds(ctx, userId, pl.asset, undefined, pre);
      const decimals = ctx.profile.assets.info?.[pl.asset]?.decimals ?? 6;
      // Each fits (a ≤ funds) and together they do not (STORM·a > funds): a is 30 % of the funds.
      const a = units(before.lo.mul(3).div(10), decimals);
      const min = new Decimal(kind === 'withdraw' ? ctx.profile.amounts.minWithdrawal : kind === 'lend' ? ctx.profile.amounts.minOrder : '0');
      if (a.lte(0) || a.lt(min)) throw new CheckSkip(`${userId} has ${showFunds(before)} ${pl.asset} (learned by ${before.way}): too little for a storm of ${n} ${pl.noun}`);
      if (kind === 'lend' && a.gt(ctx.profile.amounts.maxOrder)) throw new CheckSkip(`${userId} has ${showFunds(before)} ${pl.asset}: 30 % of it is above the largest order (${ctx.profile.amounts.maxOrder})`);
      if (a.mul(n).lte(before.hi)) throw new CheckSkip(`the funds of ${userId} are known too loosely (${showFunds(before)}) for ${n} requests of ${a.toFixed()} to exceed them`);

      const { history, replies } = await storm(ctx, id, Array.from({ length: n }, () => pl.op(userId, a.toFixed())), { before: pre });
      const s = sort(replies, isInsufficient);
      expectOnly(ctx, history, replies, s, `${pl.many(n, a.toFixed())} at once`, 'insufficient_funds');
      noteRateLimited(ctx, s, pl.noun);
      // More answered than fit, or the storm never exceeded the funds.
      requireAnswered(s, n, before.lo.div(a).floor().toNumber() + 1, pl.noun);
      if (kind !== 'withdraw') distinctPositions(ctx, history, replies, s.accepted, pl.noun);

      const k = s.accepted.length;
      const spent = a.mul(k);
      const after = await learnFunds(ctx, userId, pl.asset, undefined, history);
      const story = `${pl.many(k, a.toFixed())} accepted from ${showFunds(before)} available`;
      if (spent.gt(before.hi)) {
        stormFail(ctx, history, `overlapping ${pl.noun} never spend more than the funds (${id})`, `at most ${before.hi.div(a).floor().toFixed()} accepted`, `${story}: ${signed(before.hi.minus(spent))} (the target now reports ${showFunds(after)})`, replies[s.accepted[0]!]?.exchange);
      }
      // Refused though the funds allowed it: a serial order of these requests accepts floor(funds / a).
      if (s.refused.length && before.lo.minus(spent).gte(a)) {
        const r = replies[s.refused[0]!]!;
        stormFail(ctx, history, `${pl.noun} that fit are not refused as insufficient_funds (${id})`, `${before.lo.div(a).floor().toFixed()} of ${n} accepted (each ${a.toFixed()} of ${showFunds(before)})`, `${story}; ${s.refused.length} refused with ${before.lo.minus(spent).toFixed()} still available: ${show(r.json)}`, r.exchange);
      }
      conserved(ctx, history, id, story, before, spent, after);
      ctx.note(`storm: ${pl.many(n, a.toFixed())}; ${k} accepted, ${s.refused.length} insufficient_funds, ${s.limited.length} rate limited`);
      return pass();
    },
  };
}

/** Accepted orders are distinct positions: no two answers name one positionId. */
export function distinctPositions(ctx: CheckContext, history: Parameters<typeof stormFail>[1], replies: Parameters<typeof sort>[0], acceptedIdx: number[], noun: string): string[] {
  // A lend's answer names positionId (spec); a borrow's is not shown: found as the fixtures find it.
  const ids = acceptedIdx.map((i) => positionIdIn(replies[i]!.json) ?? positionIdIn(replies[i]!.json, ctx.profile.ids.borrow));
  const seen = new Map<string, number>();
  for (const id of ids) if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
  const dup = [...seen].find(([, n]) => n > 1);
  if (dup) stormFail(ctx, history, `each accepted order is its own position (no shared id under overlap)`, `${ids.length} distinct positionIds`, `${dup[1]} accepted ${noun} answered with one positionId ${dup[0]}`, replies[acceptedIdx[0]!]!.exchange);
  return ids as string[];
}

/** Conservation: funds after = before − spent (+ refunds), overlapping brackets when searched; never negative. */
export function conserved(ctx: CheckContext, history: Parameters<typeof stormFail>[1], id: string, story: string, before: Funds, spent: Decimal, after: Funds): void {
  const lo = before.lo.minus(spent);
  const hi = before.hi.minus(spent);
  if (after.hi.lt(lo) || after.lo.gt(hi)) {
    const want: Funds = { lo, hi, way: before.way };
    stormFail(ctx, history, `the funds after the storm are the funds before less what was accepted (${id})`, `${showFunds(want)} (by ${after.way})`, `${story}: the target now reports ${showFunds(after)}, ${signed(after.lo.minus(lo))} off`);
  }
  if (after.hi.isNegative()) stormFail(ctx, history, `no user's funds go negative (${id})`, 'funds ≥ 0', `${story}: ${showFunds(after)}`);
  ctx.note(`funds learned by ${before.way}${exact(after) ? '' : `; conservation checked within the search's bracket (${showFunds(after)})`}`);
}

export const overcommitChecks = (): Check[] => [overcommit('withdraw'), overcommit('lend'), overcommit('borrow')];
