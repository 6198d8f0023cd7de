import { Decimal } from '../../contract/decimal.ts';
import type { Reply } from '../../conformance/http.ts';
import { stablePair } from '../market/assets.ts';
import { controlsOf, NO_CONTROLS, setPrice } from '../controls.ts';
import { errorText, ok, type Detector, type Probe } from '../probe.ts';
import { findId } from '../../conformance/body-id.ts';
import { firstTrue, ratioLadder } from '../search.ts';

// The liquidation threshold and the status it leaves, with the sandbox oracle: a borrow of
// one stablecoin against another is opened at a known collateral ratio (both prices set to
// 1 USD, as stablecoins are assumed to be, and left there afterwards), then the
// collateral's price is lowered to put the ratio half a step (0.025) above a candidate
// threshold; a borrow that is liquidated is replaced. A binary search over thresholds
// 1.00, 1.05, … finds one on that grid exactly; one between rungs reads as the rung above.
// Without an oracle control a price cannot be moved, so neither is detected.

const STEP = '0.05';
const HALF = '0.025';
/** Small, so the collateral fits the funds a sandbox gives a new user. */
const BORROW = new Decimal(10);

interface Loan { id: string; collateral: Decimal }

export const liquidationDetector: Detector = {
  name: 'liquidation (oracle)',
  options: ['amounts.liquidationRatio', 'lifecycle.statusAfterLiquidation'],
  async run(p) {
    if (new Decimal(String(p.found.get('amounts.minOrder')?.value ?? '1')).gt(BORROW)) throw new Error(`orders start above ${BORROW.toFixed()}`);
    if (!(await controlsOf(p))) {
      for (const o of liquidationDetector.options) p.miss(o, `${NO_CONTROLS}: a liquidation needs a price move`);
      return;
    }
    const pair = stablePair(p);
    if (!pair) {
      for (const o of liquidationDetector.options) p.miss(o, 'no second stablecoin is taken as collateral, and other assets\' prices are not known to restore');
      return;
    }
    const { borrow: asset, collateral: coll } = pair;
    const minRatio = new Decimal(String(p.found.get('amounts.minCollateralRatio')?.value ?? '1.5'));
    const start = minRatio.plus('0.1');
    const evidence: Reply[] = [await setPrice(p, asset, '1')];
    let loan: Loan | undefined;
    let seized: { status: string; reply: Reply } | undefined;
    // Liquidated at collateral ratio x? The price puts the open loan's ratio at x.
    const liquidatedAt = async (x: Decimal): Promise<boolean> => {
      loan ??= await open(p, asset, coll, start, evidence);
      evidence.push(await setPrice(p, coll, x.times(BORROW).div(loan.collateral).toSignificantDigits(12).toFixed()));
      const g = await p.call('position.get', { params: { positionId: loan.id } });
      const status = (g.json as { status?: unknown } | undefined)?.status;
      if (!ok(g) || typeof status !== 'string') throw new Error(`reading the borrow answered ${g.status}`);
      if (status === 'active') return false;
      if (status === 'pending') throw new Error('the crossing borrow was not matched');
      seized = { status, reply: g };
      loan = undefined;
      return true;
    };
    const ladder = ratioLadder('1', start.minus(STEP).toFixed(), STEP);
    let i: number;
    try {
      i = await firstTrue(ladder, async (g) => !(await liquidatedAt(new Decimal(g).plus(HALF))));
    } finally {
      await setPrice(p, coll, '1');
    }
    if (seized) p.set('lifecycle.statusAfterLiquidation', seized.status, 'high', [seized.reply], 'a borrow read after its collateral price fell under the threshold');
    else p.miss('lifecycle.statusAfterLiquidation', 'no probe liquidated a borrow');
    if (i > 0 && i < ladder.length) {
      p.set('amounts.liquidationRatio', ladder[i], 'medium', evidence,
        `at collateral ratio ${new Decimal(ladder[i - 1]!).plus(HALF).toFixed()} a borrow was liquidated, at ${new Decimal(ladder[i]!).plus(HALF).toFixed()} it was not (thresholds on a ${STEP} grid)`);
    } else p.miss('amounts.liquidationRatio', `the threshold is outside ${ladder[0]} to ${ladder[ladder.length - 1]}`);
  },
};

/** A matched borrow of BORROW at collateral ratio `ratio` (both prices at 1): a crossing lend, then the borrow. */
async function open(p: Probe, asset: string, coll: string, ratio: Decimal, evidence: Reply[]): Promise<Loan> {
  evidence.push(await setPrice(p, coll, '1'));
  const maturity = p.fact<string[]>('maturities')?.[0] ?? '30d';
  const lend = await p.call('lend.create', { body: { userId: p.user('liq-lender'), asset, amount: BORROW.toFixed(), rate: 0.01, maturity } });
  if (!ok(lend)) throw new Error(`a crossing lend answered ${lend.status} ${errorText(lend).slice(0, 160)}`);
  const collateral = BORROW.times(ratio);
  const b = await p.call('borrow.create', {
    body: { userId: p.user('liq-borrower'), collateral: { asset: coll, amount: collateral.toFixed() }, borrowAsset: asset, borrowAmount: BORROW.toFixed(), rate: 0.02, maturity },
  });
  const id = findId(b.json, 'positionId')?.value ?? findId(b.json)?.value;
  if (!ok(b) || !id) throw new Error(`a borrow at collateral ratio ${ratio.toFixed()} answered ${b.status} ${errorText(b).slice(0, 160)}`);
  evidence.push(b);
  // The pair crossed (the borrow at 0.02 over the lend at 0.01): neither rests, so neither owes a cancel (cleanup.ts).
  for (const placed of [id, findId(lend.json, 'positionId')?.value ?? findId(lend.json)?.value]) if (placed) p.settled(placed);
  return { id, collateral };
}
