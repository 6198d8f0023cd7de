import { Decimal } from '../../../contract/decimal.ts';
import { pass, type Check } from '../../check.ts';
import { createLend, fundedUser, lendBody, validAddress } from '../../checks/fixtures.ts';
import { learnFunds, showFunds } from '../funds.ts';
import { expectOnly, isInsufficient, noteRateLimited, requireAnswered, sort, stormFail, units } from '../kit.ts';
import { recordMade, storm, type StormOp } from '../storm.ts';
import type { Exchanges } from '../exchanges.ts';
import { conserved } from './overcommit.ts';
import { legalAmount } from '../../../contract/index.ts';

// Conservation over a mixed storm, as Jepsen's bank workload: cancels (refunds), withdrawals
// and lends (debits) of one user at once, more than the funds cover. Afterwards the funds are
// the funds before, less the accepted debits, plus the accepted refunds, to the last unit;
// and never negative.

export const conservation: Check = {
  id: 'concurrency.conservation',
  title: 'after a mixed storm of cancels, withdrawals and lends on one user, its funds are start − accepted debits + accepted refunds, and never negative',
  requirements: ['CONC-conservation', 'CONC-no-overcommit'],
  needs: ['write'],
  async run(ctx) {
    const id = this.id;
    // The lends later cancelled: 100, raised to the profile's minimum order.
    const REFUND = legalAmount(ctx.profile);
    const userId = await fundedUser(ctx, 'conc-conserve');
    // The lends and the funds read are recorded into the storm's history: the linearizability judge knows the positions and their refunds.
    const pre: Exchanges = [];
    const pending = [];
    // One lend to cancel and two withdrawals and two lends of 30 % each: a storm of five, as the
    // others (kit.ts STORM), whose debits (120 %) still over-commit the funds; three of each and two
    // cancels spent 4 requests more (issue 48).
    for (let i = 0; i < 1; i++) {
      const t0 = performance.now();
      const c = await createLend(ctx, userId, { amount: REFUND });
      recordMade(pre, 'lend.create', c.reply, t0);
      pending.push(c);
    }
    const before = await learnFunds(ctx, userId, 'USDC', undefined, pre);
    const a = units(before.lo.mul(3).div(10), ctx.profile.assets.info?.USDC?.decimals ?? 6);
    const ops: StormOp[] = [];
    for (let i = 0; i < 2; i++) {
      if (i < pending.length) ops.push({ kind: 'position.cancel', ids: { positionId: pending[i]!.body.positionId } });
      ops.push({ kind: 'user.withdraw', ids: { userId: userId }, body: { asset: 'USDC', amount: a.toFixed(), destination: validAddress(ctx.profile) } });
      ops.push({ kind: 'lend.create', body: lendBody(ctx, userId, { amount: a.toFixed() }) });
    }
    const { history, replies } = await storm(ctx, id, ops, { before: pre });
    // A cancel may be refused (the lend matched meanwhile): it then refunds nothing.
    const s = sort(replies, (r) => isInsufficient(r) || (ops[replies.indexOf(r)]!.kind === 'position.cancel' && r.status >= 400 && r.status < 500));
    expectOnly(ctx, history, replies, s, 'a mixed storm', 'insufficient_funds (or, for a cancel, a refusal)');
    noteRateLimited(ctx, s, 'requests');
    requireAnswered(s, ops.length, 4, 'requests of the mixed storm');
    let debits = new Decimal(0);
    let refunds = new Decimal(0);
    const counts: Record<string, number> = {};
    for (const i of s.accepted) {
      const kind = ops[i]!.kind;
      counts[kind] = (counts[kind] ?? 0) + 1;
      if (kind === 'position.cancel') refunds = refunds.plus(REFUND);
      else debits = debits.plus(a);
    }
    const after = await learnFunds(ctx, userId, 'USDC', undefined, history);
    const story = `${counts['user.withdraw'] ?? 0} withdrawals and ${counts['lend.create'] ?? 0} lends of ${a.toFixed()} USDC and ${counts['position.cancel'] ?? 0} cancels of ${REFUND} accepted from ${showFunds(before)} available`;
    if (debits.gt(before.hi.plus(refunds))) {
      stormFail(ctx, history, `accepted debits never exceed the funds plus refunds (${id})`, `debits ≤ ${before.hi.plus(refunds).toFixed()}`, `${story}: debits ${debits.toFixed()}, funds now ${showFunds(after)}`);
    }
    conserved(ctx, history, id, story, before, debits.minus(refunds), after);
    ctx.note(`storm of ${ops.length}: ${story}`);
    return pass();
  },
};
