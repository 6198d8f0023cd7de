import { Decimal } from '../../../contract/decimal.ts';
import { controls, type Profile } from '../../../contract/index.ts';
import { expectShape, type CheckContext } from '../../check.ts';
import { enc } from '../../checks/fixtures.ts';
import { outcomeOf } from './ledger/adapter.ts';
import type { TimedExchange } from '../exchanges.ts';

// A user's available funds without a balance endpoint (the spec has none): the sandbox's
// balances control where the target has it, else the details of an insufficient_funds answer
// to an order larger than any balance (the spec fixes {required, available}), else unknown.
// Each result names the way it was learned, so a check can say which it used.

export type FundsVia = 'the sandbox balances control' | 'insufficient_funds details' | 'not learnable';

export interface Learned {
  available?: Decimal;
  via: FundsVia;
  /** Why nothing could be learned. */
  reason?: string;
}

export async function balanceControl(ctx: CheckContext, userId: string, asset: string): Promise<Decimal> {
  const r = await ctx.api('GET', `/sandbox/users/${enc(userId)}/balances`);
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
export const probeBody = (ctx: CheckContext, userId: string, asset: string) => ({ userId, asset, amount: ctx.profile.amounts.maxOrder, rate: 0.5, maturity: ctx.profile.lifecycle.defaultMaturity });

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
