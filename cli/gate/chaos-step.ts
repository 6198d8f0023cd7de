import { runChaosSchedule, type ScheduleOptions } from '../../chaos/schedule.ts';
import type { GateStep, StepContext } from './step-types.ts';

// The time-scaled retry schedule (chaos/schedule.ts). Against the gate's embedded sandbox
// at its default real-time clock, the schedule (26.6 business hours) gets its own
// embedded sandbox at the chaos part's fast clock instead, so the other steps keep a
// real-time clock; with --time-scale, or against another target, it runs on the target.

/** What the chaos part is given: typed against the part, so tsc catches a change on either side. */
export function scheduleOptions(ctx: StepContext): ScheduleOptions {
  const t = ctx.target;
  const own = t.embedded && !t.timeScale;
  const log = (l: string) => ctx.log(l);
  // Plain literals, no spreads: tsc checks every property name against the part's type.
  return own ? { profile: ctx.profile, tolerance: t.chaosTolerance, log } : { baseUrl: t.baseUrl, apiKey: t.apiKey, timeScale: t.timeScale, tolerance: t.chaosTolerance, profile: ctx.profile, log };
}

export const chaosStep: GateStep = {
  name: 'chaos',
  part: 'chaos',
  title: 'time-scaled retry schedule',
  needs: ['api-key', 'sandbox-controls'],
  // On its own sandbox it shares no key, bucket or clock with the other steps, and it is
  // mostly a wait for the scaled schedule: the gate runs the others meanwhile.
  alongside: (ctx) => scheduleOptions(ctx).baseUrl === undefined,
  async run(ctx) {
    const opts = scheduleOptions(ctx);
    const own = opts.baseUrl === undefined;
    if (own) ctx.log('starting a sandbox with a fast test clock for the schedule');
    const r = await runChaosSchedule(opts);
    return own ? { ...r, target: r.target ?? 'embedded sandbox (fast test clock)' } : r;
  },
};
