import { Decimal } from '../../contract/decimal.ts';
import type { Reply } from '../../conformance/http.ts';
import { errorOf, errorText, ok, type Confidence, type Probe } from '../probe.ts';
import { firstTrue, niceLadder } from '../search.ts';

// A collateral asset's oracle price from the collateral-ratio rule. With the rule known
// (ratio R, a stablecoin borrowed at 1 USD), a borrow of B against C of the asset passes
// the rule exactly when C × price ≥ B × R. So for a candidate price x, the collateral
// C(x) = B × R / x (rounded up to the asset's decimals) passes iff price ≥ B × R / C(x),
// which is x or a hair under it. A passing borrow meets insufficient_funds (C is beyond
// what a user holds) or at worst opens a pending borrow at a rate nobody lends at.
//
// The search: the known token's price first (2 requests when it holds), else a bisection
// over 1, 2, 5 × 10^k, then one decimal digit at a time (the largest power of ten with a
// multiple inside the bracket, bisected over those multiples). Each time the lower bound
// moves to a round value, one unit of collateral less is tried: refused means the price is
// in [that value, a hair above it), and the round value is snapped to (high confidence).
// Hand-written: no library searches a monotone predicate over a decimal grid.

const Dx = Decimal.clone({ precision: 60 });
type Dx = Decimal;
/** Per-asset cap on the requests of one price search. */
export const PRICE_REQUESTS = 40;

export interface PriceSetup {
  asset: string;
  decimals: number;
  /** A stablecoin that can be borrowed, taken to be worth 1 USD. */
  borrowAsset: string;
  /** The borrow amount: a round number within the order bounds. */
  borrow: string;
  ratio: string;
  maturity: string;
  guess?: string;
}

export interface PriceFound { price: string; confidence: Confidence; evidence: Reply[]; note: string }

export async function detectPrice(p: Probe, s: PriceSetup): Promise<PriceFound | { miss: string }> {
  const B = new Dx(s.borrow);
  const R = new Dx(s.ratio);
  const unit = new Dx(10).pow(-s.decimals);
  const evidence: Reply[] = [];
  let spent = 0;
  const collFor = (x: Dx) => B.times(R).div(x).div(unit).ceil().times(unit);
  const passesColl = async (c: Dx): Promise<boolean> => {
    spent++;
    const r = await p.call('borrow.create', {
      body: { userId: p.user('price'), collateral: { asset: s.asset, amount: c.toFixed() }, borrowAsset: s.borrowAsset, borrowAmount: s.borrow, rate: 0.0001, maturity: s.maturity },
    });
    if (evidence.length < 6) evidence.push(r);
    if (ok(r) || errorOf(r)?.code === 'insufficient_funds') return true;
    if (r.status >= 400 && r.status < 500 && /collateral/.test(errorText(r))) return false;
    throw new Error(`a borrow against ${c.toFixed()} ${s.asset} answered ${r.status} ${errorText(r).slice(0, 160)}`);
  };
  const passes = (x: Dx) => passesColl(collFor(x));
  /** Refused with one unit of collateral less than x needs: the price is below x's hair. */
  const snaps = async (x: Dx) => collFor(x).gt(unit) && !(await passesColl(collFor(x).minus(unit)));
  const snapped = (x: Dx, how: string): PriceFound => ({
    price: x.toFixed(), confidence: 'high', evidence,
    note: `${s.asset} against ${s.borrow} ${s.borrowAsset} (taken as 1 USD) at the minimum collateral ratio ${s.ratio}: ${collFor(x).toFixed()} ${s.asset} passed the ratio rule, one unit less was refused, so the price is in [${x.toFixed()}, ${B.times(R).div(collFor(x).minus(unit)).toSignificantDigits(15).toFixed()}); ${how}`,
  });

  if (s.guess) {
    const g = new Dx(s.guess);
    if ((await passes(g)) && (await snaps(g))) return snapped(g, 'the token\'s usual price, tried first');
  }
  const ladder = niceLadder(-6, 9);
  const i = await firstTrue(ladder, async (v) => !(await passes(new Dx(v))));
  if (i === 0 || i === ladder.length) return { miss: `${s.asset}: the ratio rule gave no price between ${ladder[0]} and ${ladder[ladder.length - 1]} USD` };
  let lo = new Dx(ladder[i - 1]!);
  let hi = new Dx(ladder[i]!);
  let moved = true;
  const multiples = (step: Dx) => {
    const out: string[] = [];
    for (let x = lo.div(step).floor().plus(1).times(step); x.lt(hi); x = x.plus(step)) out.push(x.toFixed());
    return out;
  };
  // A digit costs at most 4 requests and a snap 1: stop (low confidence) before the cap.
  while (spent + 5 <= PRICE_REQUESTS) {
    if (moved && (await snaps(lo))) return snapped(lo, `the roundest value in the bracket [${lo.toFixed()}, ${hi.toFixed()}) the search narrowed to`);
    let step = new Dx(10).pow(hi.minus(lo).log(10).floor());
    let cands = multiples(step);
    if (!cands.length) cands = multiples((step = step.div(10)));
    // Below the collateral's unit, candidates can no longer be told apart.
    if (!cands.length || step.lt(lo.times(unit).div(collFor(hi)))) break;
    const j = await firstTrue(cands, async (v) => !(await passes(new Dx(v))));
    moved = j > 0;
    if (j > 0) lo = new Dx(cands[j - 1]!);
    if (j < cands.length) hi = new Dx(cands[j]!);
  }
  return {
    price: lo.toFixed(), confidence: 'low', evidence,
    note: `${s.asset}: the price is in [${lo.toFixed()}, ${hi.toFixed()}) USD and no round value in it was confirmed; the lower bound is given`,
  };
}
