import { addressFor, ADDRESS_FORMS, collateralFor, controls, createLendResponse, LEND_ASSETS, legalAmount, successStatus, type CreateLendResponse, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectShape, expectStatus, fail, show, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import { positionIdIn } from '../body-id.ts';
import { restingRateFor, restingRateNow } from './resting-rate.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

// Shared set-up of the checks: funded users and positions. Lends rest at a high rate below the
// target's bound (resting-rate.ts) so they stay pending, unless a check wants a match.

export { restingRateFor } from './resting-rate.ts';

/**
 * A withdrawal destination the profile's withdrawals.destinationPattern takes (the spec
 * says only "string address"): the sample of a known form, else the EVM one.
 */
export function validAddress(profile: Profile): string {
  return addressFor(profile.withdrawals.destinationPattern) ?? ADDRESS_FORMS[0]!.sample;
}

export function lendBody(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  // The amount from the profile's bounds (a target's minimum order may exceed 100); USDC is a lend asset of part 2.
  return { userId, asset: 'USDC', amount: legalAmount(ctx.profile), rate: restingRateNow(ctx), maturity: orderMaturity(ctx.profile), ...over };
}

export function borrowBody(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const borrowAsset = pairAsset(ctx.profile);
  const borrowAmount = String(over.borrowAmount ?? legalAmount(ctx.profile));
  const collateral = collateralFor(ctx.profile, borrowAsset, borrowAmount);
  return { userId, collateral, borrowAsset, borrowAmount, rate: 0.01, maturity: orderMaturity(ctx.profile), ...over };
}

/** The asset matched pairs trade: the first borrowable one that can also be lent. */
export function pairAsset(profile: Profile): string {
  return profile.assets.borrow.find((a) => (LEND_ASSETS as readonly string[]).includes(a)) ?? 'USDC';
}


/**
 * The target answered as if a profile option were set otherwise (a path, a list, a bound the
 * spec leaves open): non-strict, an observation naming the option and a skip saying what could
 * not be checked; under --strict, a failure.
 */
export function profileGap(ctx: CheckContext, option: string, r: Reply, what: string): never {
  const got = `${r.status} ${show((r.json as { error?: unknown })?.error ?? r.json ?? r.text)}`;
  ctx.profileChoice({ option, expected: show(profileValue(ctx.profile, option)), followed: false, received: got }, r.exchange);
  if (ctx.strict) fail(what, `an answer under the profile's ${option}`, got, r.exchange);
  throw new CheckSkip(`${what}: the target answered ${got.slice(0, 160)}, as if profile ${option} were set otherwise (the spec leaves it open); set it in the profile (lendcheck profile detect finds it)`);
}

function profileValue(p: Profile, option: string): unknown {
  return option.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], p);
}

/** A refusal naming the amount as under a minimum (part 8: minimum amounts not shown); insufficient_funds is not one. */
export const refusesFloor = (r: Reply) => refusesField(r, /amount/) && /least|min|below|small/.test(JSON.stringify((r.json as { error?: unknown })?.error ?? '').toLowerCase()) && !/insufficient_funds/.test(JSON.stringify(r.json));

/** A refusal that names `field` (the spec's error object names the offending field). */
export const refusesField = (r: Reply, field: RegExp) => r.status >= 400 && r.status < 500 && field.test(JSON.stringify((r.json as { error?: unknown })?.error ?? '').toLowerCase());

/** A 2xx is the rule; which 2xx is the profile's (a note, or a failure under --strict). */
export function expectSuccess(ctx: CheckContext, r: Reply, key: string, title: string): void {
  const want = successStatus(ctx.profile, key);
  if (r.status < 200 || r.status > 299) fail(title, `a 2xx (profile: ${want})`, `status ${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  ctx.profileChoice({ option: `successStatus.${key}`, expected: String(want), followed: r.status === want, received: String(r.status) }, r.exchange);
}

/** A user the target knows (the shared lend's) when writes are allowed, else a fresh one. */
export async function knownUser(ctx: CheckContext, tag: string): Promise<{ userId: string; fresh: boolean }> {
  if (ctx.readOnly) return { userId: ctx.user(tag), fresh: true };
  return { userId: (await sharedLend(ctx)).userId, fresh: false };
}

/** Adds test funds through the sandbox controls; a no-op without them. */
export async function fund(ctx: CheckContext, userId: string, asset: string, amount: string): Promise<void> {
  if (!ctx.hasControls) return;
  const r = await ctx.call('sandbox.fund', { body: { userId, asset, amount } });
  expectStatus(r, [200, 201], `funding ${userId} through POST /sandbox/fund`);
  expectShape(r, controls.balancesResponse, 'the fund control answers with balances');
}

/**
 * A user with funds in every lend asset and collateral asset: funded through the sandbox
 * controls when the target has them; else a user the profile names as pre-funded
 * (funding.userIds, in turn), or a fresh one funded by the profile's funding.request, or
 * simply a fresh one (many sandboxes fund new users; insufficient_funds then skips, saying so).
 */
export async function fundedUser(ctx: CheckContext, tag: string, amount = '1000000'): Promise<string> {
  if (ctx.hasControls) {
    const userId = ctx.user(tag);
    for (const asset of new Set(['USDC', ...ctx.profile.assets.collateral])) await fund(ctx, userId, asset, amount);
    return userId;
  }
  const named = ctx.profile.funding.userIds;
  if (named.length) {
    const n = (ctx.shared.get('fundedUser:next') as number | undefined) ?? 0;
    ctx.shared.set('fundedUser:next', n + 1);
    return named[n % named.length]!;
  }
  const userId = ctx.user(tag);
  const req = ctx.profile.funding.request;
  if (req) {
    const fill = (v: unknown): unknown => (typeof v === 'string' ? v.split('{userId}').join(userId) : Array.isArray(v) ? v.map(fill) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)])) : v);
    const r = await ctx.api(req.method, fill(req.path) as string, req.body ? { body: fill(req.body) } : {});
    if (r.status < 200 || r.status > 299) throw new CheckSkip(`the profile's funding.request ${req.method} ${req.path} answered ${r.status}, so no funded user could be made`);
  }
  return userId;
}

