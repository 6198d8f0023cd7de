import { DEFAULT_ASSET_INFO, defaultProfile } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { STABLE } from './assets.ts';
import { baseAmount, detectDecimals } from './decimals.ts';
import { lentPrices } from './lent-prices.ts';
import { detectPrice } from './prices.ts';
import type { Confidence, Detector } from '../probe.ts';

// assets.info, per asset of the markets and the borrow and collateral lists: its decimals (decimals.ts) and
// its oracle price. A stablecoin (USDC, USDT, DAI) is taken to be worth 1 USD, as the
// minimum collateral ratio was read at par, unless the TVL of what is lent shows otherwise
// (lent-prices.ts, which confirms it for the lent ones); any other collateral asset's price is searched
// through the collateral-ratio rule (prices.ts). An asset in none of them is never seen,
// so the record holds those only. It runs last: a run whose budget is spent
// skips it, saying so, rather than spend a Starter burst's last requests on half of it.

/** The fewest requests a complete record could cost: 2 per asset's decimals, 2 per price. */
export function leastCost(assets: string[]): number {
  return assets.reduce((n, a) => n + 2 + (STABLE.includes(a) ? 0 : 2), 0);
}

export const assetInfoDetector: Detector = {
  name: 'asset decimals and prices',
  options: ['assets.info'],
  async run(p) {
    const borrowable = p.fact<string[]>('borrowAssets') ?? [];
    const collateral = p.fact<string[]>('collateralAssets') ?? [];
    const markets = p.fact<string[]>('assets') ?? [];
    const assets = [...new Set([...markets, ...borrowable, ...collateral])];
    if (!borrowable.length || !collateral.length) return p.miss('assets.info', 'the asset lists were not detected');
    const need = leastCost(assets);
    if (p.left < need) {
      return p.miss('assets.info', `skipped: the decimals and prices of ${assets.join(', ')} need at least ${need} requests and ${p.left} of the budget (${p.opts.maxRequests}) are left; raise --max-requests to read them`);
    }
    const ratio = p.found.get('amounts.minCollateralRatio')?.value;
    const stableBorrow = STABLE.find((a) => borrowable.includes(a));
    const base = baseAmount(String(p.found.get('amounts.minOrder')?.value ?? defaultProfile.amounts.minOrder));
    const info: Record<string, { decimals: number; oraclePriceUsd: string }> = {};
    const evidence: Reply[] = [];
    const notes: string[] = [];
    let confidence: Confidence = 'high';
    const lower = (c: Confidence) => {
      if (c === 'low' || (c === 'medium' && confidence === 'high')) confidence = c;
    };
    for (const a of assets) {
      const role = borrowable.includes(a) ? 'borrow' : collateral.includes(a) ? 'collateral' : 'lend';
      const partner = role === 'borrow' ? collateral.find((c) => c !== a) : borrowable.find((b) => b !== a);
      if (role !== 'lend' && !partner) return p.miss('assets.info', `no asset to pair ${a} with in a borrow`);
      const d = await detectDecimals(p, a, { role, partner, base });
      evidence.push(...d.evidence.slice(0, 2));
      notes.push(d.note);
      if (!d.exact) lower('medium');
      info[a] = { decimals: d.decimals, oraclePriceUsd: '1' };
    }
    for (const a of assets) {
      if (STABLE.includes(a)) continue;
      if (!collateral.includes(a)) return p.miss('assets.info', `${a} is borrowable only: its price would need a stablecoin's collateral-ratio search, which is not written`);
      if (ratio === undefined) return p.miss('assets.info', `${a}'s price is read through the minimum collateral ratio, which was not detected`);
      if (!stableBorrow) return p.miss('assets.info', `${a}'s price needs a borrowable stablecoin to measure it against`);
      const maxOrder = String(p.found.get('amounts.maxOrder')?.value ?? defaultProfile.amounts.maxOrder);
      const r = await detectPrice(p, {
        asset: a, decimals: info[a]!.decimals, borrowAsset: stableBorrow, borrow: maxOrder, ratio: String(ratio),
        maturity: p.fact<string[]>('maturities')?.[0] ?? defaultProfile.lifecycle.defaultMaturity, guess: DEFAULT_ASSET_INFO[a]?.oraclePriceUsd,
      });
      if ('miss' in r) return p.miss('assets.info', r.miss);
      info[a]!.oraclePriceUsd = r.price;
      evidence.push(...r.evidence.slice(-2));
      notes.push(r.note);
      lower(r.confidence);
    }
    const stables = assets.filter((a) => STABLE.includes(a));
    if (stables.length) {
      const shown = p.left >= 2 ? await lentPrices(p, stables) : undefined;
      if (shown) {
        evidence.push(...shown.evidence);
        notes.push(shown.note);
        if (shown.price) info[shown.price.asset]!.oraclePriceUsd = shown.price.value;
        if (!shown.confirmed.length) lower('low');
      }
      const assumed = stables.filter((a) => !shown?.confirmed.includes(a) && a !== shown?.price?.asset);
      if (assumed.length) {
        notes.push(`${assumed.join(', ')}: taken as 1 USD (stablecoins${shown ? '' : '; the TVL showed no lent stablecoin\'s price'}; the minimum collateral ratio was read at par on the same assumption)`);
        lower('medium');
      }
    }
    p.set('assets.info', info, confidence, evidence, notes.join('; '));
  },
};
