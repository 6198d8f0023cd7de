import { type Command, Option } from 'commander';
import { loadProfile } from '../../contract/index.ts';
import { DEFAULT_REPORT_DIR } from '../../reports/writers.ts';
import { createRedactor } from '../../reports/redact.ts';
import { GATE_STEPS, STEP_NAMES } from '../gate/steps.ts';
import { runGate } from '../gate/run.ts';
import { Progress } from '../gate/progress.ts';
import { externalTarget, flagsFromEnv, keysOf, TargetUnreachable, type GateTarget, type TargetFlags } from '../gate/target.ts';
import { EXIT_CODES } from '../gate/verdict.ts';
import { embeddedTarget } from '../gate/embedded.ts';
import { startTargetImage } from '../target-image.ts';
import { parseTolerance } from '../../chaos/validate/validate.ts';
import { detectForGate, retryWaitMs } from '../../detect/cli.ts';
import { regressionStep } from '../history/regression-step.ts';
import { recordRun } from '../history/record.ts';
import { defaultHistoryPath } from '../../reports/history/store.ts';
import { reportToGithub } from '../../reports/ci/github.ts';
import { lastFailuresFile } from '../replay/last-run.ts';
import { replayCommand } from './replay.ts';
import { resolve } from 'node:path';
import { EXIT, InputError } from '../exit-codes.ts';
import { preflight, refuseLive } from '../preflight/preflight.ts';
import { gateKeys } from '../preflight/gate-keys.ts';

interface GateFlags extends TargetFlags {
  profile?: string;
  /** Seconds; conformance's bound on each wait for rate-limit room. */
  maxWait?: number;
  reportDir: string;
  targetImage?: string;
  targetPort?: string;
  targetBasePath?: string;
  targetEnv?: string[];
  only?: string;
  plain?: boolean;
  timeScale?: number;
  chaosTolerance?: string;
  matchBy?: 'auto' | 'webhooks' | 'polling';
  stepTimeout: number;
  detectProfile?: boolean;
  retryWait?: number;
  allowSkip?: boolean;
  baseline?: string;
  maxRegression?: string;
  history?: string;
  rerunFailed?: boolean;
  retryWatch: boolean;
  retryWatchRetries?: number;
  receiverHost?: string;
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('Run conformance, a smoke rate-limit run per tier, the time-scaled chaos schedule and the receiver certification against one target (the embedded sandbox by default); one verdict, one report')
    .option('--base-url <url>', 'target base URL ending in /v1 (default: start the embedded sandbox)')
    .option('--api-key <key>', 'sandbox key for conformance and chaos (or LENDCHECK_API_KEY)')
    .option('--api-key-2 <key>', "a second partner's key, for isolation checks (or LENDCHECK_API_KEY_2)")
    .option('--burst-key <key>', 'a key conformance may exhaust to see a 429; not one of the tier keys (or LENDCHECK_BURST_KEY)')
    .option('--key-starter <key>', 'a Starter-tier key (or LENDCHECK_KEY_STARTER)')
    .option('--key-growth <key>', 'a Growth-tier key (or LENDCHECK_KEY_GROWTH)')
    .option('--key-scale <key>', 'a Scale-tier key (or LENDCHECK_KEY_SCALE)')
    .option('--profile <file>', 'profile file (JSON) answering the spec\'s "not shown" points')
    .option('--report-dir <dir>', 'where reports go (<dir>/<run-id>/index.html)', DEFAULT_REPORT_DIR)
    .option('--target-image <image>', 'start the implementation under test from this container image (needs a Docker engine)')
    .option('--target-port <port>', 'port the --target-image service listens on inside the container', '8080')
    .option('--target-base-path <path>', 'path of the API under the --target-image service root', '/v1')
    .addOption(new Option('--target-env <name=value>', 'an environment variable for the --target-image container (repeatable), e.g. its key store').argParser((v: string, prev: string[] = []) => [...prev, v]))
    .addOption(new Option('--time-scale <n>', "business seconds per real second: the embedded sandbox's clock, or with --target-image the container's (as LENDCHECK_TIME_SCALE, which lendcheck's image honours)").argParser(Number))
    .option('--chaos-tolerance <spec>', "the chaos step's allowed retry-delay error, the larger of a percentage and a floor (default 2%,50ms against a target; 2%,1000ms on the embedded fast clock), e.g. for a time-scaled target whose retries land a poll late")
    .addOption(new Option('--match-by <how>', "the load step's matching smoke: time-to-match from signed position.matched webhooks at a receiver on this host's loopback, or by polling (for a target that cannot reach this host's loopback, e.g. a container behind a bridge)").choices(['auto', 'webhooks', 'polling']))
    .option('--only <steps>', `comma-separated steps to run, from: ${STEP_NAMES.join(', ')}`)
    .option('--allow-live', 'allow ck_live_ (production) keys; off by default', false)
    .option('--allow-skip', 'accept skipped steps on purpose: a run of skips, or a skipped --only step, then passes instead of INCOMPLETE (exit 3)', false)
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('--detect-profile', 'probe the target first (lendcheck profile detect, ≤ 100 requests) and run with the profile found (written to <report-dir>/detected-profile.json)')
    .addOption(new Option('--retry-wait <seconds>', 'with --detect-profile on a target without sandbox controls: how long to wait for a first webhook retry (default 3; a target at real time needs about 90)').argParser(Number))
    .addOption(new Option('--step-timeout <minutes>', 'a step still running after this fails and the gate goes on').default(20).argParser(Number))
    .option('--baseline <run>', 'compare with a run from the history: "last" (the last passing run against this target) or a run id')
    .option('--max-regression <bounds>', 'with --baseline: fail when a figure gets worse beyond these bounds, e.g. p95=10%,burst=0')
    .option('--history <file>', 'the run history every gate run is added to (default <report-dir>/history.db)')
    .option('--no-retry-watch', 'against a target with no test clock or time scale: leave out the chaos step\'s real-time watch of retries 1 and 2 (about 6 minutes, alongside the other steps)')
    .addOption(new Option('--retry-watch-retries <n>', 'at real time, watch retries 1..n (default 2: 1 min + 5 min; 3 adds 30 min, 4 adds 2 h)').argParser(Number))
    .option('--receiver-host <host>', "address lendcheck's webhook receivers (conformance's delivery checks, the retry watch) listen on, as the target must reach them (default the loopback; or LENDCHECK_RECEIVER_HOST)")
    .addOption(new Option('--max-wait <seconds>', "conformance's longest wait for rate-limit room before a check skips, saying what it needed (default 120; or LENDCHECK_MAX_WAIT_MS)").argParser(Number))
    .option('--rerun-failed', 'run only the checks that failed in the last run in --report-dir (its failures.json), with the same seed and profile, and say "fixed" or "still failing" for each (as lendcheck replay)')
    .action(async (opts: GateFlags) => {
      // Errors end up on stderr through the CLI's top level: mask the keys in them first.
      const early = createRedactor(keysOf(flagsFromEnv(opts)));
      try {
        await gate(opts);
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        err.message = early.text(err.message);
        if (err.stack) err.stack = early.text(err.stack);
        throw err;
      }
    });
}

