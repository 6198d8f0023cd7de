import { errorText, ok, type Detector, type Probe } from '../probe.ts';
import { tradeAsset } from '../market/assets.ts';
import { boundIn, FAR, refusesField, searchRateBound } from './rate-bound.ts';

// Bounds the spec does not give (profile `bounds`): the highest rate an order may ask, and the
// order book's maximum `depth`. Each is stated in the exported document only when a refusal
// was seen here; otherwise the detected profile says null (no bound), since a bound the
// target does not enforce fails it under Schemathesis' negative tests (issue 33).
//
// Both start from a far value: taken means no bound. Refused naming the field, the bound is
// read from the message when it names one and checked at its edge; else it is searched for.

export { FAR, boundIn } from './rate-bound.ts';

export const boundsDetector: Detector = {
  name: 'bounds the spec does not give',
  options: ['bounds.rateBelow', 'bounds.orderbookMaxDepth'],
  async run(p) {
    // Usually already searched by the orders detector (its resting lends need the bound).
    await searchRateBound(p);
    await depthBound(p);
  },
};

async function depthBound(p: Probe): Promise<void> {
  const asset = tradeAsset(p);
  const at = (depth: number) => p.call('orderbook.get', { params: { asset }, query: { depth } });
  const far = await at(FAR);
  if (ok(far)) return p.set('bounds.orderbookMaxDepth', null, 'high', [far], `depth ${FAR} was answered`);
  if (!refusesField(far, 'depth')) return p.miss('bounds.orderbookMaxDepth', `depth ${FAR} answered ${far.status} ${errorText(far).slice(0, 200)}`);
  // The spec's default depth (10) is taken by any target; the maximum lies in [10, FAR).
  let lo = 10;
  let hi = FAR;
  const named = boundIn(far, lo - 1, FAR);
  const evidence = [far];
  if (named !== undefined && Number.isInteger(named)) {
    const edge = await at(named);
    const past = await at(named + 1);
    evidence.push(edge, past);
    if (ok(edge) && refusesField(past, 'depth')) return p.set('bounds.orderbookMaxDepth', named, 'high', evidence, `depth ${named} answered, ${named + 1} refused naming depth (${named} named by the refusal of ${FAR})`);
    if (ok(edge)) lo = named + (ok(past) ? 1 : 0);
    else hi = named;
  }
  // Binary search: lo answered (or the spec's default), hi refused.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const r = await at(mid);
    if (ok(r)) lo = mid;
    else if (refusesField(r, 'depth')) hi = mid;
    else return p.miss('bounds.orderbookMaxDepth', `depth ${mid} answered ${r.status}`);
  }
  p.set('bounds.orderbookMaxDepth', lo, 'high', evidence, `searched: depth ${lo} answered, ${hi} refused naming depth`);
}
