import { Decimal } from '../../contract/decimal.ts';
import type { Reply } from '../../conformance/http.ts';
import { errorOf, errorText, ok, type Detector, type Probe } from '../probe.ts';
import { NO_MARKET, stablePair, tradeAsset } from '../market/assets.ts';
import { EVM_ADDRESS } from './lifecycle.ts';
import { firstTrue, niceLadder, ratioLadder } from '../search.ts';
import { pledgeTaken } from './pledge.ts';

// Amount bounds by bounded search. Orders carry a maturity no
// market has, so an order that passes the amount rules is refused for its maturity and
// nothing is created: which field the refusal names tells which rule stopped it.


/** Refused for `field` (not for the maturity that comes after it)? */
const refusedFor = (r: Reply, field: RegExp) => !ok(r) && !/maturity/.test(errorText(r)) && field.test(errorText(r));

/**
 * The order bounds, early (right after the markets are known): the detectors after it lend, and a
 * target whose minimum order is 100 refused their lends of 10, so what they found was lost
 * (issue 47, cause 4). The probes carry a maturity no market has, so nothing is created.
 */
export const orderBoundsDetector: Detector = {
  name: 'order amount bounds',
  options: ['amounts.minOrder', 'amounts.maxOrder'],
  async run(p) {
    const asset = tradeAsset(p);
    const user = p.user('amounts');
    const evidence: Reply[] = [];
    const lendRefused = async (amount: string) => {
      const r = await p.call('lend.create', { body: { userId: user, asset, amount, maturity: NO_MARKET } });
      evidence.push(r);
      return refusedFor(r, /amount/);
    };

    const low = niceLadder(-6, 6);
    const iMin = await firstTrue(low, async (v) => !(await lendRefused(v)));
    if (iMin > 0 && iMin < low.length) p.set('amounts.minOrder', low[iMin], 'medium', evidence.splice(0), `${low[iMin - 1]} refused naming amount, ${low[iMin]} passed to the maturity rule (searched 1, 2, 5 × 10^k)`);
    else p.miss('amounts.minOrder', `no bound between ${low[0]} and ${low[low.length - 1]}`);

    const high = niceLadder(3, 15);
    const iMax = await firstTrue(high, (v) => lendRefused(v));
    if (iMax > 0 && iMax < high.length) p.set('amounts.maxOrder', high[iMax - 1], 'medium', evidence.splice(0), `${high[iMax - 1]} passed the amount rules, ${high[iMax]} was refused naming amount`);
    else p.miss('amounts.maxOrder', `no bound between ${high[0]} and ${high[high.length - 1]}`);
  },
};

export const amountsDetector: Detector = {
  name: 'amount bounds',
  options: ['amounts.minCollateralRatio', 'amounts.pledgeTaken'],
  async run(p) {
    const minOrder = String(p.found.get('amounts.minOrder')?.value ?? '1');
    await collateralRatio(p, minOrder);
  },
};

/**
 * The smallest withdrawal, before the lifecycle probe withdraws: it withdrew a fixed 10, which a
 * target whose minimum is 730 refused, so its success status went unseen and a default stood in
 * (issue 47, mutator seeds 1, 4, 8, 10, 12, 13). The one withdrawal that succeeds is the minimum.
 */
export const withdrawalBoundDetector: Detector = {
  name: 'withdrawal amount bound',
  options: ['amounts.minWithdrawal'],
  async run(p) {
    const asset = tradeAsset(p);
    const wUser = p.user('orders');
    const wd = niceLadder(-6, 3);
    const wEvidence: Reply[] = [];
    const iW = await firstTrue(wd, async (v) => {
      const r = await p.call('user.withdraw', { params: { userId: wUser }, body: { asset, amount: v, destination: p.fact<string>('destination') ?? EVM_ADDRESS } });
      wEvidence.push(r);
      return ok(r);
    });
    if (iW > 0 && iW < wd.length) p.set('amounts.minWithdrawal', wd[iW], 'medium', wEvidence, `${wd[iW - 1]} refused, ${wd[iW]} withdrawn (searched 1, 2, 5 × 10^k)`);
    else p.miss('amounts.minWithdrawal', `no bound between ${wd[0]} and ${wd[wd.length - 1]}`);
  },
};

/**
 * A stablecoin against a stablecoin (both worth 1 USD), so the ratio is the amounts' ratio.
 * The borrow is as large as orders may be, so collateral that passes the ratio rule meets
 * insufficient_funds instead of opening a position (the maturity is checked before the
 * ratio, so the no-market trick does not apply here).
 */
async function collateralRatio(p: Probe, minOrder: string): Promise<void> {
  const pair = stablePair(p);
  const maturity = p.fact<string[]>('maturities')?.[0] ?? '30d';
  const borrow = Decimal.max(new Decimal(minOrder), new Decimal(String(p.found.get('amounts.maxOrder')?.value ?? '1000000')));
  if (!pair) {
    p.miss('amounts.minCollateralRatio', 'no second stablecoin is taken as collateral to compare amounts at par');
    // What a borrow needs is still there to read: collateral per unit borrowed (pledge.ts).
    return pledgeTaken(p, borrow.toFixed(), maturity);
  }
  const { borrow: asset, collateral: coll } = pair;
  const ladder = ratioLadder('1', '3', '0.05');
  const evidence: Reply[] = [];
  const i = await firstTrue(ladder, async (ratio) => {
    const r = await p.call('borrow.create', {
      body: { userId: p.user('amounts'), collateral: { asset: coll, amount: borrow.times(ratio).toFixed() }, borrowAsset: asset, borrowAmount: borrow.toFixed(), rate: 0.0001, maturity },
    });
    evidence.push(r);
    return ok(r) || errorOf(r)?.code === 'insufficient_funds';
  });
  if (i > 0 && i < ladder.length) p.set('amounts.minCollateralRatio', ladder[i], 'medium', evidence, `${coll} against ${asset} at par: ${ladder[i - 1]} refused, ${ladder[i]} passed the ratio rule (step 0.05; assumes both are worth 1 USD)`);
  else p.miss('amounts.minCollateralRatio', `no bound between ${ladder[0]} and ${ladder[ladder.length - 1]}`);
}
