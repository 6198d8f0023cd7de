import { errorText, ok, type Detector, type Probe } from '../probe.ts';
import { tradeAsset } from '../market/assets.ts';
import type { Reply } from '../../conformance/http.ts';
import { probeAmount } from './probe-amount.ts';

// Bounds the spec does not give (profile `bounds`): the highest rate an order may ask, and the
// order book's maximum `depth`. Each is stated in the exported document only when a refusal
// was seen here; otherwise the detected profile says null (no bound), since a bound the
// target does not enforce fails it under Schemathesis' negative tests (issue 33).
//
// Both start from a far value: taken means no bound. Refused naming the field, the bound is
// read from the message when it names one and checked at its edge; else it is searched for.

/** Far past any sensible bound of either figure. */
export const FAR = 1_000_000;

/** A number the error message names, strictly between lo and hi, or undefined. */
export function boundIn(r: Reply, lo: number, hi: number): number | undefined {
  const nums = (errorText(r).match(/\d+(?:\.\d+)?/g) ?? []).map(Number).filter((n) => n > lo && n < hi);
  return nums[0];
}

const refusesField = (r: Reply, field: string) => !ok(r) && r.status >= 400 && r.status < 500 && new RegExp(`\\b${field}\\b`, 'i').test(errorText(r));

export const boundsDetector: Detector = {
  name: 'bounds the spec does not give',
  options: ['bounds.rateBelow', 'bounds.orderbookMaxDepth'],
  async run(p) {
    await rateBound(p);
    await depthBound(p);
  },
};

/**
 * A lend asking the rate: taken (and cancelled at once: nobody takes a loan that dear) or refused.
 * A refusal not naming `rate` (funds, amounts) tells nothing, so detection stops there.
 */
async function tryRate(p: Probe, rate: number): Promise<{ taken: boolean; reply: Reply }> {
  const r = await p.call('POST', '/lend', { body: { userId: p.user('orders'), asset: tradeAsset(p), amount: probeAmount(p), rate } });
  if (ok(r)) {
    const id = (r.json as { positionId?: unknown } | undefined)?.positionId;
    if (typeof id === 'string') await p.call('POST', `/positions/${encodeURIComponent(id)}/cancel`);
    return { taken: true, reply: r };
  }
  if (!refusesField(r, 'rate')) throw new Error(`a lend at rate ${rate} answered ${r.status} ${errorText(r).slice(0, 200)}`);
  return { taken: false, reply: r };
}

async function rateBound(p: Probe): Promise<void> {
  if (p.fact('lendRefused')) return p.miss('bounds.rateBelow', 'lends were refused (orders detector), so no rate could be tried');
  // 1 (100 %) first: the usual bound of a fraction.
  const one = await tryRate(p, 1);
  if (!one.taken) return p.set('bounds.rateBelow', 1, 'high', [one.reply], 'a lend at rate 1 was refused naming rate');
  const far = await tryRate(p, FAR);
  if (far.taken) return p.set('bounds.rateBelow', null, 'high', [one.reply, far.reply], `lends at rates 1 and ${FAR} were taken`);
  // Refused somewhere above 1: below the figure the message names if that one is refused too, else below FAR (a refusal seen).
  const named = boundIn(far.reply, 1, FAR);
  if (named !== undefined) {
    const at = await tryRate(p, named);
    if (!at.taken) return p.set('bounds.rateBelow', named, 'high', [one.reply, far.reply, at.reply], `rate 1 taken, ${named} (named by the refusal of ${FAR}) refused`);
  }
  p.set('bounds.rateBelow', FAR, 'medium', [one.reply, far.reply], `rate 1 taken, ${FAR} refused naming rate; the bound between them was not read, so only the refusal seen is stated`);
}

async function depthBound(p: Probe): Promise<void> {
  const path = `/markets/${encodeURIComponent(tradeAsset(p))}/orderbook`;
  const at = (depth: number) => p.call('GET', path, { query: { depth } });
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
