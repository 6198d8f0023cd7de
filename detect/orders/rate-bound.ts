import { publishedRates, RESTING_LADDER, restingRate } from '../../contract/resting-rate.ts';
import type { Reply } from '../../conformance/http.ts';
import { tradeAsset } from '../market/assets.ts';
import { errorText, ok, OutOfBudget, type Probe } from '../probe.ts';
import { probeAmount } from './probe-amount.ts';

// The highest rate an order may ask (profile bounds.rateBelow; the spec says only that rates are
// fractions). Searched before the orders detector places its resting lends, since their rate
// comes from it (probeRate): a target refusing rates from 0.5 up refused every lend at a fixed
// 0.5, and detection then stopped knowing nothing (issue 47).
//
// 1 first (the usual bound of a fraction), then a far value: both taken means no bound. Refused
// at 1, the bound is read from the message when it names one and checked at its edge; else it
// is searched for on the ladder of round rates down to 0.05, then narrowed by a few halvings.

/** Far past any sensible bound. */
export const FAR = 1_000_000;
/** Lowest rate the search tries: a bound below it is left unstated. */
export const SEARCH_FLOOR = 0.05;
const HALVINGS = 3;

/** A number the error message names, strictly between lo and hi, or undefined. */
export function boundIn(r: Reply, lo: number, hi: number): number | undefined {
  const nums = (errorText(r).match(/\d+(?:\.\d+)?/g) ?? []).map(Number).filter((n) => n > lo && n < hi);
  return nums[0];
}

export const refusesField = (r: Reply, field: string) => !ok(r) && r.status >= 400 && r.status < 500 && new RegExp(`\\b${field}\\b`, 'i').test(errorText(r));

/**
 * A lend asking the rate: taken (and cancelled at once: nobody takes a loan that dear) or refused.
 * A refusal not naming `rate` (funds, amounts) tells nothing, so detection stops there.
 */
async function tryRate(p: Probe, rate: number): Promise<{ taken: boolean; reply: Reply }> {
  // A user of its own: its lends (cancelled ones still listed) must not join the orders
  // detector's three, whose list is read for pagination.order and lastPageCursor.
  const r = await p.call('lend.create', { body: { userId: p.user('rate-bound'), asset: tradeAsset(p), amount: probeAmount(p), rate } });
  if (ok(r)) {
    const id = (r.json as { positionId?: unknown } | undefined)?.positionId;
    if (typeof id === 'string') await p.call('position.cancel', { params: { positionId: id } });
    return { taken: true, reply: r };
  }
  if (!refusesField(r, 'rate')) throw new Error(`a lend at rate ${rate} answered ${r.status} ${errorText(r).slice(0, 200)}`);
  return { taken: false, reply: r };
}

/** The rate a detector's lend that must stay pending asks: below the bound found, above the market's rates. */
export function probeRate(p: Probe): number {
  const b = p.found.get('bounds.rateBelow')?.value;
  const bound = typeof b === 'number' ? b : null;
  return restingRate(bound, publishedRates({ markets: p.fact<unknown[]>('markets') ?? [] })).rate ?? restingRate(bound).rate ?? RESTING_LADDER.at(-1)!;
}

/** Searches bounds.rateBelow once per detection (later calls return at once). */
export async function rateBound(p: Probe): Promise<void> {
  if (p.fact('rateBoundSearched')) return;
  p.facts.set('rateBoundSearched', true);
  const one = await tryRate(p, 1);
  if (one.taken) {
    const far = await tryRate(p, FAR);
    if (far.taken) return p.set('bounds.rateBelow', null, 'high', [one.reply, far.reply], `lends at rates 1 and ${FAR} were taken`);
    // Refused somewhere above 1: below the figure the message names if that one is refused too, else below FAR (a refusal seen).
    const named = boundIn(far.reply, 1, FAR);
    if (named !== undefined) {
      const at = await tryRate(p, named);
      if (!at.taken) return p.set('bounds.rateBelow', named, 'high', [one.reply, far.reply, at.reply], `rate 1 taken, ${named} (named by the refusal of ${FAR}) refused`);
    }
    return p.set('bounds.rateBelow', FAR, 'medium', [one.reply, far.reply], `rate 1 taken, ${FAR} refused naming rate; the bound between them was not read, so only the refusal seen is stated`);
  }
  await below(p, one.reply);
}

/** Rate 1 was refused naming rate: the bound is at most 1. */
async function below(p: Probe, refusal: Reply): Promise<void> {
  // The figure the refusal names, 1 itself included ("must be below 1"): refused at it, and the rate lendcheck rests at below it taken.
  const named = boundIn(refusal, 0, 1.000001);
  if (named !== undefined) {
    const under = restingRate(named).rate;
    const at = named === 1 ? { taken: false, reply: refusal } : await tryRate(p, named);
    const ok2 = under === undefined ? undefined : await tryRate(p, under);
    if (!at.taken && ok2?.taken) return p.set('bounds.rateBelow', named, 'high', named === 1 ? [refusal, ok2.reply] : [refusal, at.reply, ok2.reply], `rate ${named} (named by the refusal of 1) refused, ${under} taken`);
  }
  // The ladder of round rates from 0.5 down to the floor: the first taken one, then the ladder between it and the last refused.
  const ladder = RESTING_LADDER.filter((r) => r >= SEARCH_FLOOR);
  let hi = 1;
  let lo: number | undefined;
  const evidence = [refusal];
  for (const r of [0.5, 0.25, 0.1, SEARCH_FLOOR]) {
    const t = await tryRate(p, r);
    evidence.push(t.reply);
    if (t.taken) {
      lo = r;
      break;
    }
    hi = r;
  }
  if (lo === undefined) return p.miss('bounds.rateBelow', `lends at rates from 1 down to ${SEARCH_FLOOR} were all refused naming rate: the bound lies lower; set it in the profile (bounds.rateBelow)`);
  await narrow(p, lo, hi, ladder, evidence);
}

/** Between a taken rate and a refused one: the ladder's rates, then a few halvings. */
async function narrow(p: Probe, taken: number, refused: number, ladder: number[], evidence: Reply[]): Promise<void> {
  let [lo, hi] = [taken, refused];
  for (let between = ladder.filter((r) => r > lo && r < hi); between.length; between = ladder.filter((r) => r > lo && r < hi)) {
    const mid: number = between[Math.floor(between.length / 2)]!;
    if ((await tryRate(p, mid)).taken) lo = mid;
    else hi = mid;
  }
  // A few halvings between two adjacent ladder rates: the bound stated is a refused rate, and the
  // rate lendcheck rests at (the ladder's below it) was taken.
  for (let i = 0; i < HALVINGS; i++) {
    const mid: number = Math.round(((lo + hi) / 2) * 1e4) / 1e4;
    if (mid <= lo || mid >= hi) break;
    if ((await tryRate(p, mid)).taken) lo = mid;
    else hi = mid;
  }
  p.set('bounds.rateBelow', hi, 'medium', evidence, `rate ${lo} taken, ${hi} refused naming rate: the bound lies between them, and ${hi} is stated`);
}

/**
 * rateBound for a detector that goes on either way: a lend refused for another reason (funds,
 * amounts) leaves the bound unstated, saying why; the budget running out still stops detection.
 */
export async function searchRateBound(p: Probe): Promise<void> {
  try {
    await rateBound(p);
  } catch (e) {
    if (e instanceof OutOfBudget) throw e;
    p.miss('bounds.rateBelow', `the rate search stopped: ${(e as Error).message}`);
  }
}
