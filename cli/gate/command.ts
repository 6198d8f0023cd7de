// The gate's action: loaded only when `lendcheck gate` runs (cli/commands/gate.ts registers its options).
import { loadProfile } from '../../contract/index.ts';
import { profileFileWithScheme, signatureSchemeOption } from '../signature-scheme.ts';
import { createRedactor } from '../../reports/redact.ts';
import { GATE_STEPS, STEP_NAMES } from './steps.ts';
import { runGate } from './run.ts';
import { Progress } from './progress.ts';
import { externalTarget, flagsFromEnv, keysOf, TargetUnreachable, type GateTarget, type TargetFlags } from './target.ts';
import { EXIT_CODES } from './verdict.ts';
import { embeddedTarget } from './embedded.ts';
import { startTargetImage } from '../target-image.ts';
import { parseTolerance } from '../../chaos/validate/validate.ts';
import { detectForGate, retryWaitMs } from '../../detect/cli.ts';
import { regressionStep } from '../history/regression-step.ts';
import { recordRun } from '../history/record.ts';
import { defaultHistoryPath } from '../../reports/history/store.ts';
import { reportToGithub } from '../../reports/ci/github.ts';
import { lastFailuresFile } from '../replay/last-run.ts';
import { replayCommand } from '../commands/replay.ts';
import { resolve } from 'node:path';
import { EXIT, InputError } from '../exit-codes.ts';
import { preflight, refuseLive } from '../preflight/preflight.ts';
import { gateKeys } from '../preflight/gate-keys.ts';
import { checkKeysAt } from '../preflight/embedded.ts';
import { endDescendants, onInterrupt } from './interrupt.ts';
import { fingerprintCredentials } from '../../reports/repro/fingerprint.ts';

export interface GateFlags extends TargetFlags {
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
  /** A signature scheme name (signing/variants.ts) over the profile's and detection's. */
  signatureScheme?: string;
}

export async function gate(opts: GateFlags): Promise<void> {
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
  // Checked before any request: a bad name is a one-line error naming the closest.
  const scheme = opts.signatureScheme === undefined ? undefined : signatureSchemeOption(opts.signatureScheme);
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

  // A target lendcheck started (the embedded sandbox, --target-image) is checked too: each key
  // given must be taken, whatever steps run (--only contract included), or it is exit 2 now.
  if (!flags.baseUrl || opts.targetImage) {
    try {
      await checkKeysAt(target.baseUrl, gateKeys(opts, flags));
    } catch (e) {
      await target.close();
      throw e;
    }
    if (target.embedded) useGivenKeys(target, flags);
  }

  target.chaosTolerance = chaosTolerance;
  target.matchBy = opts.matchBy;
  target.retryWatch = { enabled: opts.retryWatch, retries: opts.retryWatchRetries ?? 2 };
  // Read where the receivers start (conformance's run in this process, the retry watch).
  if (opts.receiverHost) process.env.LENDCHECK_RECEIVER_HOST = opts.receiverHost;

  if (opts.detectProfile && target.apiKey) {
    ({ profile, file: profileFile } = await detectForGate({ baseUrl: target.baseUrl, apiKey: target.apiKey, apiKey2: target.apiKey2, retryWaitMs: retryWait }, opts.reportDir, (l) => console.log(createRedactor(keysOf(target)).text(l))));
  }
  if (scheme) {
    // The user's name wins over the profile file's and detection's; the steps load this file.
    profileFile = profileFileWithScheme(scheme, profileFile ?? process.env.LENDCHECK_PROFILE, opts.reportDir);
    profile = loadProfile(profileFile);
    console.log(`signature scheme: ${scheme} (--signature-scheme), profile ${profileFile}`);
  }
  const secrets = [...keysOf(flags), ...keysOf(target)];
  const redactor = createRedactor(secrets);
  const progress = new Progress(process.stdout, redactor, !!process.stdout.isTTY && !opts.plain);
  // Ctrl-C (or a CI's SIGTERM): the steps done are kept, the partial report is written, the
  // target closed (its receivers and subscriptions) and no process of ours is left (interrupt.ts).
  const interrupt = onInterrupt((l) => console.log(redactor.text(l)));
  try {
    const verdictRules = { named: only, allowSkip: !!opts.allowSkip };
    // The keys as given (flags or environment), fingerprinted: replay says "fixed" only with the same.
    const credentials = fingerprintCredentials(target.embedded ? undefined : target.baseUrl, { apiKey: flags.apiKey, apiKey2: flags.apiKey2, burstKey: flags.burstKey });
    const replay = { ...(target.embedded ? {} : { baseUrl: target.baseUrl }), ...(profileFile ? { profileFile: resolve(profileFile) } : {}), credentials };
    const { summary, timedOut, files, interrupted } = await runGate({ target, profile, profileFile, reportDir: opts.reportDir, progress, steps, secrets, stepTimeoutMs: opts.stepTimeout * 60_000, verdictRules, replay, signal: interrupt.signal });
    if (interrupt.received) {
      await windDown(target);
      const done = summary.parts.filter((p) => p.status !== 'incomplete' || !p.skipReason?.startsWith('interrupted'));
      console.log(`interrupted (${interrupt.received}): ${done.length ? `done: ${done.map((p) => `${p.part} ${p.status}`).join(', ')}` : 'no step had finished'}; not finished: ${interrupted.join(', ') || 'none'}; partial report: ${files.find((f) => f.endsWith('index.html')) ?? opts.reportDir}`);
      // INCOMPLETE (3), unless a check had already failed: the one table's FAIL (1) stands.
      interrupt.exit(summary.verdict === 'failed' ? EXIT.fail : EXIT.incomplete);
    }
    process.exitCode = EXIT_CODES[summary.verdict];
    reportToGithub(summary, redactor, { reportPath: files.find((f) => f.endsWith('index.html')) });
    recordRun(summary, historyFile, 'gate');
    // A step that timed out may still hold sockets or timers; the verdict and the report
    // are written, so end the process rather than wait on it.
    if (timedOut.length) setTimeout(() => process.exit(process.exitCode), 2000).unref();
  } finally {
    interrupt.dispose();
    await target.close();
  }
}

/** After Ctrl-C: the running suite cancelled (its tests clean up), then every process of ours ended, then the target closed; each bounded. */
async function windDown(target: GateTarget): Promise<void> {
  const { cancelConformance } = await import('../../conformance/suite/run.ts');
  await cancelConformance(5000);
  if (endDescendants('SIGTERM')) await new Promise((r) => setTimeout(r, 500));
  endDescendants('SIGKILL');
  await Promise.race([target.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
}

/** Keys the user gave for the embedded sandbox, taken by it (checked above), are the ones the steps use. */
function useGivenKeys(target: GateTarget, f: TargetFlags): void {
  if (f.apiKey) target.apiKey = f.apiKey;
  if (f.apiKey2) target.apiKey2 = f.apiKey2;
  if (f.burstKey) target.burstKey = f.burstKey;
  if (f.keyStarter) target.tierKeys.starter = f.keyStarter;
  if (f.keyGrowth) target.tierKeys.growth = f.keyGrowth;
  if (f.keyScale) target.tierKeys.scale = f.keyScale;
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