/** Throws a skip saying so when a target without controls answered insufficient_funds. */
export function skipIfUnfunded(ctx: CheckContext, r: Reply, what: string): void {
  if (!ctx.hasControls && r.status >= 400 && (r.json as { error?: { code?: string } })?.error?.code === 'insufficient_funds') {
    throw new CheckSkip(`${what} answered insufficient_funds and the target has no sandbox controls: name pre-funded users in the profile (funding.userIds) or a funding request (funding.request)`, 'target-lacks');
  }
}

export interface Created {
  reply: Reply;
  body: CreateLendResponse;
}

/** POST /lend that must succeed; without controls an unfunded user is a reason to skip, not a failure. */
export async function createLend(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Promise<Created> {
  if (over.rate === undefined) await restingRateFor(ctx);
  const r = await ctx.call('lend.create', { body: lendBody(ctx, userId, over) });
  skipIfUnfunded(ctx, r, `a lend for ${userId}`);
  // The spec gives no rate bound: a refusal naming rate is the profile's bounds.rateBelow set otherwise.
  if (refusesField(r, /\brate\b/)) profileGap(ctx, 'bounds.rateBelow', r, `a lend at rate ${String(lendBody(ctx, userId, over).rate)}`);
  if (refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, `a lend in market ${String(lendBody(ctx, userId, over).maturity)}`);
  if (refusesField(r, /amount/) && /most|max/.test(JSON.stringify(r.json))) profileGap(ctx, 'amounts.maxOrder', r, `a lend of ${String(lendBody(ctx, userId, over).amount)}`);
  // Part 8: "Minimum ... order amounts: not shown": a floor above the profile's (amounts.minOrder undetected keeps the default 1) is its gap.
  if (refusesFloor(r)) profileGap(ctx, 'amounts.minOrder', r, `a lend of ${String(lendBody(ctx, userId, over).amount)}`);
  const want = ctx.profile.successStatus['POST /lend'] ?? 201;
  if (r.status < 200 || r.status > 299) fail('POST /lend with a valid body succeeds', `a 2xx (profile: ${want})`, `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  return { reply: r, body: expectShape(r, createLendResponse, 'the create-lend response matches the spec') };
}

/** One funded user with one pending lend, shared by the checks of a run. */
export async function sharedLend(ctx: CheckContext): Promise<{ userId: string; positionId: string; created: CreateLendResponse }> {
  const k = 'sharedLend';
  let v = ctx.shared.get(k) as { userId: string; positionId: string; created: CreateLendResponse } | undefined;
  if (!v) {
    const userId = await fundedUser(ctx, 'shared');
    const c = await createLend(ctx, userId);
    v = { userId, positionId: c.body.positionId, created: c.body };
    ctx.shared.set(k, v);
  }
  return v;
}

/** A borrow position of a funded user, or a skip when the target cannot fund collateral. */
export async function sharedBorrow(ctx: CheckContext): Promise<{ userId: string; positionId: string; reply: Reply }> {
  const k = 'sharedBorrow';
  let v = ctx.shared.get(k) as { userId: string; positionId: string; reply: Reply } | undefined;
  if (!v) {
    const userId = await fundedUser(ctx, 'borrower');
    const r = await ctx.call('borrow.create', { body: borrowBody(ctx, userId) });
    skipIfUnfunded(ctx, r, `a borrow for ${userId}`);
    if (refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, `a borrow in market ${orderMaturity(ctx.profile)}`);
    if (refusesField(r, /borrowasset/)) profileGap(ctx, 'assets.borrow', r, `a borrow of ${pairAsset(ctx.profile)}`);
    if (r.status < 200 || r.status > 299) fail('POST /borrow with funded collateral succeeds', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
    // The borrow answer is not shown by the spec: its id is found, or named by profile ids.borrow.
    const positionId = positionIdIn(r.json, ctx.profile.ids.borrow);
    if (!positionId) fail('POST /borrow answers with the new position\'s id', `a ${ctx.profile.ids.borrow ?? 'positionId (or one field named like an id)'} string`, show(r.json), r.exchange);
    v = { userId, positionId: positionId as string, reply: r };
    ctx.shared.set(k, v);
  }
  return v;
}

export const enc = encodeURIComponent;
