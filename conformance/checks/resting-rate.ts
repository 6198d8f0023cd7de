import { publishedRates, restingRate, type RestingRate } from '../../contract/resting-rate.ts';
import { CheckSkip, type CheckContext } from '../check.ts';

// The rate of the lends a check wants pending (issue 47): from the profile's rate bound and the
// market's published rates (contract/resting-rate.ts), read once a run. Never a fixed 0.5, which
// a correct target with a bound of 0.5 refuses.

const KEY = 'restingRate';

/** The run's resting rate: one GET /markets (public), then cached for every check. */
export function restingRateOf(ctx: CheckContext): Promise<RestingRate> {
  let v = ctx.shared.get(KEY) as Promise<RestingRate> | undefined;
  if (!v) {
    v = ctx
      .call('public.markets')
      .then((r) => (r.status >= 200 && r.status < 300 ? publishedRates(r.json) : []))
      .catch(() => [] as number[])
      .then((rates) => restingRate(ctx.profile.bounds.rateBelow, rates));
    ctx.shared.set(KEY, v);
  }
  return v.then((x) => {
    ctx.shared.set(`${KEY}:value`, x);
    return x;
  });
}

/**
 * The resting rate a check sends, or a skip saying why none is safe and which option supplies one:
 * a check that needs a pending lend cannot run without it.
 */
export async function restingRateFor(ctx: CheckContext): Promise<number> {
  const r = await restingRateOf(ctx);
  if (r.rate === undefined) throw new CheckSkip(`no lend rate is known that the target takes and no resting borrow crosses: ${r.why}; set the target's rate bound in the profile (bounds.rateBelow; lendcheck profile detect finds it)`);
  return r.rate;
}

/**
 * The resting rate for a body built synchronously: the run's once it has been read
 * (restingRateOf), else the one the profile's bound alone gives. Callers that can await use
 * restingRateFor; this keeps the body builders synchronous.
 */
export function restingRateNow(ctx: CheckContext): number {
  const r = (ctx.shared.get(`${KEY}:value`) as RestingRate | undefined) ?? restingRate(ctx.profile.bounds.rateBelow);
  if (r.rate === undefined) throw new CheckSkip(`no lend rate is known that the target takes and no resting borrow crosses: ${r.why}; set the target's rate bound in the profile (bounds.rateBelow)`);
  return r.rate;
}
