import { Decimal } from '../../../contract/decimal.ts';
import { CheckSkip, unaffordable, pass, show, type Check, type CheckContext } from '../../check.ts';
import { lendBody, restingRateFor } from '../../checks/fixtures.ts';
import { learnFunds } from '../funds.ts';
import { expectOnly, isInsufficient, noteRateLimited, requireAnswered, sort, stormOf, stormFail } from '../kit.ts';
import { accepted, storm, type StormOp } from '../storm.ts';
import { conserved } from './overcommit.ts';
import { legalAmount } from '../../../contract/index.ts';

// Isolation under load: two partners place lends for the same userId at once. Each partner
// afterwards lists exactly the positions it placed, cannot read the other's, and its funds
// for that userId moved by its own accepted lends only.

/** Every positionId of a user's list, walked with the cursor (at most 20 pages). */
export async function listIds(ctx: CheckContext, userId: string, key?: string, limit = 100): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const r = await ctx.call('positions.list', { params: { userId }, query: { limit, ...(cursor ? { cursor } : {}) }, ...(key ? { key } : {}) });
    // A target may refuse a user it does not know as position_not_found (profile errors.unknownUser): for this
    // partner, the user has no positions. That is an answer, not a reason to stop: for isolation, "the other
    // partner's user is unknown to me" is exactly what is asked; a partner's own lends missing still fail.
    if (page === 0 && unknownToTarget(ctx, r)) return ids;
    if (!accepted(r)) throw new CheckSkip(`the position list of ${userId} answered ${r.status} ${show(r.json)}`);
    const body = r.json as { positions?: Array<{ positionId?: string }>; hasMore?: boolean; nextCursor?: string | null };
    for (const p of body.positions ?? []) if (typeof p.positionId === 'string') ids.push(p.positionId);
    if (!body.hasMore || !body.nextCursor) return ids;
    cursor = body.nextCursor;
  }
  return ids;
}

/** The 404 position_not_found the profile says this target gives for a user it does not know. */
function unknownToTarget(ctx: CheckContext, r: { status: number; json?: unknown }): boolean {
  const code = (r.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return r.status === 404 && code === 'position_not_found' && ctx.profile.errors.unknownUser === 'position_not_found';
}

export const isolation: Check = {
  id: 'concurrency.partner-isolation',
  title: 'storms from two partners on the same userId never see or change each other\'s positions or funds',
  requirements: ['CONC-isolation', 'AUTH-isolation'],
  needs: ['write', 'second-key'],
  async run(ctx) {
    const id = this.id;
    const n = stormOf(ctx);
    const userId = ctx.user('conc-shared-user');
    await restingRateFor(ctx);
    const keys = { 1: ctx.key, 2: ctx.key2! } as const;
    if (ctx.hasControls) {
      for (const k of [1, 2] as const) await ctx.call('sandbox.fund', { key: keys[k], body: { userId, asset: 'USDC', amount: '100000' } });
    }
    const before = { 1: await learnFunds(ctx, userId, 'USDC', keys[1]), 2: await learnFunds(ctx, userId, 'USDC', keys[2]) };
    // Two amounts that tell the partners' lends apart, within the profile's bounds (101 and 202 by default).
    const amount = { 1: legalAmount(ctx.profile, 0, { base: '101' }), 2: legalAmount(ctx.profile, 101, { base: '101' }) } as const;
    const ops: StormOp[] = Array.from({ length: n }, (_, i) => {
      const partner = ((i % 2) + 1) as 1 | 2;
      return { kind: 'lend.create', body: lendBody(ctx, userId, { amount: amount[partner] }), partner };
    });
    const { history, replies } = await storm(ctx, id, ops);
    const s = sort(replies, isInsufficient);
    expectOnly(ctx, history, replies, s, 'lends of two partners for one userId', 'insufficient_funds');
    noteRateLimited(ctx, s, 'lends');
    requireAnswered(s, n, 2, 'lends');
    if (s.refused.length) throw new CheckSkip(`${s.refused.length} lends of ${userId} were refused as insufficient_funds: the user needs ${amount[2]} USDC per order with each partner`);
    const mine = { 1: new Set<string>(), 2: new Set<string>() };
    for (const i of s.accepted) mine[ops[i]!.partner ?? 1].add(String((replies[i]!.json as { positionId?: unknown }).positionId));
    if (!mine[1].size || !mine[2].size) throw unaffordable(`the rate limit let lends of only one partner through (${mine[1].size} and ${mine[2].size}): nothing to keep apart`);
    for (const p of [1, 2] as const) {
      const other = p === 1 ? 2 : 1;
      const listed = new Set(await listIds(ctx, userId, keys[p]));
      const missing = [...mine[p]].filter((x) => !listed.has(x));
      const foreign = [...mine[other]].filter((x) => listed.has(x));
      if (foreign.length) stormFail(ctx, history, `a partner's list holds only its own positions (${id})`, `none of partner ${other}'s ${mine[other].size} positions`, `partner ${p} lists ${foreign.length} position(s) partner ${other} placed for ${userId}, e.g. ${foreign[0]}`);
      if (missing.length) stormFail(ctx, history, `a partner's list holds every position it placed (${id})`, `all ${mine[p].size} of partner ${p}'s accepted lends`, `${missing.length} missing from partner ${p}'s list of ${userId}, e.g. ${missing[0]}`);
      const peek = [...mine[other]][0];
      if (peek) {
        const g = await ctx.call('position.get', { params: { positionId: peek }, key: keys[p] });
        if (accepted(g)) stormFail(ctx, history, `a partner cannot read another partner's position (${id})`, '404 position_not_found', `partner ${p} read partner ${other}'s ${peek}: ${g.status}`, g.exchange);
      }
      const after = await learnFunds(ctx, userId, 'USDC', keys[p]);
      const spent = new Decimal(amount[p]).mul(mine[p].size);
      conserved(ctx, history, id, `partner ${p}: ${mine[p].size} lends of ${amount[p]} USDC accepted for ${userId}`, before[p], spent, after);
    }
    return pass();
  },
};
