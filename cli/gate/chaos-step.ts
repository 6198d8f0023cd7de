import type { PartResult } from '../../contract/results.ts';
import { importPart } from './import-part.ts';
import type { GateStep, StepContext } from './steps.ts';

// The time-scaled retry schedule (chaos/schedule.ts). Against the gate's embedded sandbox
// at its default real-time clock, the schedule (26.6 business hours) gets its own
// embedded sandbox at the chaos part's fast clock instead, so the other steps keep a
// real-time clock; with --time-scale, or against another target, it runs on the target.

type RunChaosSchedule = (o: {
  baseUrl?: string;
  apiKey?: string;
  timeScale?: number;
  profile?: StepContext['profile'];
  log?: (line: string) => void;
}) => Promise<PartResult>;

export const chaosStep: GateStep = {
  name: 'chaos',
  part: 'chaos',
  title: 'time-scaled retry schedule',
  needs: ['api-key', 'sandbox-controls'],
  async run(ctx) {
    const run = await importPart<RunChaosSchedule>(['chaos/schedule.ts'], 'runChaosSchedule');
    const t = ctx.target;
    const own = t.embedded && !t.timeScale;
    if (own) ctx.log('starting a sandbox with a fast test clock for the schedule');
    const r = await run({
      ...(own ? {} : { baseUrl: t.baseUrl, apiKey: t.apiKey, timeScale: t.timeScale }),
      profile: ctx.profile,
      log: ctx.log,
    });
    return own ? { ...r, target: r.target ?? 'embedded sandbox (fast test clock)' } : r;
  },
};