async function gate(opts: GateFlags): Promise<void> {
  // The conformance step reads its budget's bound from the environment twin, as it reads the keys.
  if (opts.maxWait !== undefined) {
    if (!Number.isFinite(opts.maxWait) || opts.maxWait < 0) throw new Error(`--max-wait must be a number of seconds ≥ 0, got ${String(opts.maxWait)}`);
    process.env.LENDCHECK_MAX_WAIT_MS = String(Math.round(opts.maxWait * 1000));
  }
  const flags = flagsFromEnv(opts);
  refuseLive(gateKeys(opts, flags), !!flags.allowLive);
  // The user's target, checked before any step runs or any bucket is spent (preflight.ts).
  const check = () => (flags.baseUrl && !opts.targetImage ? preflight({ baseUrl: flags.baseUrl, keys: gateKeys(opts, flags), allowLive: !!flags.allowLive }) : Promise.resolve());
  if (opts.rerunFailed) {
    const file = lastFailuresFile(opts.reportDir);
    console.log(`rerunning the failed checks of ${file}`);
    process.exitCode = await replayCommand(file, { baseUrl: flags.baseUrl, apiKey: flags.apiKey, apiKey2: flags.apiKey2, burstKey: flags.burstKey, profileFile: opts.profile ?? process.env.LENDCHECK_PROFILE });
    return;
  }
  let profile = loadProfile(opts.profile ?? process.env.LENDCHECK_PROFILE);
  let profileFile = opts.profile;
  const only = opts.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = only?.filter((s) => !STEP_NAMES.includes(s)) ?? [];
  if (unknown.length) throw new Error(`unknown step ${unknown.join(', ')}: valid steps are ${STEP_NAMES.join(', ')}`);
  const historyFile = opts.history ?? defaultHistoryPath(opts.reportDir);
  if (opts.maxRegression && !opts.baseline) throw new Error('--max-regression needs --baseline (last or a run id)');
  const steps = [...(only ? GATE_STEPS.filter((s) => only.includes(s.name)) : GATE_STEPS), ...(opts.baseline ? [regressionStep({ baseline: opts.baseline, maxRegression: opts.maxRegression, historyFile })] : [])];

  // Parsed before any target starts, so a bad value leaves no container behind.
  const chaosTolerance = opts.chaosTolerance ? parseTolerance(opts.chaosTolerance) : undefined;
  const retryWait = retryWaitMs(opts.retryWait);
  if (opts.retryWatchRetries !== undefined && !(Number.isInteger(opts.retryWatchRetries) && opts.retryWatchRetries >= 1 && opts.retryWatchRetries <= 5)) throw new Error(`--retry-watch-retries: must be 1..5, got ${opts.retryWatchRetries}`);
  await check();

  let target: GateTarget;
  try {
    if (opts.targetImage) {
      // --time-scale reaches the container as LENDCHECK_TIME_SCALE, which lendcheck's image
      // honours, so the chaos schedule's 26.6 business hours can run in bounded time there.
      const env = { ...targetEnv(opts.targetEnv ?? []), ...(opts.timeScale ? { LENDCHECK_TIME_SCALE: String(opts.timeScale) } : {}) };
      const started = await startTargetImage({ image: opts.targetImage, containerPort: Number(opts.targetPort), basePath: opts.targetBasePath, env });
      target = await externalTarget({ ...flags, baseUrl: started.baseUrl }, started.stop).catch(async (e: unknown) => {
        await started.stop();
        throw e;
      });
      target.label = `${opts.targetImage} (${started.baseUrl})`;
    } else if (flags.baseUrl) {
      target = await externalTarget(flags);
    } else {
      target = await embeddedTarget({ profile, timeScale: opts.timeScale });
    }
  } catch (e) {
    if (!(e instanceof TargetUnreachable)) throw e;
    // A gate that cannot reach its target has checked nothing: an input error (exit 2), before any step.
    throw new InputError(createRedactor(keysOf(flags)).text(`${e.message}; no step was run`));
  }

  target.chaosTolerance = chaosTolerance;
  target.matchBy = opts.matchBy;
  target.retryWatch = { enabled: opts.retryWatch, retries: opts.retryWatchRetries ?? 2 };
  // Read where the receivers start (conformance's run in this process, the retry watch).
  if (opts.receiverHost) process.env.LENDCHECK_RECEIVER_HOST = opts.receiverHost;

  if (opts.detectProfile && target.apiKey) {
    ({ profile, file: profileFile } = await detectForGate({ baseUrl: target.baseUrl, apiKey: target.apiKey, apiKey2: target.apiKey2, retryWaitMs: retryWait }, opts.reportDir, (l) => console.log(createRedactor(keysOf(target)).text(l))));
  }
  const secrets = [...keysOf(flags), ...keysOf(target)];
  const redactor = createRedactor(secrets);
  const progress = new Progress(process.stdout, redactor, !!process.stdout.isTTY && !opts.plain);
  // Ctrl-C (or a CI's SIGTERM): close the target (its receivers and subscriptions) and end as
  // an interrupted run: INCOMPLETE, exit 3, the one table's code for "not everything observed".
  const stop = () => {
    const exit = () => process.exit(EXIT.incomplete);
    target.close().then(exit, exit);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const verdictRules = { named: only, allowSkip: !!opts.allowSkip };
    const replay = { ...(target.embedded ? {} : { baseUrl: target.baseUrl }), ...(profileFile ? { profileFile: resolve(profileFile) } : {}) };
    const { summary, timedOut, files } = await runGate({ target, profile, profileFile, reportDir: opts.reportDir, progress, steps, secrets, stepTimeoutMs: opts.stepTimeout * 60_000, verdictRules, replay });
    process.exitCode = EXIT_CODES[summary.verdict];
    reportToGithub(summary, redactor, { reportPath: files.find((f) => f.endsWith('index.html')) });
    recordRun(summary, historyFile, 'gate');
    // A step that timed out may still hold sockets or timers; the verdict and the report
    // are written, so end the process rather than wait on it.
    if (timedOut.length) setTimeout(() => process.exit(process.exitCode), 2000).unref();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await target.close();
  }
}

/** --target-env NAME=VALUE pairs as an environment. */
function targetEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const p of pairs) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(p);
    if (!m) throw new Error(`--target-env: expected NAME=VALUE, got "${p.split('=')[0]}…"`);
    env[m[1]] = m[2];
  }
  return env;
}

