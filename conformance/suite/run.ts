import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfile } from '../../contract/index.ts';
import { runOptionsFor, startEmbedded } from '../embedded.ts';
import { replayMeta, writeReports } from '../report.ts';
import { colorEnabled, colorEnv } from '../../reports/output/color.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';
import { assertReachable, assertSafe, resolveTarget, targetEnv, type TargetOptions } from '../target.ts';
import { importPeer } from '../../kernel/optional-peer.ts';

// runConformance: the suite through Vitest's Node API (what `lendcheck conformance` and
// the gate call). Target options travel to the test worker as LENDCHECK_* variables; the
// worker writes its result to a temp file that is read back here.

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
  const target = resolveTarget({ ...opts, keyTiers: tiersOf(opts) });
  assertSafe(target);
  // A target that does not answer has nothing to check: stop at once, naming it, before any check runs.
  if (target.baseUrl) await assertReachable(target.baseUrl.replace(/\/+$/, ''));
  if (opts.inProcess) return runInProcess(target);

  const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-conformance-'));
  const resultFile = join(tmp, 'result.json');
  // Vitest's reporter colours whatever it writes unless told: the decision is made here (a TTY, NO_COLOR, FORCE_COLOR).
  const env: Record<string, string | undefined> = { ...targetEnv(target), LENDCHECK_RESULT_FILE: resultFile, ...colorEnv(colorEnabled(process.stdout)) };
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
    const vitest = await startVitest('test', [], {
      config: SUITE_CONFIG,
      watch: false,
      // onInit hands the instance to cancelConformance while the run lasts.
      reporters: [...(reporter === 'none' ? [] : [reporter]), { onInit: (v) => void (running = v) }],
      passWithNoTests: false,
    });
    running = undefined;
    await vitest.close();
    let raw: string;
    try {
      raw = readFileSync(resultFile, 'utf8');
    } catch {
      throw new Error('the conformance suite did not finish (no result was written); see the Vitest output above');
    }
    return JSON.parse(raw) as ConformanceResult;
  } finally {
    running = undefined;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function runInProcess(target: TargetOptions): Promise<ConformanceResult> {
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
