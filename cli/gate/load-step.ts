import { join } from 'node:path';
import type { PartResult, CheckResult } from '../../contract/results.ts';
import type { GateStep, StepContext } from './steps.ts';
import { importPart } from './import-part.ts';
import type { TierName } from './target.ts';

// The gate's load step: one smoke rate-limit run per tier, then the matching smoke, each
// a runLoad() call (cli/load/run.ts), merged into one load part for the report.

interface RunLoadOptions {
  scenario: 'rate-limit' | 'matching';
  tier?: string;
  baseUrl?: string;
  apiKey?: string;
  smoke?: boolean;
  reportDir?: string;
  profile?: StepContext['profile'];
  allowProduction?: boolean;
}
type RunLoad = (o: RunLoadOptions) => Promise<PartResult>;

export const LOAD_TIERS: TierName[] = ['starter', 'growth', 'scale'];
export const LOAD_MODULES = ['cli/load/run.ts'];

/** Several load runs as one part: failed when any failed, skipped only when all were. */
export function mergeLoadParts(runs: PartResult[], startedAt: string, durationMs: number, target: string, profile: string): PartResult {
  const prefix = (p: PartResult, c: CheckResult): CheckResult => ({ ...c, id: `${p.name}: ${c.id}`, title: `${p.name}: ${c.title}` });
  const status = runs.some((r) => r.status === 'failed') ? 'failed' : runs.every((r) => r.status === 'skipped') ? 'skipped' : 'passed';
  const skipped = runs.filter((r) => r.status === 'skipped' && r.skipReason);
  const figures: PartResult['figures'] = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.figures)) figures[`${r.name}: ${k}`] = v;
  return {
    part: 'load',
    name: 'smoke rate limit per tier + matching smoke',
    status,
    ...(skipped.length ? { skipReason: skipped.map((r) => `${r.name}: ${r.skipReason}`).join('; ') } : {}),
    target,
    profile,
    startedAt,
    durationMs,
    checks: runs.flatMap((r) => r.checks.map((c) => prefix(r, c))),
    series: runs.flatMap((r) => r.series ?? []),
    figures,
  };
}

export const loadStep: GateStep = {
  name: 'load',
  part: 'load',
  title: 'smoke rate limit per tier + matching smoke',
  needs: ['tier-keys'],
  async run(ctx) {
    const runLoad = await importPart<RunLoad>(LOAD_MODULES, 'runLoad');
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const t = ctx.target;
    const runs: PartResult[] = [];
    const common = { baseUrl: t.baseUrl, smoke: true, profile: ctx.profile };
    // One run that cannot start (k6 missing, a scenario absent) must not hide the others.
    const attempt = async (name: string, o: RunLoadOptions) => {
      ctx.log(name);
      const s = new Date().toISOString();
      const t1 = performance.now();
      try {
        runs.push(await runLoad(o));
      } catch (e) {
        const message = `${name} did not run: ${(e as Error).message.split('\n')[0]}`;
        runs.push({ part: 'load', name, status: 'failed', startedAt: s, durationMs: Math.round(performance.now() - t1), figures: {}, checks: [{ id: 'ran', title: 'ran to completion', requirements: [], status: 'failed', durationMs: 0, message, notes: [] }] });
      }
    };
    for (const tier of LOAD_TIERS) {
      await attempt(`rate-limit (${tier}) smoke`, { ...common, scenario: 'rate-limit', tier, apiKey: t.tierKeys[tier], reportDir: join(ctx.runDir, 'load', `rate-limit-${tier}`) });
    }
    // The matching smoke places orders: it uses the highest tier so that its own rate
    // does not trip the limiter it is not measuring.
    await attempt('matching (scale) smoke', { ...common, scenario: 'matching', tier: 'scale', apiKey: t.tierKeys.scale, reportDir: join(ctx.runDir, 'load', 'matching') });
    return mergeLoadParts(runs, startedAt, Math.round(performance.now() - t0), t.label, ctx.profile.name);
  },
};
