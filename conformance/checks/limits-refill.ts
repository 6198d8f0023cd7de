import { setTimeout as sleep } from 'node:timers/promises';
import { TIERS, type Profile, type TierName } from '../../contract/index.ts';
import { readLimits, shapeFromLimit, tierShape, type BucketShape } from '../budget/bucket.ts';
import { CheckSkip, fail, pass, type Check, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import { keyedLimitRead } from './limit-path.ts';

// Part 8: a limiter does what its own headers and tier say. A target whose X-RateLimit-Limit
// says Growth (300 a minute) but whose bucket refills at 5 a minute makes a paced run wait on
// every request and, at worst, pass with its checks skipped: the budget trusts the stated rate.
// This check measures the refill early, on one key, in a few seconds, and fails naming the
// stated and the measured figures when they are far apart. A run it fails stops there: pacing
// on a rate the target does not keep would only hide the finding for minutes.
//
// How: lower the bucket (quick unpaced requests) until the stated refill over a window can show
// below the stated capacity, read Remaining, wait the window, read it again. The refill is the
// rise of Remaining plus the one request that read it. Remaining is a whole number and the
// window is measured from after the first reading to before the second, so the stated figure
// is a lower bound of what a correct bucket adds.

/** The longest window over which the refill is measured (Starter: 8 tokens). */
export const REFILL_WINDOW_MS = 8_000;
/** The shortest: a faster tier is measured over the window that states about REFILL_TOKENS. */
const MIN_WINDOW_MS = 2_000;
/**
 * Tokens a window's stated refill should hold: enough that a refill under a quarter of it is
 * MIN_SHORTFALL short. Growth measured over 8 s (40 tokens) lowered the bucket to 458 first,
 * 20 to 45 requests of a run that could not spare them, and waited 6 s more (issue 48).
 */
const REFILL_TOKENS = 10;

/** The window for a bucket that refills `perSecond`: about REFILL_TOKENS of stated refill, within 2 to 8 s. */
export const refillWindowMs = (perSecond: number): number => Math.min(REFILL_WINDOW_MS, Math.max(MIN_WINDOW_MS, Math.ceil((REFILL_TOKENS / perSecond) * 1000)));
/** A Reset this close (s) is waited out before a slow refill fails: a window limiter refills all at once, at its Reset. */
const RESET_WAIT_S = 65;
/** "Far below": the measured refill is under this share of the stated one. */
const FAR_BELOW = 0.25;
/** And short of it by at least this many tokens (Remaining rounds; a request may land late). */
const MIN_SHORTFALL = 4;

function remainingOf(r: Reply): number | undefined {
  const v = r.headers['x-ratelimit-remaining'];
  return v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
}

/** The bucket the key's tier, or its X-RateLimit-Limit under the profile, states. */
function statedShape(profile: Profile, limit: number | undefined, tier: string | undefined): BucketShape | undefined {
  if (tier && tier in TIERS) return tierShape(tier as TierName, `the ${tier} tier of the key`);
  return limit === undefined ? undefined : shapeFromLimit(profile, limit);
}

interface Window {
  r1: number;
  r2: number;
  seconds: number;
  gained: number;
  stated: number;
  resetS?: number;
  /** performance.now() when the reading that gave resetS arrived. */
  t1: number;
  last: Reply;
}

async function measure(ctx: CheckContext, get: () => Promise<Reply>, shape: BucketShape, first: Reply): Promise<Window> {
  const windowMs = refillWindowMs(shape.perSecond);
  const statedGain = (shape.perSecond * windowMs) / 1000;
  // Lower the bucket until the stated refill fits below the capacity, or Remaining says 0.
  let last = first;
  let r1 = remainingOf(first) ?? 0;
  const floor = Math.max(0, shape.capacity - Math.ceil(statedGain) - 2);
  for (let spent = 0; r1 > floor && last.status !== 429; spent++) {
    const r = await get();
    const rem = remainingOf(r);
    if (r.status === 429 && r1 > 1) {
      fail('no 429 while X-RateLimit-Remaining says there is room (a burst far below the one the headers state)', `room for ${r1} more requests, as the previous answer said`, `429 after ${spent + 1} quick requests`, r.exchange);
    }
    last = r;
    r1 = rem ?? r1;
  }
  const resetS = readLimits(ctx.profile, last.headers, last.status, Date.now()).resetSeconds;
  const t1 = performance.now();
  await sleep(windowMs);
  const t2 = performance.now();
  const second = await get();
  const r2 = second.status === 429 ? 0 : (remainingOf(second) ?? 0);
  const seconds = (t2 - t1) / 1000;
  return { r1, r2, seconds, gained: r2 + (second.status === 429 ? 0 : 1) - r1, stated: Math.min(shape.perSecond * seconds, shape.capacity - r1), resetS, t1, last: second };
}

const perMinute = (tokens: number, seconds: number): string => `${((tokens * 60) / seconds).toFixed(1)}/min`;

export function refillCheck(profile: Profile, tiers: { key?: string; burstKey?: string } = {}): Check {
  return {
    id: 'limits.refill',
    title: 'the key\'s bucket refills at the rate its X-RateLimit-Limit and tier state, and holds what Reset promises when Reset has passed',
    requirements: ['LIMIT-headers', 'LIMIT-tier-starter', 'LIMIT-tier-growth', 'LIMIT-tier-scale'],
    needs: ['burst'],
    phase: 'early',
    async run(ctx) {
      // The burst key exists to be spent; else the main key lends a window's worth of its room.
      const key = ctx.burstKey ?? ctx.key;
      const tier = ctx.burstKey ? tiers.burstKey : tiers.key;
      const probe = await keyedLimitRead(ctx);
      const get = () => probe.read({ key, retry429: false, paced: false });
      const first = await get();
      const limit = readLimits(profile, first.headers, first.status).limit;
      const shape = statedShape(profile, limit, tier);
      if (!shape) throw new CheckSkip(`X-RateLimit-Limit ${limit ?? '(absent)'} names no tier under the profile (limits.limitHeader=${profile.limits.limitHeader}), so no refill rate is stated to hold the bucket to`);
      // What a stated rate means is the profile's (spec part 8: "meaning of burst: not shown").
      switch (profile.limits.burstMeaning) {
        case 'bucket-capacity':
          break;
      }
      const stated = `${Math.round(shape.perSecond * 60)}/min with a burst of ${shape.capacity} (${shape.source}${limit !== undefined ? `, X-RateLimit-Limit ${limit}` : ''})`;
      const far = (w: Window) => w.gained < w.stated * FAR_BELOW && w.stated - w.gained >= MIN_SHORTFALL;
      let w = await measure(ctx, get, shape, first);
      // A second window before failing: another client spending the same key meanwhile is not the limiter's fault.
      if (far(w)) w = await measure(ctx, get, shape, w.last);
      if (far(w) && w.resetS !== undefined && w.resetS <= RESET_WAIT_S) {
        // A bucket that refills at once when its Reset passes (a window) keeps its stated rate over the window: look then.
        await sleep(Math.max(0, w.t1 + w.resetS * 1000 + 1_000 - performance.now()));
        const after = await get();
        const r3 = remainingOf(after) ?? 0;
        const seconds = (performance.now() - w.t1) / 1000;
        if (after.status !== 429 && r3 + 1 - w.r1 >= Math.min(shape.perSecond * seconds, shape.capacity - w.r1) * FAR_BELOW) {
          ctx.note(`the bucket did not refill over ${w.seconds.toFixed(1)} s but did when its X-RateLimit-Reset (${w.resetS.toFixed(1)} s) passed: Remaining ${w.r1} → ${r3} (a window, not a continuous refill)`);
          return pass({ exchange: after.exchange });
        }
        fail('once X-RateLimit-Reset has passed the bucket has room again', `at least ${Math.round(Math.min(shape.perSecond * seconds, shape.capacity - w.r1) * FAR_BELOW)} requests of room back ${seconds.toFixed(1)} s after a Reset of ${w.resetS.toFixed(1)} s (stated ${stated})`, `X-RateLimit-Remaining ${w.r1} → ${r3}${after.status === 429 ? ' (429)' : ''}`, after.exchange);
      }
      if (far(w)) {
        ctx.stopRun?.(`the target's rate limiter refills far slower than its headers state (limits.refill failed: stated ${Math.round(shape.perSecond * 60)}/min, measured ${perMinute(w.gained, w.seconds)}); pacing on the stated rate would only wait`);
        fail(
          'the bucket refills at the stated rate (a refill far below it)',
          `stated ${stated}: at least ${w.stated.toFixed(1)} requests of room back over ${w.seconds.toFixed(1)} s`,
          `measured ${perMinute(w.gained, w.seconds)}: X-RateLimit-Remaining ${w.r1} → ${w.r2} over ${w.seconds.toFixed(1)} s (one request spent reading it), twice`,
          w.last.exchange,
        );
      }
      // Reset says when the bucket is full again; once it has passed, the bucket has room.
      if (w.resetS !== undefined && w.resetS + 1 <= w.seconds && w.r2 + 1 < shape.capacity * 0.5) {
        fail('once X-RateLimit-Reset has passed the bucket has room again', `about ${shape.capacity} requests of room ${w.seconds.toFixed(1)} s after a Reset of ${w.resetS.toFixed(1)} s (${profile.limits.resetUnit})`, `X-RateLimit-Remaining ${w.r2}`, w.last.exchange);
      }
      ctx.note(`refill measured ${perMinute(w.gained, w.seconds)} against a stated ${stated} (Remaining ${w.r1} → ${w.r2} over ${w.seconds.toFixed(1)} s)`);
      return pass({ exchange: w.last.exchange });
    },
  };
}
