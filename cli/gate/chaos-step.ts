import { runChaosSchedule, type ScheduleOptions } from '../../chaos/schedule/run.ts';
import { DEFAULT_WATCHED_RETRIES, runRetryWatch, type RetryWatchOptions } from '../../chaos/retry-watch/run.ts';
import type { GateStep, StepContext } from './step-types.ts';

// The retry schedule (chaos/schedule/run.ts). Against the gate's embedded sandbox at its default
// real-time clock, the schedule (26.6 business hours) gets its own embedded sandbox at the
// chaos part's fast clock instead, so the other steps keep a real-time clock; with --time-scale,
// or against a target with sandbox controls, it runs on the target. Against a target with
// neither (every real partner sandbox) the whole schedule cannot be seen in a CI run, so the
// retry watch (chaos/retry-watch/) observes retries 1 and 2 at real time (about 6 minutes,
// alongside the other steps), unless --no-retry-watch leaves it out.

/** Neither a test clock nor a time scale: only real time, where the watch is what can run. */
export const atRealTime = (ctx: StepContext): boolean => !ctx.target.embedded && !ctx.target.hasControls && !ctx.target.timeScale;

/** What the chaos part is given: typed against the part, so tsc catches a change on either side. */
export function scheduleOptions(ctx: StepContext): ScheduleOptions {
  const t = ctx.target;
  const own = t.embedded && !t.timeScale;
  const log = (l: string) => ctx.log(l);
  // Plain literals, no spreads: tsc checks every property name against the part's type.
  return own ? { profile: ctx.profile, tolerance: t.chaosTolerance, log } : { baseUrl: t.baseUrl, apiKey: t.apiKey, timeScale: t.timeScale, tolerance: t.chaosTolerance, profile: ctx.profile, log };
}

export function watchOptions(ctx: StepContext): RetryWatchOptions {
  const t = ctx.target;
  return { baseUrl: t.baseUrl, apiKey: t.apiKey!, profile: ctx.profile, retries: t.retryWatch?.retries ?? DEFAULT_WATCHED_RETRIES, tolerance: t.chaosTolerance, log: (l: string) => ctx.log(l) };
}

export const chaosStep: GateStep = {
  name: 'chaos',
  part: 'chaos',
  title: 'webhook retry schedule (time-scaled, or retries 1-2 at real time)',
  needs: ['api-key'],
  // On its own sandbox it shares no key, bucket or clock with the other steps, and it is
  // mostly a wait for the scaled schedule; at real time it is a wait of minutes for two
  // retries and sends three requests: either way the gate runs the others meanwhile.
  alongside: (ctx) => scheduleOptions(ctx).baseUrl === undefined || (atRealTime(ctx) && ctx.target.retryWatch?.enabled !== false),
  async run(ctx) {
    if (atRealTime(ctx)) {
      if (ctx.target.retryWatch?.enabled === false) {
        return { part: 'chaos', name: 'webhook retries at real time', status: 'skipped', skipReason: 'left out by --no-retry-watch: the target has no test clock or time scale, so its retries are not checked in this run', startedAt: new Date().toISOString(), durationMs: 0, checks: [], figures: {} };
      }
      ctx.log('no test clock or time scale: watching retries 1 and 2 at real time');
      return runRetryWatch(watchOptions(ctx));
    }
    const opts = scheduleOptions(ctx);
    const own = opts.baseUrl === undefined;
    if (own) ctx.log('starting a sandbox with a fast test clock for the schedule');
    const r = await runChaosSchedule(opts);
    return own ? { ...r, target: r.target ?? 'embedded sandbox (fast test clock)' } : r;
  },
};
