import { limitProbePath } from '../../contract/index.ts';
import { CheckSkip, type CheckContext } from '../check.ts';

// The limiter's checks read one key's bucket through a keyed read: the profile's rates path, or
// where that is unknown (ratesPath null) the authenticated order book (contract limitProbePath),
// whose template the public order book shares. A path a target serves without a key may draw
// from the public bucket, and judging that against the tier figures fails a correct service
// (issue 47, cause 1): one request without a key tells, once per run.

/** The limiter's path once it is seen refused without a key; else a skip naming the option that supplies one. */
export async function keyedLimitPath(ctx: CheckContext): Promise<string> {
  const path = limitProbePath(ctx.profile);
  const k = `keyedLimitPath:${path}`;
  let why = ctx.shared.get(k) as string | null | undefined;
  if (why === undefined) {
    const r = await ctx.pub('GET', path);
    const which = ctx.profile.ratesPath === null ? `the profile does not know the get-rates path (ratesPath null), and GET ${path}, the authenticated order book that stands in for it,` : `the profile's ratesPath GET ${path}`;
    why = r.status === 401 || r.status === 403 ? null : `${which} answered ${r.status} without a key, so it may draw from the public bucket, not the key's; give the authenticated get-rates path as ratesPath in the profile file to measure the key's limiter`;
    ctx.shared.set(k, why);
  }
  if (why) throw new CheckSkip(why, 'run-lacks');
  return path;
}
