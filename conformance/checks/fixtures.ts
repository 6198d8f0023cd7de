import { controls, createLendResponse, type CreateLendResponse } from '../../contract/index.ts';
import { CheckSkip, expectShape, expectStatus, fail, show, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// Shared set-up of the checks: funded users and positions. Lends rest at a high rate so
// they stay pending (no borrower pays 50 %), unless a check wants a match.

export const RESTING_RATE = 0.5;
export const VALID_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

export function lendBody(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { userId, asset: 'USDC', amount: '100', rate: RESTING_RATE, maturity: ctx.profile.lifecycle.defaultMaturity, ...over };
}

export function borrowBody(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const borrowAsset = ctx.profile.assets.borrow[0] ?? 'USDC';
  const collateralAsset = ctx.profile.assets.collateral.find((a) => a !== borrowAsset) ?? ctx.profile.assets.collateral[0] ?? 'ETH';
  return { userId, collateral: { asset: collateralAsset, amount: '1' }, borrowAsset, borrowAmount: '100', rate: 0.01, maturity: ctx.profile.lifecycle.defaultMaturity, ...over };
}

/** Adds test funds through the sandbox controls; a no-op without them. */
export async function fund(ctx: CheckContext, userId: string, asset: string, amount: string): Promise<void> {
  if (!ctx.hasControls) return;
  const r = await ctx.api('POST', '/sandbox/fund', { body: { userId, asset, amount } });
  expectStatus(r, [200, 201], `funding ${userId} through POST /sandbox/fund`);
  expectShape(r, controls.balancesResponse, 'the fund control answers with balances');
}

/** A fresh user with funds in every lend asset and collateral asset (when controls allow). */
export async function fundedUser(ctx: CheckContext, tag: string, amount = '1000000'): Promise<string> {
  const userId = ctx.user(tag);
  if (ctx.hasControls) {
    for (const asset of new Set(['USDC', ...ctx.profile.assets.collateral])) await fund(ctx, userId, asset, amount);
  }
  return userId;
}

export interface Created {
  reply: Reply;
  body: CreateLendResponse;
}

/** POST /lend that must succeed; without controls an unfunded user is a reason to skip, not a failure. */
export async function createLend(ctx: CheckContext, userId: string, over: Record<string, unknown> = {}): Promise<Created> {
  const r = await ctx.api('POST', '/lend', { body: lendBody(ctx, userId, over) });
  if (r.status === 400 && (r.json as { error?: { code?: string } })?.error?.code === 'insufficient_funds' && !ctx.hasControls) {
    throw new CheckSkip('the target answered insufficient_funds for a fresh user and has no sandbox controls to fund one');
  }
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
    if (!ctx.hasControls) throw new CheckSkip('a borrow needs funded collateral, and the target has no sandbox controls to fund it');
    const userId = await fundedUser(ctx, 'borrower');
    const r = await ctx.api('POST', '/borrow', { body: borrowBody(ctx, userId) });
    if (r.status < 200 || r.status > 299) fail('POST /borrow with funded collateral succeeds', 'a 2xx', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
    const positionId = (r.json as { positionId?: unknown })?.positionId;
    if (typeof positionId !== 'string' || !positionId) fail('POST /borrow answers with a positionId', 'a positionId string', show(r.json), r.exchange);
    v = { userId, positionId: positionId as string, reply: r };
    ctx.shared.set(k, v);
  }
  return v;
}

export const enc = encodeURIComponent;
