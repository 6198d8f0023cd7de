import { Decimal } from '../../contract/decimal.ts';
import type { Reply } from '../../conformance/http.ts';
import { ok, unwrap, type Probe } from '../probe.ts';

// What the target shows of lent assets' prices: GET /markets gives each market's lent
// total, GET /analytics/tvl the USD value of it (its last point, at 2 places rounded down).
// When only stablecoins are lent, the TVL either equals their sum at 1 USD each (the
// assumption the price and ratio searches rest on, then confirmed for those assets), or
// not; with one asset lent, the TVL brackets its price.

export interface LentPrices {
  /** Lent assets whose 1 USD the TVL confirms. */
  confirmed: string[];
  /** A lent asset's price read from the TVL where it is not 1 USD. */
  price?: { asset: string; value: string };
  note: string;
  evidence: Reply[];
}

const CENT = new Decimal('0.01');

export async function lentPrices(p: Probe, stables: string[]): Promise<LentPrices | undefined> {
  const m = await p.call('public.markets');
  const t = await p.call('public.tvl');
  const markets = (unwrap(m) as { markets?: Array<{ asset?: unknown; totalLent?: unknown }> } | undefined)?.markets;
  const points = (unwrap(t) as { points?: Array<{ value?: unknown }> } | undefined)?.points;
  const last = Array.isArray(points) ? points[points.length - 1]?.value : undefined;
  if (!ok(m) || !ok(t) || !Array.isArray(markets) || typeof last !== 'string' || !/^\d+(\.\d+)?$/.test(last)) return undefined;
  const lent = new Map<string, Decimal>();
  for (const x of markets) {
    if (typeof x.asset === 'string' && typeof x.totalLent === 'string' && /^\d+(\.\d+)?$/.test(x.totalLent)) {
      lent.set(x.asset, (lent.get(x.asset) ?? new Decimal(0)).plus(x.totalLent));
    }
  }
  const assets = [...lent].filter(([, v]) => v.gt(0)).map(([a]) => a);
  const evidence = [m, t];
  if (!assets.length || assets.some((a) => !stables.includes(a))) return undefined;
  const tvl = new Decimal(last);
  const atPar = assets.reduce((s, a) => s.plus(lent.get(a)!), new Decimal(0));
  const list = assets.map((a) => `${lent.get(a)!.toFixed()} ${a}`).join(' + ');
  // Rounded down to cents: the TVL is at most a cent per asset under the exact sum.
  if (tvl.lte(atPar) && atPar.minus(tvl).lt(CENT.times(assets.length))) {
    return { confirmed: assets, evidence, note: `GET /analytics/tvl gives ${tvl.toFixed()} USD for ${list} lent (GET /markets): 1 USD each, confirmed` };
  }
  if (assets.length === 1) {
    const a = assets[0]!;
    const lo = tvl.div(lent.get(a)!);
    return {
      confirmed: [], evidence, price: { asset: a, value: lo.toSignificantDigits(6).toFixed() },
      note: `GET /analytics/tvl gives ${tvl.toFixed()} USD for ${list} lent: ${a} is worth ${lo.toSignificantDigits(6).toFixed()} USD, not 1 (the ratio and price searches assumed 1)`,
    };
  }
  return { confirmed: [], evidence, note: `GET /analytics/tvl gives ${tvl.toFixed()} USD for ${list} lent, not their sum at 1 USD each: the stablecoin prices assumed here are off` };
}
