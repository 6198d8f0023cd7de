import { Decimal } from '../../contract/decimal.ts';
import { controls, LEND_ASSETS, type Profile } from '../../contract/index.ts';
import { CheckSkip, expectShape, unaffordable, type CheckContext } from '../check.ts';
import { lendBody, restingRateFor, validAddress } from '../checks/fixtures.ts';
import { restingRateNow } from '../checks/resting-rate.ts';
import type { Reply } from '../http.ts';
import type { Exchanges, TimedExchange } from './exchanges.ts';
import { outcomeOf } from './linearize/ledger/adapter.ts';
import { accepted, errorCode, recordOne, type StormOp } from './storm.ts';
import { orderMaturity } from '../../contract/order-maturity.ts';

// A user's available funds, learned without a balance endpoint (the spec has none), in one
// of two ways, each named in the result so a check can say which it used:
//   details  a withdrawal far above any balance is refused with insufficient_funds, whose
//            details.available (spec part 7) is the figure, exactly; nothing moves.
//   search   the largest lend the target accepts, found by bisection: a refused lend changes
//            nothing, an accepted one is cancelled at once (its funds come back). The answer is
//            a bracket [lo, hi], as fine as the probes allowed.
// Where neither works the check skips, saying why.

export interface Funds {
  /** Lowest the funds can be; equal to hi when known exactly. */
  lo: Decimal;
  hi: Decimal;
  way: 'insufficient_funds details' | 'search';
}

/** Far above any balance a sandbox gives: the withdrawal is refused, never made. */
const TOO_MUCH = '1000000000000000';
/** Bisection steps of the search: a bracket 2^-SEARCH_STEPS of the first power-of-ten bound. */
const SEARCH_STEPS = 18;

export const exact = (f: Funds) => f.lo.eq(f.hi);
const fmt = (d: Decimal) => (d.isNegative() ? `−${d.abs().toFixed()}` : d.toFixed());
export const showFunds = (f: Funds) => (exact(f) ? fmt(f.lo) : `between ${fmt(f.lo)} and ${fmt(f.hi)}`);

/** The funds of `userId` as the partner of `key` (default: the main key) sees them. With a
 *  `history` (main key only), the requests that learn them are recorded into it: a storm's
 *  history then holds its funds before and after, which the linearizability judge reads. */
export async function learnFunds(ctx: CheckContext, userId: string, asset: string, key?: string, history?: Exchanges): Promise<Funds> {
  const send = sender(ctx, key, history);
  const viaDetails = ctx.profile.errors.insufficientFundsDetails !== false ? await fromDetails(ctx, send, userId, asset) : undefined;
  if (viaDetails) return viaDetails;
  return search(ctx, send, userId, asset);
}

type Send = (op: StormOp & { kind: 'user.withdraw' | 'lend.create' | 'position.cancel' }) => Promise<Reply>;

/** Sends one op: recorded into `history` when there is one (and no other key), else as a plain call. */
function sender(ctx: CheckContext, key: string | undefined, history: Exchanges | undefined): Send {
  if (history && !key) return (op) => recordOne(ctx, history, op);
  const k = key ? { key } : {};
  return (op) => {
    if (op.kind === 'user.withdraw') return ctx.call('user.withdraw', { params: { userId: op.ids!.userId! }, ...k, body: op.body as Record<string, unknown> });
    if (op.kind === 'lend.create') return ctx.call('lend.create', { ...k, body: op.body as Record<string, unknown> });
    return ctx.call('position.cancel', { params: { positionId: op.ids!.positionId! }, ...k });
  };
}

async function fromDetails(ctx: CheckContext, send: Send, userId: string, asset: string): Promise<Funds | undefined> {
  const r = await send({ kind: 'user.withdraw', ids: { userId }, body: { asset, amount: TOO_MUCH, destination: validAddress(ctx.profile) } });
  if (r.status === 429) throw unaffordable(`reading ${asset} funds of ${userId} answered 429 twice: the target's rate limit leaves no room for this check now`);
  if (accepted(r)) throw new CheckSkip(`a withdrawal of ${TOO_MUCH} ${asset} for ${userId} was accepted, so the funds cannot be learned (and the user is drained)`);
  const available = (r.json as { error?: { details?: { available?: unknown } } } | undefined)?.error?.details?.available;
  if (errorCode(r) === 'insufficient_funds' && typeof available === 'string' && /^-?\d+(\.\d+)?$/.test(available)) {
    const a = new Decimal(available);
    return { lo: a, hi: a, way: 'insufficient_funds details' };
  }
  ctx.note(`the insufficient_funds details did not give ${asset} funds (${r.status} ${String(errorCode(r) ?? '')}); searching instead`);
  return undefined;
}

