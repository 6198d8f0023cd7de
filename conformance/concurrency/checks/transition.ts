import { Decimal } from '../../../contract/decimal.ts';
import { legalAmount } from '../../../contract/order-amounts.ts';
import { CheckSkip, fail, pass, show, type Check, type CheckContext } from '../../check.ts';
import { borrowBody, createLend, fundedUser, pairAsset } from '../../checks/fixtures.ts';
import { learnFunds, showFunds } from '../funds.ts';
import { expectOnly, noteRateLimited, requireAnswered, sort, stormOf, stormFail } from '../kit.ts';
import { accepted, recordMade, storm, type StormOp } from '../storm.ts';
import type { Exchanges } from '../exchanges.ts';
import { rememberWrite } from '../acknowledged.ts';
import { conserved, searchableCollateral } from './overcommit.ts';
import { pairMarket } from '../../checks/endpoints.ts';
import { positionIdIn } from '../../body-id.ts';

// One transition per position: STORM overlapping cancels of one pending lend, or full repays
// of one active borrow. Exactly one succeeds; the others get the profile's invalid-state
// answer (errors.invalidState; any other 4xx is a note, a failure under --strict); the money
// moves once: one refund, one debit (and one collateral release).

const invalidState = () => (r: { status: number }) => r.status >= 400 && r.status < 500 && r.status !== 429;

