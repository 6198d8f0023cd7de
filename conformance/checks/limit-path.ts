import { limitProbe, resolveCall } from '../../contract/index.ts';
import { keyedBucketApart, refusedWithoutKey } from '../../contract/limiter-bucket.ts';
import type { CallOptions } from '../call.ts';
import { CheckSkip, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// The limiter's checks read one key's bucket through a keyed read: the profile's rates path, or
// where that is unknown (ratesPath null) the authenticated order book (contract limitProbe),
// whose path the public order book shares. Measuring the public bucket against the tier figures
// fails a correct service (issue 47, cause 1): answers tell which bucket a keyed request draws
// from (contract limiter-bucket.ts), once per run; where they cannot, the checks skip.

/** The limiter's keyed read: its path (for messages) and a call of it with the key and options given. */
export interface LimitRead {
  /** `GET /rates`, or the order book's. */
  what: string;
  read(o?: CallOptions): Promise<Reply>;
}

/** The limiter's read once it is known to draw from the key's bucket; else a skip naming the option that supplies one. */
export async function keyedLimitRead(ctx: CheckContext): Promise<LimitRead> {
  const probe = limitProbe(ctx.profile);
  const path = resolveCall(ctx.profile, probe.id, probe.params).path;
  const read = (o: CallOptions = {}) => (probe.id === 'rates.get' ? ctx.call('rates.get', o) : ctx.call('orderbook.get', { params: probe.params, ...o }));
  const k = `keyedLimitPath:${path}`;
  let why = ctx.shared.get(k) as string | null | undefined;
  if (why === undefined) {
    // Without a key the path is no call of the keyed endpoint: a target may answer it as the
    // public order book (the same path), so those answers are asked on the public base, unjudged.
    const bare = await ctx.pub('GET', path);
    const apart = refusedWithoutKey(bare) ? undefined : keyedBucketApart(bare, await read(), await ctx.pub('GET', path));
    const which = ctx.profile.ratesPath === null ? `the profile does not know the get-rates path (ratesPath null), and for GET ${path}, the authenticated order book that stands in for it,` : `for the profile's ratesPath GET ${path}`;
    why = apart === undefined ? null : `${which} answered ${bare.status} without a key, and ${apart}, so the key's bucket is not known to be measured through it; give the authenticated get-rates path as ratesPath in the profile file`;
    ctx.shared.set(k, why);
  }
  if (why) throw new CheckSkip(why, 'run-lacks');
  return { what: `GET ${path}`, read };
}
