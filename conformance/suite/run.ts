import { fileURLToPath } from 'node:url';
import { loadProfile } from '../../contract/index.ts';
import { runOptionsFor, startEmbedded } from '../embedded.ts';
import { replayMeta, writeReports } from '../report.ts';
import { colorEnabled, colorEnv } from '../../reports/output/color.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';
import { assertReachable, assertSafe, isResolved, resolveTarget, type ResolvedTarget, type TargetOptions } from '../target.ts';
import { resultOf, TARGET_KEY } from './channel.ts';
import { importPeer } from '../../kernel/optional-peer.ts';

// runConformance: the suite through Vitest's Node API (what `lendcheck conformance` and
// the gate call). The target is resolved once here (or before, by the command: a resolved
// target is taken as it is) and goes to the test worker as one typed object through Vitest's
// `provide`; the result comes back on the test file's meta (suite/channel.ts).

export interface ConformanceOptions extends TargetOptions {
  /** Vitest's console reporter; 'none' keeps the run quiet (the gate prints its own line). */
  reporter?: 'default' | 'verbose' | 'dot' | 'none';
  /** Skip Vitest and run the checks in this process (used by the bench and mutant tests). */
  inProcess?: boolean;
  /** Keys by tier (the gate passes its key list); used to learn the tiers of the keys given. */
  tierKeys?: Partial<Record<string, string>>;
}

function tiersOf(o: ConformanceOptions): TargetOptions['keyTiers'] {
  if (o.keyTiers || !o.tierKeys) return o.keyTiers;
  const tierOf = (k?: string) => (k ? Object.entries(o.tierKeys!).find(([, v]) => v === k)?.[0] : undefined);
  return { key: tierOf(o.apiKey), key2: tierOf(o.apiKey2), burstKey: tierOf(o.burstKey) };
}

/** The run's target, resolved once: what the command resolved already, else the options read with the environment here. */
function targetOf(opts: ConformanceOptions): ResolvedTarget {
  // The run's own choices stay in this process; only the target travels.
  const { reporter, inProcess, tierKeys, ...given } = opts;
  return isResolved(given) ? given : resolveTarget({ ...given, keyTiers: tiersOf(opts) });
}

// From the sources the suite is TypeScript; in the package (dist/) tsc compiled it to JS.
const SUITE_CONFIG = fileURLToPath(new URL(`./vitest.config.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

/** The Vitest of a conformance run in progress (one at a time per process), for cancelConformance. */
let running: { cancelCurrentRun(reason: 'keyboard-input'): Promise<void>; close(): Promise<void> } | undefined;

/**
 * Ctrl-C on the gate: stops the running suite as Vitest's own Ctrl-C does (the tests in flight
 * finish their cleanup, e.g. delete their webhook subscriptions) and closes its workers; at most
 * \`boundMs\`, after which the caller ends whatever is left.
 */
export async function cancelConformance(boundMs = 5000): Promise<void> {
  const v = running;
  if (!v) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((done) => (timer = setTimeout(done, boundMs)));
  await Promise.race([v.cancelCurrentRun('keyboard-input').then(() => v.close()), bound]).catch(() => {});
  clearTimeout(timer);
}

export async function runConformance(opts: ConformanceOptions = {}): Promise<ConformanceResult> {
  const target = targetOf(opts);
  assertSafe(target);
  // A target that does not answer has nothing to check: stop at once, naming it, before any check runs.
  if (target.baseUrl) await assertReachable(target.baseUrl.replace(/\/+$/, ''));
  if (opts.inProcess) return runInProcess(target);

  // Vitest's reporter colours whatever it writes unless told: the decision is made here (a TTY, NO_COLOR, FORCE_COLOR).
  // The only variables set for the run, and only for the reporter's sake: the target goes by `provide`.
  const env = colorEnv(colorEnabled(process.stdout));
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    // Vitest is an optional peer of the package (kernel/optional-peer.ts): missing, one line names it.
    const { startVitest } = await importPeer('vitest', 'the conformance suite', () => import('vitest/node'));
    const reporter = opts.reporter ?? 'default';
    let result: ConformanceResult | undefined;
    const vitest = await startVitest('test', [], {
      config: SUITE_CONFIG,
      watch: false,
      // The resolved target, one typed object (suite/channel.ts); the suite reads it with inject.
      provide: { [TARGET_KEY]: target },
      // onInit hands the instance to cancelConformance while the run lasts; onTestRunEnd reads the
      // result the suite left on its file's meta.
      reporters: [
        ...(reporter === 'none' ? [] : [reporter]),
        { onInit: (v) => void (running = v), onTestRunEnd: (modules) => void (result = resultOf(modules) ?? result) },
      ],
      passWithNoTests: false,
    });
    running = undefined;
    await vitest.close();
    if (!result) throw new Error('the conformance suite did not finish (no result came back); see the Vitest output above');
    return result;
  } finally {
    running = undefined;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

async function runInProcess(target: ResolvedTarget): Promise<ConformanceResult> {
  const profile = loadProfile(target.profileFile);
  const embedded = target.baseUrl ? undefined : await startEmbedded(profile);
  try {
    const result = await runChecks(runOptionsFor(target, profile, embedded));
    if (target.reportDir) writeReports(result, target.reportDir, [target.apiKey ?? '', target.apiKey2 ?? '', target.burstKey ?? ''], replayMeta(target, embedded));
    return result;
  } finally {
    await embedded?.close();
  }
}