function checkRefusals(ctx: CheckContext, replies: Awaited<ReturnType<typeof storm>>['replies'], refused: number[]): void {
  const want = ctx.profile.errors.invalidState;
  for (const i of refused) {
    const r = replies[i]!;
    const code = (r.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    ctx.profileChoice({ option: 'errors.invalidState', expected: `${want.status} ${want.code}`, followed: r.status === want.status && code === want.code, received: `${r.status} ${String(code)}` }, r.exchange);
  }
}

/**
 * 202 Accepted promises processing, not a transition: a target that queues every request and
 * applies one may answer 202 to all. Then only the money decides (one refund or one debit).
 */
function queuedOnly(replies: Awaited<ReturnType<typeof storm>>['replies'], acceptedIdx: number[], ctx: CheckContext, what: string): boolean {
  const all202 = acceptedIdx.every((i) => replies[i]!.status === 202);
  if (all202) ctx.note(`${acceptedIdx.length} ${what} answered 202 (queued): judged by the money moved, which must move once`);
  return all202;
}

const cancelOnce: Check = {
  id: 'concurrency.cancel-once',
  title: `overlapping cancels of one pending lend: exactly one succeeds and the lend is refunded once`,
  requirements: ['CONC-one-transition', 'CONC-conservation', 'STATE-cancel-unmatched'],
  needs: ['write'],
  async run(ctx) {
    const id = this.id;
    const n = stormOf(ctx);
    const userId = await fundedUser(ctx, 'conc-cancel');
    // 250, raised to the profile's minimum order (contract/order-amounts.ts).
    const amount = legalAmount(ctx.profile, 0, { base: '250' });
    // The lend and the funds read are recorded into the storm's history: the linearizability judge knows the position and its refund.
    const pre: Exchanges = [];
    const t0 = performance.now();
    const lend = await createLend(ctx, userId, { amount });
    recordMade(pre, 'lend.create', lend.reply, t0);
    const positionId = lend.body.positionId;
    const before = await learnFunds(ctx, userId, 'USDC', undefined, pre);
    const { history, replies } = await storm(ctx, id, Array.from({ length: n }, () => ({ kind: 'position.cancel', ids: { positionId } }) satisfies StormOp), { before: pre });
    const s = sort(replies, invalidState());
    expectOnly(ctx, history, replies, s, `${n} overlapping cancels of ${positionId}`, 'the invalid-state error');
    noteRateLimited(ctx, s, 'cancels');
    requireAnswered(s, n, 2, 'cancels');
    if (!s.accepted.length) {
      const g = await ctx.call('position.get', { params: { positionId } });
      const status = (g.json as { status?: unknown } | undefined)?.status;
      if (status !== 'cancelled') throw new CheckSkip(`no cancel of ${positionId} was accepted and it is ${show(status)}: it was matched before the storm (no cancel to race)`);
      stormFail(ctx, history, 'one of the overlapping cancels succeeds', '1 accepted', `0 accepted and ${positionId} is cancelled`);
    }
    const after = await learnFunds(ctx, userId, 'USDC', undefined, history);
    const story = `${s.accepted.length} of ${n} cancels of one pending lend of ${amount} USDC accepted (refund ${new Decimal(amount).mul(s.accepted.length).toFixed()})`;
    if (s.accepted.length > 1 && !queuedOnly(replies, s.accepted, ctx, 'cancels')) {
      stormFail(ctx, history, 'overlapping cancels of one position: exactly one succeeds (concurrency.cancel-once)', `1 accepted, ${n - 1} invalid state; funds ${showFunds(before)} + ${amount}`, `${story}; funds now ${showFunds(after)}`, replies[s.accepted[1]!]!.exchange);
    }
    checkRefusals(ctx, replies, s.refused);
    conserved(ctx, history, id, story, before, new Decimal(amount).neg(), after);
    // The acknowledged cancel, not yet read: the read-after-write check reads it next.
    rememberWrite(ctx, 'cancel', { check: id, positionId, history });
    return pass();
  },
};

/** A borrow matched against the partner's own lend, in a market where nothing else crosses them, read until active. */
async function activeBorrow(ctx: CheckContext): Promise<{ borrower: string; positionId: string; amount: string; collateral: { asset: string; amount: string } }> {
  const lender = await fundedUser(ctx, 'conc-repay-lender');
  const borrower = await fundedUser(ctx, 'conc-repay-borrower');
  // A market and rate no resting order crosses (earlier runs' leftovers), as matchedPair's.
  const { maturity, rate } = await pairMarket(ctx, pairAsset(ctx.profile), 'conc-repay');
  const amount = legalAmount(ctx.profile, 0, { asset: pairAsset(ctx.profile) });
  await createLend(ctx, lender, { asset: pairAsset(ctx.profile), rate, amount, maturity });
  const body = borrowBody(ctx, borrower, { rate, borrowAmount: amount, maturity, collateral: searchableCollateral(ctx.profile, pairAsset(ctx.profile), amount) });
  const b = await ctx.call('borrow.create', { body });
  if (!accepted(b)) throw new CheckSkip(`a borrow crossing the partner's own lend was not accepted (${b.status} ${show(b.json)}), so there is no active loan to repay`);
  const positionId = positionIdIn(b.json, ctx.profile.ids.borrow);
  if (!positionId) fail('POST /borrow answers with the new position\'s id', `a ${ctx.profile.ids.borrow ?? 'positionId (or one field named like an id)'} string`, show(b.json), b.exchange);
  const t0 = Date.now();
  for (;;) {
    const g = await ctx.call('position.get', { params: { positionId: positionId as string } });
    const status = (g.json as { status?: unknown } | undefined)?.status;
    if (status === 'active') break;
    if (Date.now() - t0 > 3_000) throw new CheckSkip(`the borrow ${String(positionId)} crossing the partner's own lend is still ${show(status)} after 3 s, so there is no active loan to repay`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { borrower, positionId: positionId as string, amount, collateral: body.collateral as { asset: string; amount: string } };
}

const repayOnce: Check = {
  id: 'concurrency.repay-once',
  title: `overlapping full repays of one active borrow: exactly one succeeds, debited once, collateral released once`,
  requirements: ['CONC-one-transition', 'CONC-conservation', 'EP-repay'],
  needs: ['write'],
  async run(ctx) {
    const id = this.id;
    const n = stormOf(ctx);
    const loan = await activeBorrow(ctx);
    const asset = pairAsset(ctx.profile);
    const before = await learnFunds(ctx, loan.borrower, asset);
    const collBefore = loan.collateral.asset === asset ? undefined : await learnFunds(ctx, loan.borrower, loan.collateral.asset);
    const { history, replies } = await storm(ctx, id, Array.from({ length: n }, () => ({ kind: 'position.repay', ids: { positionId: loan.positionId }, body: {} }) satisfies StormOp));
    const s = sort(replies, invalidState());
    expectOnly(ctx, history, replies, s, `${n} overlapping full repays of ${loan.positionId}`, 'the invalid-state error');
    noteRateLimited(ctx, s, 'repays');
    requireAnswered(s, n, 2, 'repays');
    if (!s.accepted.length) stormFail(ctx, history, 'one of the overlapping full repays succeeds', '1 accepted', `0 of ${n} accepted`);
    const after = await learnFunds(ctx, loan.borrower, asset);
    const principal = new Decimal(loan.amount);
    // What a full repay debits: the principal plus the interest accrued since matching, whatever
    // the target's clock speed: bounded by half the principal, still far from a second debit.
    const interest = principal.div(2);
    const story = `${s.accepted.length} of ${n} full repays of one borrow of ${loan.amount} ${asset} accepted`;
    if (s.accepted.length > 1 && !queuedOnly(replies, s.accepted, ctx, 'repays')) {
      stormFail(ctx, history, 'overlapping full repays of one position: exactly one succeeds (concurrency.repay-once)', `1 accepted; funds ${showFunds(before)} − ${loan.amount} (plus interest)`, `${story}; funds now ${showFunds(after)}`, replies[s.accepted[1]!]!.exchange);
    }
    checkRefusals(ctx, replies, s.refused);
    // One debit: principal ≤ debit ≤ principal + interest.
    const debit = { lo: before.lo.minus(after.hi), hi: before.hi.minus(after.lo) };
    if (debit.hi.lt(principal) || debit.lo.gt(principal.plus(interest))) {
      stormFail(ctx, history, `one full repay debits the loan once (${id})`, `a debit of ${loan.amount} plus interest (under ${interest.toFixed()})`, `${story}: ${showFunds(before)} → ${showFunds(after)}, a debit of ${debit.lo.toFixed()}`);
    }
    if (collBefore) {
      const collAfter = await learnFunds(ctx, loan.borrower, loan.collateral.asset);
      conserved(ctx, history, id, `${story}; collateral ${loan.collateral.amount} ${loan.collateral.asset} released`, collBefore, new Decimal(loan.collateral.amount).neg(), collAfter);
    }
    return pass();
  },
};

export const transitionChecks = (): Check[] => [cancelOnce, repayOnce];
