import { Decimal } from '../../contract/decimal.ts';
import { LEND_ASSETS } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { errorOf, errorText, ok, type Probe } from '../probe.ts';
import { STABLE } from '../market/assets.ts';
import { firstTrue, niceLadder } from '../search.ts';

// Where no second stablecoin is taken as collateral, the minimum collateral ratio cannot be read
// at par: against a volatile collateral only the ratio over its price shows (issue 47, mutator
// seed 28: 2.97 with ETH at 2500, the only collateral). What a borrow needs is that quotient,
// collateral per unit borrowed, so it is searched for the pair the suites pledge
// (contract/collateral.ts collateralAsset: a volatile collateral against a lendable stablecoin)
// and recorded as a pledge seen taken (amounts.pledgeTaken). The borrow is as large as orders may
// be, so a pledge that passes the ratio rule meets insufficient_funds instead of opening a
// position; collateral goes at two places at most, so no asset's precision refuses it.

/** Candidate collateral per unit borrowed: 1, 2, 5 × 10^k, from a hundred-millionth to a hundred. */
const LADDER = niceLadder(-8, 2);

export async function pledgeTaken(p: Probe, maxOrder: string, maturity: string): Promise<void> {
  const borrowable = p.fact<string[]>('borrowAssets') ?? [];
  const coll = p.fact<string[]>('collateralAssets') ?? [];
  const borrow = borrowable.find((a) => STABLE.includes(a) && (LEND_ASSETS as readonly string[]).includes(a));
  const asset = borrow ? (coll.find((a) => a !== borrow && !(LEND_ASSETS as readonly string[]).includes(a)) ?? coll.find((a) => a !== borrow)) : undefined;
  if (!borrow || !asset) return p.miss('amounts.pledgeTaken', 'no borrowable stablecoin with another collateral asset to pledge against it');
  const B = new Decimal(maxOrder);
  const pledge = (k: string) => B.times(k).toDecimalPlaces(2, Decimal.ROUND_UP);
  const evidence: Reply[] = [];
  const passes = async (k: string): Promise<boolean> => {
    const r = await p.call('borrow.create', {
      body: { userId: p.user('amounts'), collateral: { asset, amount: pledge(k).toFixed() }, borrowAsset: borrow, borrowAmount: B.toFixed(), rate: 0.0001, maturity },
    });
    evidence.push(r);
    if (ok(r) || errorOf(r)?.code === 'insufficient_funds') return true;
    if (r.status >= 400 && r.status < 500 && /collateral/.test(errorText(r))) return false;
    throw new Error(`a borrow of ${B.toFixed()} ${borrow} against ${pledge(k).toFixed()} ${asset} answered ${r.status} ${errorText(r).slice(0, 160)}`);
  };
  const i = await firstTrue(LADDER, passes);
  if (i === 0 || i === LADDER.length) return p.miss('amounts.pledgeTaken', `no bound between ${LADDER[0]} and ${LADDER[LADDER.length - 1]} ${asset} per ${borrow}`);
  const per = pledge(LADDER[i]!).div(B);
  p.set('amounts.pledgeTaken', { [`${asset}/${borrow}`]: per.toFixed() }, 'medium', evidence.slice(-4),
    `${pledge(LADDER[i]!).toFixed()} ${asset} for ${B.toFixed()} ${borrow} passed the ratio rule, ${pledge(LADDER[i - 1]!).toFixed()} was refused naming the collateral: only the ratio over ${asset}'s price shows (no second stablecoin to read the ratio at par)`);
}
