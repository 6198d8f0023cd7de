import { defaultProfile, type Profile } from '../../../contract/index.ts';
import { serveWrapped } from '../../embedded.ts';
import { runChecks, type ConformanceResult } from '../../runner.ts';
import type { Mutant } from './mutant.ts';

// Serves the sandbox through one mutant over real HTTP and runs the suite against it,
// in-process, stopping at the first failed check: one kill is enough.

export interface MutantOutcome {
  id: string;
  killed: boolean;
  /** The check that failed, and its message. */
  by?: string;
  message?: string;
  checksRun: number;
  durationMs: number;
}

export async function runAgainst(wrap: Parameters<typeof serveWrapped>[0], opts: { profile?: Profile; strict?: boolean; priority?: string[]; stopOnFirstFailure?: boolean; only?: string[]; seed?: number; controls?: boolean } = {}): Promise<ConformanceResult> {
  const profile = opts.profile ?? defaultProfile;
  // The sandbox checks its own answers against the contract when asked to; a mutant breaks
  // answers after that step, so the check is off here to keep the run fast.
  // Withdrawals complete in 1 s, not the sandbox's default 10 s: the hooks scenario waits for
  // withdrawal.completed, and no check or mutant reads how long a withdrawal stays pending.
  const t = await serveWrapped(wrap, { profile, validateResponses: false, controls: opts.controls, withdrawalDelaySeconds: 1 });
  try {
    return await runChecks({
      baseUrl: t.url,
      apiKey: t.apiKey,
      apiKey2: t.apiKey2,
      burstKey: t.burstKey,
      keyTiers: t.keyTiers,
      profile,
      strict: opts.strict,
      priority: opts.priority,
      stopOnFirstFailure: opts.stopOnFirstFailure,
      only: opts.only,
      seed: opts.seed ?? 20261122,
    });
  } finally {
    await t.close();
  }
}

export async function killMutant(m: Mutant, profile: Profile = defaultProfile, controls = true): Promise<MutantOutcome> {
  const t0 = performance.now();
  const r = await runAgainst(m.install({}), { profile, strict: m.strictOnly, priority: m.killers, stopOnFirstFailure: true, controls });
  const failed = r.checks.find((c) => c.status === 'failed');
  return { id: m.id, killed: !!failed, by: failed?.id, message: failed?.message, checksRun: r.checks.length, durationMs: Math.round(performance.now() - t0) };
}

/** Runs mutants a few at a time (each on its own sandbox and port), those whose killer waits
 *  something out first; outcomes come back in the catalogue's order. */
export async function killAll(mutants: Mutant[], concurrency = 3, profile: Profile = defaultProfile, controls = true): Promise<MutantOutcome[]> {
  const out: MutantOutcome[] = new Array(mutants.length);
  const order = [...mutants.keys()].sort((a, b) => Number(!mutants[a].waits) - Number(!mutants[b].waits));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, mutants.length) }, async () => {
      while (next < order.length) {
        const i = order[next++];
        out[i] = await killMutant(mutants[i], profile, controls);
      }
    }),
  );
  return out;
}
