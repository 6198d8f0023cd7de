import { Decimal } from '../../contract/decimal.ts';
import { legalAmount, controls, endpointById, LIST_LIMIT_DEFAULT, position, positionList, successKey, type Position, type Profile } from '../../contract/index.ts';
import { CheckSkip, evidenceOf, expectProfileError, expectShape, expectStatus, fail, show, type Check, type CheckContext, pass } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';
import { createLend, expectSuccess, fundedUser, profileGap, refusesField, refusesFloor, restingRateFor, skipIfUnfunded, validAddress } from './fixtures.ts';
import { matchedPair, retirePair } from './endpoints.ts';
import { pagedLend, pagedUser } from './paged-user.ts';
import { NEEDS_CLOCK } from './hooks.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

// Part 3: the states a position moves through, and what each operation does to it.
// Transitions the spec does not show come from profile.lifecycle / profile.errors.

/** An endpoint's successStatus key in the profile (`GET /positions/{positionId}`), from the table. */
const keyOf = (ctx: CheckContext, id: 'position.get' | 'positions.list') => successKey(endpointById(ctx.profile, id)!);

async function read(ctx: CheckContext, id: string, title: string): Promise<Position> {
  const r = await ctx.call('position.get', { params: { positionId: id } });
  expectSuccess(ctx, r, keyOf(ctx, 'position.get'), title);
  return expectShape(r, position, `${title}: the position matches the spec`);
}

