import { Decimal } from '../../contract/decimal.ts';
import { DEFAULT_ASSET_INFO } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { NO_MARKET } from './assets.ts';
import { errorText, type Probe } from '../probe.ts';
import { lastTrueInt } from '../search.ts';

// Decimals per asset: a borrow whose amount has exactly d places, and a maturity no market
// has, passes to the maturity rule when d is within the asset's precision and is refused
// naming the amount field when it is over-precise; nothing is ever created. The known
// token's decimals are tried first (2 requests), then a bisection over 0..36 (the range
// the profile allows).

export const MAX_DECIMALS = 36;

/** `base` with exactly `d` decimal places, the last one a 1 (d = 0: base itself). */
export function withPlaces(base: string, d: number): string {
  return d === 0 ? base : `${base}.${'0'.repeat(d - 1)}1`;
}

export interface DecimalsFound { decimals: number; evidence: Reply[]; note: string; exact: boolean }

/** How an asset's amount is sent: as a lend, as the borrowed asset, or as collateral. */
export type AmountRole = 'lend' | 'borrow' | 'collateral';

/**
 * The decimals of `asset` in the given role; `partner` is the borrow's other side (a
 * collateral asset when `asset` is borrowed, a borrowable one when it is collateral).
 * Integer amounts are assumed to pass (d = 0).
 */
export async function detectDecimals(p: Probe, asset: string, o: { role: AmountRole; partner?: string; base: string }): Promise<DecimalsFound> {
  const evidence: Reply[] = [];
  const field = o.role === 'borrow' ? /borrowamount/ : o.role === 'collateral' ? /collateral/ : /amount/;
  const userId = p.user('decimals');
  const accepts = async (d: number): Promise<boolean> => {
    const r = o.role === 'lend'
      ? await p.call('lend.create', { body: { userId, asset, amount: withPlaces(o.base, d), maturity: NO_MARKET } })
      : await p.call('borrow.create', {
        body: o.role === 'borrow'
          ? { userId, collateral: { asset: o.partner, amount: '1000000' }, borrowAsset: asset, borrowAmount: withPlaces(o.base, d), maturity: NO_MARKET }
          : { userId, collateral: { asset, amount: withPlaces('1000000', d) }, borrowAsset: o.partner, borrowAmount: o.base, maturity: NO_MARKET },
      });
    if (evidence.length < 4) evidence.push(r);
    const text = errorText(r);
    if (/maturity/.test(text)) return true;
    if (r.status >= 400 && r.status < 500 && field.test(text)) return false;
    throw new Error(`a borrow with ${d} decimal places of ${asset} answered ${r.status} ${text.slice(0, 160)}`);
  };
  const guess = DEFAULT_ASSET_INFO[asset]?.decimals;
  let lo = 0;
  let hi = MAX_DECIMALS;
  if (guess !== undefined) {
    if (await accepts(guess)) {
      if (guess === MAX_DECIMALS || !(await accepts(guess + 1))) return { decimals: guess, evidence, exact: true, note: found(asset, guess, 'the token\'s usual decimals, tried first') };
      lo = guess + 1;
    } else hi = guess - 1;
  }
  const d = await lastTrueInt(lo, hi, accepts);
  return { decimals: d, evidence, exact: d < MAX_DECIMALS, note: d < MAX_DECIMALS ? found(asset, d, `bisection over ${lo}..${hi}`) : `${asset}: ${d} places taken (the most a profile allows)` };
}

const found = (asset: string, d: number, how: string) => `${asset}: ${d} places taken, ${d + 1} refused naming the amount (${how})`;

/** The smallest integer at least `minOrder` (and at least 1), as an amount every order rule takes. */
export function baseAmount(minOrder: string): string {
  return Decimal.max(1, new Decimal(minOrder).ceil()).toFixed();
}