/** Does a lend of `x` fit? A refused one moves nothing; an accepted one is cancelled at once. */
async function fits(ctx: CheckContext, send: Send, userId: string, asset: string, x: Decimal): Promise<boolean> {
  const r = await send({ kind: 'lend.create', body: lendBody(ctx, userId, { asset, amount: x.toFixed(), rate: await restingRateFor(ctx) }) });
  if (errorCode(r) === 'insufficient_funds') return false;
  if (r.status === 429) throw unaffordable(`the funds search's lend answered 429 twice: the target's rate limit leaves no room for this check now`);
  if (!accepted(r)) throw new CheckSkip(`the funds search's lend of ${x.toFixed()} ${asset} answered ${r.status} ${String(errorCode(r) ?? '')}: neither accepted nor insufficient_funds`);
  const id = (r.json as { positionId?: unknown }).positionId;
  const c: Reply = await send({ kind: 'position.cancel', ids: { positionId: String(id) } });
  if (!accepted(c)) throw new CheckSkip(`the funds search's probe lend ${String(id)} could not be cancelled (${c.status}), so the search would move money`);
  return true;
}

async function search(ctx: CheckContext, send: Send, userId: string, asset: string): Promise<Funds> {
  if (!(LEND_ASSETS as readonly string[]).includes(asset)) {
    throw new CheckSkip(`no way to learn ${asset} funds: the target gives no insufficient_funds details (profile errors.insufficientFundsDetails) and ${asset} cannot be lent to search with`, 'target-lacks');
  }
  const max = new Decimal(ctx.profile.amounts.maxOrder);
  const min = new Decimal(ctx.profile.amounts.minOrder);
  let lo = new Decimal(0);
  let bound: Decimal | undefined;
  for (let x = Decimal.max(min, 1); x.lte(max); x = x.mul(10)) {
    if (await fits(ctx, send, userId, asset, x)) lo = x;
    else {
      bound = x;
      break;
    }
  }
  if (!bound) throw new CheckSkip(`${asset} funds of ${userId} exceed the largest order (${max.toFixed()}), so the search cannot bound them`);
  let hi: Decimal = bound;
  if (lo.isZero() && !(await fits(ctx, send, userId, asset, min))) return { lo, hi: min, way: 'search' };
  if (lo.isZero()) lo = min;
  const decimals = Math.min(ctx.profile.assets.info?.[asset]?.decimals ?? 2, 6);
  for (let i = 0; i < SEARCH_STEPS && hi.minus(lo).gt(new Decimal(10).pow(-decimals)); i++) {
    const mid: Decimal = lo.plus(hi).div(2).toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
    if (mid.lte(lo)) break;
    if (await fits(ctx, send, userId, asset, mid)) lo = mid;
    else hi = mid;
  }
  ctx.note(`funds of ${userId} learned by search (${asset} between ${lo.toFixed()} and ${hi.toFixed()}): the target gives no insufficient_funds details`);
  // hi itself was refused: the funds are below it by at least the smallest unit.
  return { lo, hi: hi.minus(new Decimal(10).pow(-decimals)), way: 'search' };
}

// The funds at the start of a recorded history (the linearizability storm, the model walk),
// learned without moving anything outside the history: the sandbox's balances control where
// the target has it, else the details of an insufficient_funds answer to a lend of the largest
// order, which the history records (the spec fixes {required, available}), else unknown.
// Each result names the way it was learned, so a check can say which it used.

export type FundsVia = 'the sandbox balances control' | 'insufficient_funds details' | 'not learnable';

export interface Learned {
  available?: Decimal;
  via: FundsVia;
  /** Why nothing could be learned. */
  reason?: string;
}

export async function balanceControl(ctx: CheckContext, userId: string, asset: string): Promise<Decimal> {
  const r = await ctx.call('sandbox.balances', { params: { userId } });
  const b = expectShape(r, controls.balancesResponse, 'the balances control answers with balances');
  return new Decimal(b.balances.find((x) => x.asset === asset)?.available ?? '0');
}

/** What a lend of the largest order tells of the funds (the probe itself is the caller's, so it can sit in a history). */
export function fromProbe(ctx: CheckContext, probe: TimedExchange, asset: string): Learned {
  const out = outcomeOf(ctx.profile, probe);
  if (out.kind === 'insufficient' && out.available !== undefined) return { available: new Decimal(out.available), via: 'insufficient_funds details' };
  if (out.kind === 'insufficient') return { via: 'not learnable', reason: `an order of ${ctx.profile.amounts.maxOrder} ${asset} was refused as insufficient_funds without details.available` };
  if (out.kind === 'ok') return { via: 'not learnable', reason: `the user holds at least the largest order (${ctx.profile.amounts.maxOrder} ${asset})` };
  return { via: 'not learnable', reason: `an order of ${ctx.profile.amounts.maxOrder} ${asset} beyond the balance answered ${probe.response?.status ?? 'nothing'}` };
}

/** The largest-order probe body for a lend of `asset` that stays pending. */
export const probeBody = (ctx: CheckContext, userId: string, asset: string) => ({ userId, asset, amount: ctx.profile.amounts.maxOrder, rate: restingRateNow(ctx), maturity: orderMaturity(ctx.profile) });

/**
 * The profile's `consistency.readAfterWrite` (an option the concurrency suite adds): when a
 * target declares reads eventually consistent, a read may miss an acknowledged write for a
 * while, so neither a linearizability check nor an exact walk applies.
 */
export function eventualReads(profile: Profile): string | undefined {
  const c = profile.consistency;
  if (c.readAfterWrite !== 'eventual') return undefined;
  return `the profile declares reads eventually consistent (consistency.readAfterWrite eventual, within ${c.convergenceMs} ms), so a read may miss an acknowledged write for a while and this check would fail a correct target`;
}