/** Reads until a predicate holds or 2 s pass: matching may complete just after the answer. */
async function readUntil(ctx: CheckContext, id: string, ok: (p: Position) => boolean, title: string): Promise<Position> {
  const t0 = Date.now();
  for (;;) {
    const p = await read(ctx, id, title);
    if (ok(p) || Date.now() - t0 > 2_000) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The run's latest read of position `id` (whichever check sent it), as a position, when it shows
 * what `ok` wants: judged here as this check's own read would be, instead of asking again (issue
 * 48); else reads of its own until it does (readUntil).
 */
async function seenOrRead(ctx: CheckContext, id: string, ok: (p: Position) => boolean, title: string): Promise<{ p: Position; x: Exchange }> {
  const seen = ctx.answers?.lastSuccess('position.get', (x) => new URL(x.url).pathname.endsWith(`/positions/${encodeURIComponent(id)}`));
  if (seen) {
    const r = seen.reply;
    expectSuccess(ctx, r, keyOf(ctx, 'position.get'), title);
    const p = expectShape(r, position, `${title}: the position matches the spec`);
    if (ok(p)) {
      ctx.note(`${title}: judged the run's latest read of it, no request of its own: ${evidenceOf(r.exchange)}, sent by ${seen.check || 'the run'}`);
      return { p, x: r.exchange };
    }
  }
  const p = await readUntil(ctx, id, ok, title);
  return { p, x: ctx.http.log[ctx.http.log.length - 1]! };
}

/**
 * The available balance without a balances control: a lend of the largest order the profile
 * allows is refused as insufficient_funds, whose details the spec fixes ({required, available}).
 */
async function availableOf(ctx: CheckContext, userId: string, asset: string): Promise<Decimal> {
  const r = await ctx.call('lend.create', { body: { userId, asset, amount: ctx.profile.amounts.maxOrder, rate: await restingRateFor(ctx), maturity: orderMaturity(ctx.profile) } });
  if (r.status >= 200 && r.status < 300) {
    const id = (r.json as { positionId?: string })?.positionId;
    if (id) await ctx.call('position.cancel', { params: { positionId: id } });
    throw new CheckSkip(`${userId} holds at least the largest order (${ctx.profile.amounts.maxOrder} ${asset}), so its balance cannot be read from an insufficient_funds answer`);
  }
  if (refusesField(r, /amount/) && /most|max/.test(JSON.stringify(r.json))) profileGap(ctx, 'amounts.maxOrder', r, `a lend of ${ctx.profile.amounts.maxOrder} ${asset} to read the balance`);
  if (refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, `a lend in market ${orderMaturity(ctx.profile)} to read the balance`);
  const available = (r.json as { error?: { code?: string; details?: { available?: unknown } } })?.error;
  if (available?.code !== 'insufficient_funds') fail(`a lend of ${ctx.profile.amounts.maxOrder} ${asset} beyond the balance is refused as insufficient_funds`, '400 insufficient_funds', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  const a = available?.details?.available;
  // Part 7 calls details optional: none given where the profile says so or does not know (null: undetected under
  // a small budget) leaves the balance unread, a skip; details given must hold available as a decimal string.
  if (available?.details === undefined && ctx.profile.errors.insufficientFundsDetails !== true) {
    throw new CheckSkip(`the target gives no insufficient_funds details (part 7: optional; profile errors.insufficientFundsDetails ${String(ctx.profile.errors.insufficientFundsDetails)}), so ${userId}'s ${asset} balance cannot be read from them`, 'target-lacks');
  }
  if (typeof a !== 'string') fail('insufficient_funds details hold available as a decimal string', 'details.available', show(available?.details), r.exchange);
  return new Decimal(a as string);
}

/** Without controls: a pre-funded user withdraws, and insufficient_funds shows the balance before and after. */
async function withdrawOrganic(ctx: CheckContext) {
  const u = await fundedUser(ctx, 'withdraw');
  const before = await availableOf(ctx, u, 'USDC');
  // A fraction when the profile's minimum allows one (exactness shows), else that minimum.
  const amount = legalAmount(ctx.profile, 0, { base: '40.25', kind: 'withdrawal' });
  if (before.lt(amount)) throw new CheckSkip(`${u} has ${before.toFixed()} USDC available, less than the ${amount} to withdraw: name a funded user in the profile (funding.userIds)`);
  const r = await ctx.call('user.withdraw', { params: { userId: u }, body: { asset: 'USDC', amount, destination: validAddress(ctx.profile) } });
  skipIfUnfunded(ctx, r, `a withdrawal for ${u}`);
  // Part 8: "Minimum … withdrawal amounts: not shown"; a floor the profile does not know is its gap.
  if (refusesFloor(r)) profileGap(ctx, 'amounts.minWithdrawal', r, `a withdrawal of ${amount} USDC`);
  if (r.status < 200 || r.status > 299) fail('a withdrawal within the balance succeeds', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  const after = await availableOf(ctx, u, 'USDC');
  if (!before.minus(after).eq(amount)) fail('the available balance drops by the amount withdrawn (read from insufficient_funds details)', before.minus(amount).toFixed(), after.toFixed(), ctx.http.log[ctx.http.log.length - 1]);
  return pass();
}

const KNOWN_STATUSES = (p: Profile) => new Set(['pending', 'active', 'matured', 'cancelled', p.lifecycle.statusAfterLiquidation, p.lifecycle.statusAfterFullRepay]);

export function lifecycleChecks(profile: Profile): Check[] {
  return [
    {
      id: 'lifecycle.lend-read-list',
      title: 'a new lend is pending, reads back as the full position with type lend and the same terms, and is listed for its user',
      requirements: ['STATE-create-pending', 'SHAPE-position', 'SHAPE-position-cbt', 'SHAPE-create-lend', 'EP-position-get', 'EP-positions-list', 'FIELD-lend-mode', 'FIELD-lend-autoRollover', 'STATE-status-values', 'CONV-amount-decimal'],
      needs: ['write'],
      async run(ctx) {
        // The run's paged user (paged-user.ts) while the new lend still lands on its list's first page whatever the order: fewer than 20 there.
        const b = await pagedUser(ctx);
        const shared = b.ids.length < LIST_LIMIT_DEFAULT;
        const u = shared ? b.userId : await fundedUser(ctx, 'life');
        const amount = legalAmount(ctx.profile, 0, { base: '123.45' });
        const c = shared ? await pagedLend(ctx, { amount }) : await createLend(ctx, u, { amount });
        if (c.body.status !== 'pending') fail('a new lend is returned pending', 'status pending', show(c.body.status), c.reply.exchange);
        if (c.body.autoRollover !== true) fail('autoRollover defaults to true in easy mode (the default mode)', 'autoRollover true', show(c.body.autoRollover), c.reply.exchange);
        const p = await read(ctx, c.body.positionId, 'GET /positions/{positionId} of a new lend');
        const r = ctx.http.log[ctx.http.log.length - 1];
        if (p.type !== 'lend') fail('the position reads back with type lend', 'type lend', show(p.type), r);
        if (!KNOWN_STATUSES(profile).has(p.status)) fail('the status is one of the documented values', [...KNOWN_STATUSES(profile)].join('|'), show(p.status), r);
        for (const k of ['positionId', 'userId', 'asset', 'createdAt', 'maturity'] as const) {
          if (p[k] !== c.body[k]) fail(`${k} reads back as created`, show(c.body[k]), show(p[k]), r);
        }
        if (!new Decimal(p.amount).eq(amount)) fail('the amount reads back exactly', amount, show(p.amount), r);
        const l = await ctx.call('positions.list', { params: { userId: u } });
        expectSuccess(ctx, l, keyOf(ctx, 'positions.list'), `${keyOf(ctx, 'positions.list')} after a lend`);
        const list = expectShape(l, positionList, 'the list matches the spec');
        const item = list.positions.find((x) => x.positionId === c.body.positionId);
        if (!item) fail('the new lend is listed for its user', `${c.body.positionId} in positions`, show(list.positions.map((x) => x.positionId)), l.exchange);
        if (item!.type !== 'lend' || !new Decimal(item!.amount).eq(amount)) fail('the listed item carries the terms', `type lend, amount ${amount}`, show(item), l.exchange);
        return pass();
      },
    },
    {
      id: 'lifecycle.lend-options',
      title: 'both maturity forms are accepted and advanced mode takes the profile default for autoRollover',
      requirements: ['CONV-maturity-input', 'FIELD-lend-maturity', 'FIELD-lend-mode', 'FIELD-lend-autoRollover', 'FIELD-lend-rate'],
      needs: ['write'],
      async run(ctx) {
        // The lends are the run's paged user's (paged-user.ts): positions the pagination checks page too.
        // A date one listed maturity ahead of the target's own clock (a sandbox's test clock may
        // run ahead of real time), so it names a market under either date-resolution choice.
        const duration = profile.markets.maturities[1] ?? profile.lifecycle.defaultMaturity;
        let now = Date.now();
        if (ctx.hasControls) {
          const clock = await ctx.call('sandbox.clock');
          now = Date.parse(expectShape(clock, controls.clockResponse, 'GET /sandbox/clock').now);
        }
        const date = new Date(now + Number.parseInt(duration, 10) * 86_400_000).toISOString().slice(0, 10);
        for (const maturity of [duration, date]) {
          const c = await pagedLend(ctx, { maturity });
          if (!c.body.maturity.endsWith('Z')) fail(`maturity ${maturity} comes back as a UTC timestamp`, 'an ISO 8601 UTC timestamp', show(c.body.maturity), c.reply.exchange);
        }
        const adv = await pagedLend(ctx, { mode: 'advanced' });
        const want = profile.lifecycle.autoRolloverAdvancedDefault;
        ctx.profileChoice({ option: 'lifecycle.autoRolloverAdvancedDefault', expected: String(want), followed: adv.body.autoRollover === want, received: String(adv.body.autoRollover) }, adv.reply.exchange);
        const off = await pagedLend(ctx, { mode: 'easy', autoRollover: false });
        if (off.body.autoRollover !== false) fail('an explicit autoRollover false is kept', 'autoRollover false', show(off.body.autoRollover), off.reply.exchange);
        return pass();
      },
    },
    {
      id: 'lifecycle.cancel',
      title: 'a pending lend can be cancelled, then reads as cancelled, and a second cancel is refused as the profile says',
      requirements: ['STATE-cancel-unmatched', 'EP-cancel', 'STATE-status-values'],
      needs: ['write'],
      async run(ctx) {
        // A lend of the run's paged user (paged-user.ts): once cancelled, one of the cancelled positions the pagination filters page.
        const c = await pagedLend(ctx);
        const r = await ctx.call('position.cancel', { params: { positionId: c.body.positionId } });
        if (r.status >= 200 && r.status < 300) (await pagedUser(ctx)).cancelled.add(c.body.positionId);
        else {
          const now = await read(ctx, c.body.positionId, 'GET after a refused cancel');
          // A counterparty may take an order at any moment (a fast test clock makes that quick).
          if (now.status !== 'pending') throw new CheckSkip(`the lend was ${now.status} before it could be cancelled (matched within ${Math.round(r.exchange.durationMs)} ms of creation), so cancel-while-pending could not be exercised`);
          fail('cancelling a pending lend succeeds', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
        }
        const p = await read(ctx, c.body.positionId, 'GET of the cancelled position');
        if (p.status !== 'cancelled') fail('a cancelled position reads back cancelled', 'status cancelled', show(p.status), ctx.http.log[ctx.http.log.length - 1]);
        const again = await ctx.call('position.cancel', { params: { positionId: c.body.positionId } });
        expectProfileError(ctx, again, profile.errors.invalidState, 'errors.invalidState', 'cancelling a cancelled position is refused');
        return pass();
      },
    },
    {
      id: 'lifecycle.match',
      title: 'a lend and a borrow that cross are matched: both become active with matchedAt, and cancel is then refused',
      requirements: ['STATE-matched-active', 'SHAPE-position-matchedAt', 'STATE-rate-may-differ', 'STATE-cancel-unmatched', 'EP-borrow'],
      needs: ['write'],
      async run(ctx) {
        // The run's shared pair (endpoint.position.repay repays 1 of its borrow, lifecycle.patch sets its
        // autoRefinance): neither changes what this check reads, and a pair costs 4 to 10 requests (issue 48).
        const pair = await matchedPair(ctx);
        for (const [side, id] of [['lend', pair.lendId], ['borrow', pair.borrowId]] as const) {
          const { p, x: ex } = await seenOrRead(ctx, id, (x) => x.status === 'active', `GET of the matched ${side}`);
          if (p.status !== 'active') fail(`the matched ${side} is active`, 'status active', show(p.status), ex);
          if (!p.matchedAt) fail(`the matched ${side} carries matchedAt`, 'an ISO 8601 UTC matchedAt', 'none', ex);
          if (p.type !== side) fail(`the ${side} reads back with type ${side}`, side, show(p.type), ex);
        }
        const r = await ctx.call('position.cancel', { params: { positionId: pair.lendId } });
        expectProfileError(ctx, r, profile.errors.invalidState, 'errors.invalidState', 'cancelling a matched (active) position is refused: cancel applies to unmatched orders');
        const p = await read(ctx, pair.lendId, 'GET after the refused cancel');
        if (p.status !== 'active') fail('a refused cancel leaves the position active', 'active', show(p.status));
        return pass();
      },
    },
    {
      id: 'lifecycle.patch',
      title: 'PATCH sets autoRollover on a lend and autoRefinance on a borrow, and a read shows the new values',
      requirements: ['EP-patch', 'FIELD-borrow-autoRefinance', 'FIELD-lend-autoRollover'],
      needs: ['write'],
      async run(ctx) {
        const c = await pagedLend(ctx);
        for (const v of [false, true]) {
          const r = await ctx.call('position.patch', { params: { positionId: c.body.positionId }, body: { autoRollover: v } });
          if (r.status < 200 || r.status > 299) fail(`PATCH autoRollover ${v} succeeds`, 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
          const p = await read(ctx, c.body.positionId, 'GET after PATCH');
          if (p.autoRollover !== v) fail('the PATCHed autoRollover persists', String(v), show(p.autoRollover), ctx.http.log[ctx.http.log.length - 1]);
        }
        // The run's shared pair: setting autoRefinance changes nothing the other readers of it look at.
        const pair = await matchedPair(ctx);
        // Its flag as last read (only this check PATCHes the pair's borrow): the value to change.
        const { p: b } = await seenOrRead(ctx, pair.borrowId, () => true, 'GET of a borrow');
        const want = !b.autoRefinance;
        const r = await ctx.call('position.patch', { params: { positionId: pair.borrowId }, body: { autoRefinance: want } });
        if (r.status < 200 || r.status > 299) fail(`PATCH autoRefinance ${want} succeeds`, 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
        const after = await read(ctx, pair.borrowId, 'GET after PATCH autoRefinance');
        if (after.autoRefinance !== want) fail('the PATCHed autoRefinance persists', String(want), show(after.autoRefinance), ctx.http.log[ctx.http.log.length - 1]);
        return pass();
      },
    },
    {
      id: 'lifecycle.repay',
      title: 'repay is refused on a lend as the profile says; a borrow repays in part with an amount and in full without one',
      requirements: ['EP-repay', 'STATE-status-values'],
      needs: ['write'],
      async run(ctx) {
        // The run's shared pair, last of its readers (lifecycle.match and lifecycle.patch come before): a
        // fully repaid borrow is no longer open, so the pair is retired after, and a later reader makes another.
        const pair = await matchedPair(ctx);
        await seenOrRead(ctx, pair.borrowId, (x) => x.status === 'active', 'GET of the borrow before repaying');
        const onLend = await ctx.call('position.repay', { params: { positionId: pair.lendId }, body: { amount: '1' } });
        expectProfileError(ctx, onLend, profile.lifecycle.repayOnLend, 'lifecycle.repayOnLend', 'repay on a lend position is refused: a lender owes nothing');
        const part = await ctx.call('position.repay', { params: { positionId: pair.borrowId }, body: { amount: '10' } });
        if (part.status < 200 || part.status > 299) fail('a partial repay of 10 succeeds', 'a 2xx', `${part.status} ${show(part.json ?? part.text)}`, part.exchange);
        const mid = await read(ctx, pair.borrowId, 'GET after a partial repay');
        if (mid.status !== 'active') fail('a partly repaid borrow stays active', 'active', show(mid.status));
        const full = await ctx.call('position.repay', { params: { positionId: pair.borrowId }, body: {} });
        retirePair(ctx);
        if (full.status < 200 || full.status > 299) fail('a repay without amount repays the rest', 'a 2xx', `${full.status} ${show(full.json ?? full.text)}`, full.exchange);
        const end = await read(ctx, pair.borrowId, 'GET after the full repay');
        const want = profile.lifecycle.statusAfterFullRepay;
        if (end.status === 'active' || end.status === 'pending') fail('a fully repaid borrow is no longer open', `status ${want}`, show(end.status));
        ctx.profileChoice({ option: 'lifecycle.statusAfterFullRepay', expected: want, followed: end.status === want, received: end.status });
        return pass();
      },
    },
    {
      id: 'lifecycle.withdraw',
      title: 'a withdrawal takes exactly its amount off the available balance',
      requirements: ['EP-withdraw', 'CONV-amount-decimal'],
      needs: ['write'],
      async run(ctx) {
        if (!ctx.hasControls) return withdrawOrganic(ctx);
        const u = ctx.user('withdraw');
        const amount = legalAmount(ctx.profile, 0, { base: '40.25', kind: 'withdrawal' });
        await ctx.call('sandbox.fund', { body: { userId: u, asset: 'USDC', amount: new Decimal(amount).plus('60.25').toFixed() } });
        const bal = async () => {
          const r = await ctx.call('sandbox.balances', { params: { userId: u } });
          const b = expectShape(r, controls.balancesResponse, 'the balances control');
          return new Decimal(b.balances.find((x) => x.asset === 'USDC')?.available ?? '0');
        };
        const before = await bal();
        const r = await ctx.call('user.withdraw', { params: { userId: u }, body: { asset: 'USDC', amount, destination: validAddress(ctx.profile) } });
        if (refusesFloor(r)) profileGap(ctx, 'amounts.minWithdrawal', r, `a withdrawal of ${amount} USDC`);
        if (r.status < 200 || r.status > 299) fail('a withdrawal within the balance succeeds', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
        const after = await bal();
        if (!before.minus(after).eq(amount)) fail('the available balance drops by the amount withdrawn', `${before.minus(amount).toFixed()}`, after.toFixed(), ctx.http.log[ctx.http.log.length - 1]);
        return pass();
      },
    },
    {
      id: 'lifecycle.maturity',
      title: 'when the test clock passes maturity, a matched lend becomes matured',
      requirements: ['STATE-status-values', 'STATE-matched-active'],
      needs: ['write'],
      phase: 'late',
      async run(ctx) {
        if (!ctx.hasControls) throw new CheckSkip(NEEDS_CLOCK.maturity, 'target-lacks');
        const pair = await matchedPair(ctx, 'life-mature');
        const p = await readUntil(ctx, pair.lendId, (x) => x.status === 'active', 'GET of the matched lend');
        const clock = await ctx.call('sandbox.clock');
        const now = expectShape(clock, controls.clockResponse, 'GET /sandbox/clock').now;
        const seconds = Math.ceil((Date.parse(p.maturity) - Date.parse(now)) / 1000) + 86_400;
        const adv = await ctx.call('sandbox.clock.advance', { body: { seconds: Math.max(1, seconds) } });
        expectStatus(adv, [200, 201], 'POST /sandbox/clock/advance');
        const m = await readUntil(ctx, pair.lendId, (x) => x.status === 'matured', 'GET after maturity');
        if (m.status !== 'matured') fail('a lend past its maturity is matured', 'status matured', show(m.status), ctx.http.log[ctx.http.log.length - 1]);
        return pass();
      },
    },
  ];
}
