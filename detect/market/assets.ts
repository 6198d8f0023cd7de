import { DEFAULT_ASSET_INFO } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { errorText, type Detector, type Probe } from '../probe.ts';
import { probeAmount } from '../orders/probe-amount.ts';

// The borrow and collateral asset lists. Each borrow carries a maturity no market has, so
// one whose assets pass is refused for its maturity and nothing is created: a refusal
// naming the maturity means the assets were taken.

export const NO_MARKET = '99999d';
export const STABLE = ['USDC', 'USDT', 'DAI'];

const passedAssets = (r: Reply) => /maturity/.test(errorText(r));

export const assetsDetector: Detector = {
  name: 'asset lists',
  options: ['assets.borrow', 'assets.collateral'],
  async run(p) {
    const markets = p.fact<string[]>('assets') ?? [];
    const known = [...new Set([...markets, ...Object.keys(DEFAULT_ASSET_INFO)])];
    const borrow = async (borrowAsset: string, collateral: string) =>
      p.call('borrow.create', { body: { userId: p.user('assets'), collateral: { asset: collateral, amount: '1000000' }, borrowAsset, borrowAmount: probeAmount(p, '100'), maturity: NO_MARKET } });
    // Borrow assets against a collateral the target takes: the one that worked last first.
    const borrowable: string[] = [];
    const ev: Reply[] = [];
    let colls = ['ETH', ...known.filter((a) => a !== 'ETH')];
    for (const a of known) {
      let r: Reply | undefined;
      for (const c of colls.filter((x) => x !== a)) {
        r = await borrow(a, c);
        if (passedAssets(r) || !/collateral/.test(errorText(r)) || /borrow/.test(errorText(r))) {
          if (passedAssets(r)) colls = [c, ...colls.filter((x) => x !== c)];
          break;
        }
      }
      if (r) ev.push(r);
      if (r && passedAssets(r)) borrowable.push(a);
    }
    if (!borrowable.length) return p.miss('assets.borrow', `no asset of ${known.join(', ')} was taken as borrowAsset`);
    p.set('assets.borrow', borrowable, 'high', ev.slice(0, 6), `the ones of ${known.join(', ')} that passed to the maturity rule as borrowAsset`);
    p.facts.set('borrowAssets', borrowable);
    const b = borrowable[0]!;
    const taken: string[] = [];
    const cev: Reply[] = [];
    for (const c of known) {
      const r = await borrow(b, c);
      cev.push(r);
      if (passedAssets(r)) taken.push(c);
    }
    p.set('assets.collateral', taken, 'high', cev.slice(0, 6), `the ones of ${known.join(', ')} that passed to the maturity rule as collateral against ${b}`);
    p.facts.set('collateralAssets', taken);
  },
};

/** The asset to lend and borrow organically: one with a market that can also be borrowed. */
export function tradeAsset(p: Probe): string {
  const markets = p.fact<string[]>('assets') ?? ['USDC'];
  const borrowable = p.fact<string[]>('borrowAssets');
  return (borrowable ? markets.find((a) => borrowable.includes(a)) : undefined) ?? markets[0] ?? 'USDC';
}

/** Two stablecoins, one borrowable and one taken as collateral: worth 1 USD each, so amounts compare at par. */
export function stablePair(p: Probe): { borrow: string; collateral: string } | undefined {
  const borrowable = p.fact<string[]>('borrowAssets') ?? [];
  const coll = p.fact<string[]>('collateralAssets') ?? [];
  for (const b of STABLE.filter((a) => borrowable.includes(a))) {
    const c = STABLE.find((x) => x !== b && coll.includes(x));
    if (c) return { borrow: b, collateral: c };
  }
  return undefined;
}
