import { loadProfile } from '../../contract/index.ts';
import type { CheckResult } from '../../kernel/results.ts';
import { runConformance } from '../../conformance/suite/run.ts';
import type { FailedCheck, FailuresFile } from '../../reports/repro/failures-file.ts';
import { runContract } from '../gate/contract-step.ts';
import { embeddedTarget } from '../gate/embedded.ts';
import { externalTarget, type GateTarget } from '../gate/target.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { credentialChanges } from '../../reports/repro/fingerprint.ts';

// lendcheck replay: the failed checks of one run, run again exactly (the same ids, seed,
// profile and strictness) against the target, each answered "fixed" or "still failing".
// Conformance checks run in this process (no Vitest: one check needs no runner); contract
// checks through the contract step; the other parts' failures come from a whole step (a
// load series, a retry schedule), which replay says instead of pretending to rerun them.

// "fixed" and "still failing" are said only against the run's own target with its own keys
// (their fingerprints in failures.json); against anything else a check "passes now" or "fails
// now", and replay says what changed (reports/repro/fingerprint.ts).
export type ReplayVerdict = 'fixed' | 'still failing' | 'passes now' | 'fails now' | 'not replayed';

export interface ReplayOutcome {
  failure: FailedCheck;
  verdict: ReplayVerdict;
  /** Why, for "not replayed"; the new failure message for "still failing". */
  message?: string;
  /** The new result, when the check ran. */
  result?: CheckResult;
}

export interface ReplayOptions {
  baseUrl?: string;
  publicBaseUrl?: string;
  apiKey?: string;
  apiKey2?: string;
  burstKey?: string;
  /** Overrides the profile file the run recorded. */
  profileFile?: string;
  log?: (line: string) => void;
}

const STEP_OF: Record<string, string> = { load: 'load', chaos: 'chaos', certify: 'certify', regression: 'regression', schemathesis: 'conformance --with-schemathesis' };

function verdictOf(f: FailedCheck, r: CheckResult | undefined, what: string, same: boolean): ReplayOutcome {
  if (!r) return { failure: f, verdict: 'not replayed', message: `no check ${f.id} in this lendcheck's ${what} (renamed or removed)` };
  if (r.status === 'passed') return { failure: f, verdict: same ? 'fixed' : 'passes now', result: r };
  if (r.status === 'failed') return { failure: f, verdict: same ? 'still failing' : 'fails now', message: r.message, result: r };
  // A skip is no fix: the check did not run (e.g. the target lost its sandbox controls).
  return { failure: f, verdict: 'not replayed', message: `skipped now: ${r.message ?? 'no reason given'}`, result: r };
}

/** What differs from the run: its target and the keys given (flags, else the environment), by fingerprint. */
export function changesSinceRun(file: FailuresFile, o: ReplayOptions): string[] {
  const env = process.env;
  return credentialChanges(file.run, { baseUrl: o.baseUrl ?? file.run.baseUrl, keys: { apiKey: o.apiKey ?? env.LENDCHECK_API_KEY, apiKey2: o.apiKey2 ?? env.LENDCHECK_API_KEY_2, burstKey: o.burstKey ?? env.LENDCHECK_BURST_KEY } });
}

export async function replayFailures(file: FailuresFile, o: ReplayOptions = {}): Promise<ReplayOutcome[]> {
  const same = changesSinceRun(file, o).length === 0;
  const baseUrl = o.baseUrl ?? file.run.baseUrl;
  const profileFile = o.profileFile ?? file.run.profileFile;
  const out: ReplayOutcome[] = [];
  const conf = file.failures.filter((f) => f.part === 'conformance');
  const contract = file.failures.filter((f) => f.part === 'contract');
  if (conf.length) {
    o.log?.(`replaying ${conf.length} conformance check(s) with seed ${file.run.seed ?? '(none recorded)'} against ${baseUrl ?? 'the embedded sandbox'}`);
    const r = await runConformance({
      inProcess: true,
      baseUrl,
      publicBaseUrl: o.publicBaseUrl ?? (o.baseUrl ? undefined : file.run.publicBaseUrl),
      apiKey: o.apiKey,
      apiKey2: o.apiKey2,
      burstKey: o.burstKey,
      profileFile,
      strict: file.run.strict,
      readOnly: file.run.readOnly,
      seed: file.run.seed,
      only: conf.map((f) => f.id),
    });
    for (const f of conf) out.push(verdictOf(f, r.checks.find((c) => c.id === f.id), 'conformance suite', same));
  }
  if (contract.length) {
    o.log?.(`replaying ${contract.length} contract check(s) against ${baseUrl ?? 'the embedded sandbox'}`);
    const profile = loadProfile(profileFile);
    const target: GateTarget = baseUrl
      ? await externalTarget({ baseUrl, apiKey: o.apiKey ?? process.env.LENDCHECK_API_KEY })
      : await embeddedTarget({ profile });
    try {
      const r = await runContract({ target, profile });
      for (const f of contract) out.push(verdictOf(f, r.checks.find((c) => c.id === f.id), 'contract step', same));
    } finally {
      await target.close();
    }
  }
  for (const f of file.failures.filter((x) => x.part !== 'conformance' && x.part !== 'contract')) {
    out.push({ failure: f, verdict: 'not replayed', message: `a ${f.part} failure comes from the whole step: run \`${selfCommand()} gate --only ${STEP_OF[f.part] ?? f.part}\`` });
  }
  return out;
}

/** 0: every failure fixed; 1: one fails (still, or now elsewhere); 3: none fails but some could not be replayed, or passes only against another target or other keys (not a fix). */
export function replayExitCode(outcomes: ReplayOutcome[]): number {
  if (outcomes.some((x) => x.verdict === 'still failing' || x.verdict === 'fails now')) return 1;
  if (outcomes.some((x) => x.verdict === 'not replayed' || x.verdict === 'passes now')) return 3;
  return 0;
}
