import { limitProbePath } from '../../contract/index.ts';
import { keyedBucketApart, refusedWithoutKey } from '../../contract/limiter-bucket.ts';
import { CheckSkip, type CheckContext } from '../check.ts';

// The limiter's checks read one key's bucket through a keyed read: the profile's rates path, or
// where that is unknown (ratesPath null) the authenticated order book (contract limitProbePath),
// whose path the public order book shares. Measuring the public bucket against the tier figures
// fails a correct service (issue 47, cause 1): answers tell which bucket a keyed request draws
// from (contract limiter-bucket.ts), once per run; where they cannot, the checks skip.

/** The limiter's path once it is known to draw from the key's bucket; else a skip naming the option that supplies one. */
export async function keyedLimitPath(ctx: CheckContext): Promise<string> {
  const path = limitProbePath(ctx.profile);
  const k = `keyedLimitPath:${path}`;
  let why = ctx.shared.get(k) as string | null | undefined;
  if (why === undefined) {
    const bare = await ctx.pub('GET', path);
    const apart = refusedWithoutKey(bare) ? undefined : keyedBucketApart(bare, await ctx.api('GET', path), await ctx.pub('GET', path));
    const which = ctx.profile.ratesPath === null ? `the profile does not know the get-rates path (ratesPath null), and for GET ${path}, the authenticated order book that stands in for it,` : `for the profile's ratesPath GET ${path}`;
    why = apart === undefined ? null : `${which} answered ${bare.status} without a key, and ${apart}, so the key's bucket is not known to be measured through it; give the authenticated get-rates path as ratesPath in the profile file`;
    ctx.shared.set(k, why);
  }
  if (why) throw new CheckSkip(why, 'run-lacks');
  return path;
}
