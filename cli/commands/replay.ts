import type { Command } from 'commander';
import type { ReplayOptions } from '../replay/run.ts';
import { InputError } from '../exit-codes.ts';
import { givenKey, preflight } from '../preflight/preflight.ts';

/** Replays a failures file and prints one line per check; returns the exit code. */
export async function replayCommand(file: string, o: ReplayOptions): Promise<number> {
  const { readFailuresFile } = await import('../../reports/repro/failures-file.ts');
  const { createRedactor } = await import('../../reports/redact.ts');
  const { colorEnabled, paint } = await import('../../reports/output/color.ts');
  const { changesSinceRun, replayExitCode, replayFailures } = await import('../replay/run.ts');
  const { replayLines } = await import('../replay/print.ts');
  const failures = readFailuresFile(file);
  const redactor = createRedactor([o.apiKey, o.apiKey2, o.burstKey, process.env.LENDCHECK_API_KEY, process.env.LENDCHECK_API_KEY_2, process.env.LENDCHECK_BURST_KEY].filter((k): k is string => !!k));
  if (!failures.failures.length) {
    console.log(`nothing to replay: run ${failures.runId} had no failed check`);
    return 0;
  }
  // The run's target (or the one given) must answer, and its keys be taken, before anything is replayed.
  // ck_live_ keys are judged by the replayed checks' own rules (read-only), so they pass through here.
  const baseUrl = o.baseUrl ?? failures.run.baseUrl;
  if (baseUrl) {
    const keys = [givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY'), givenKey('--api-key-2', o.apiKey2, 'LENDCHECK_API_KEY_2'), givenKey('--burst-key', o.burstKey, 'LENDCHECK_BURST_KEY')];
    await preflight({ baseUrl, urlOption: o.baseUrl ? '--base-url' : `the run's target (${file}; give --base-url to change it)`, publicBaseUrl: o.publicBaseUrl, keys, allowLive: true });
  }
  // Not the run's target and keys: what changed is said first, and no check is called fixed.
  const changes = changesSinceRun(failures, o);
  if (changes.length) console.log(`replay: not the run's target and keys, so a passing check "passes now", never "fixed" (exit 3); changed: ${changes.join('; ')}`);
  const outcomes = await replayFailures(failures, { ...o, log: (l) => console.log(redactor.text(l)) });
  for (const l of replayLines(outcomes, paint(colorEnabled(process.stdout)), redactor)) console.log(l);
  return replayExitCode(outcomes);
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Rerun the failed checks of a run (its failures.json) with the same seed and profile, and say "fixed" or "still failing" for each')
    .argument('<failures>', 'a failures.json: <report-dir>/failures.json of lendcheck conformance, or <report-dir>/<run-id>/failures.json of a gate run')
    .option('--base-url <url>', 'target base URL ending in /v1 (default: the run\'s target; the embedded sandbox when the run used it) (env LENDCHECK_BASE_URL)')
    .option('--public-base-url <url>', 'base URL of the public endpoints, when different')
    .option('--api-key <key>', 'API key of partner 1 (env LENDCHECK_API_KEY)')
    .option('--api-key-2 <key>', "a second partner's key (env LENDCHECK_API_KEY_2)")
    .option('--burst-key <key>', 'a key the 429 check may exhaust (env LENDCHECK_BURST_KEY)')
    .option('--profile <file>', 'profile file, instead of the one the run used')
    .action(async (file: string, o: Record<string, string | undefined>) => {
      const { UnsafeTargetError } = await import('../../conformance/target.ts');
      try {
        if (o.profile) (await import('../../contract/index.ts')).loadProfile(o.profile);
        process.exitCode = await replayCommand(file, { baseUrl: o.baseUrl ?? process.env.LENDCHECK_BASE_URL, publicBaseUrl: o.publicBaseUrl, apiKey: o.apiKey, apiKey2: o.apiKey2, burstKey: o.burstKey, profileFile: o.profile });
      } catch (e) {
        if (!(e instanceof UnsafeTargetError)) throw e;
        throw new InputError(e.message);
      }
    });
}
