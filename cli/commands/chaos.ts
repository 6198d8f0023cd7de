import type { Command } from 'commander';
import { WEBHOOK_SECRET_PREFIX } from '../../contract/constants.ts';
import { secretFitsScheme, SIGNATURE_SCHEMES, type SignatureScheme } from '../../signing/signature.ts';
import { DEFAULT_WATCHED_RETRIES } from './option-values.ts';

// Each action imports its parts when it runs, so --help and input errors load none of them.
const parts = async () => ({
  loadProfile: (await import('../../contract/index.ts')).loadProfile,
  ...(await import('../../chaos/report.ts')),
  ...(await import('../../chaos/validate/validate.ts')),
  ...(await import('../preflight/preflight.ts')),
});

const num = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, received "${v}"`);
  return n;
};

/** The secret comes from --secret or LENDCHECK_WEBHOOK_SECRET (which keeps it out of process lists); it is never printed. */
export function secretFrom(opt: string | undefined, scheme?: SignatureScheme | null): string {
  const s = opt ?? process.env.LENDCHECK_WEBHOOK_SECRET;
  if (!s) throw new Error('--secret (or LENDCHECK_WEBHOOK_SECRET) is required');
  if (!s.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error(`--secret must start with ${WEBHOOK_SECRET_PREFIX}`);
  if (scheme && !secretFitsScheme(s, scheme)) throw new Error(`--secret: under ${scheme} it must be ${WEBHOOK_SECRET_PREFIX} followed by base64 (the key is the decoded bytes)`);
  return s;
}

export function registerChaos(program: Command): void {
  const chaos = program.command('chaos').description('Webhook chaos: a fault-injecting receiver, a retry-schedule validator, an active schedule run, and a certifier for partner receivers');

  chaos
    .command('receive')
    .description('Run a webhook receiver that verifies signatures, applies a fault plan and records every attempt in SQLite')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks one)', '0')
    .option('--secret <whsec>', 'subscription signing secret (or env LENDCHECK_WEBHOOK_SECRET)')
    .option('--plan <file>', 'fault plan (JSON)')
    .option('--db <path>', 'SQLite file for the observations', 'lendcheck-chaos.db')
    .option('--time-scale <n>', "the sender's time scale, recorded for the validator", num('--time-scale'), 1)
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (o: { port: string; secret?: string; plan?: string; db: string; timeScale: number; profile?: string }) => {
      const { loadProfile } = await parts();
      const { loadPlan } = await import('../../chaos/plan.ts');
      const { startReceiver } = await import('../../chaos/receiver.ts');
      const profile = loadProfile(o.profile);
      const rx = await startReceiver({
        secret: secretFrom(o.secret, profile.signature.scheme),
        port: Number(o.port),
        plan: o.plan ? loadPlan(o.plan) : undefined,
        db: o.db,
        timeScale: o.timeScale,
        profile,
      });
      console.log(`receiving on ${rx.url} (recording to ${o.db}); Ctrl-C to stop`);
      const stop = async () => {
        await rx.close();
        console.log(`stopped after ${rx.count()} deliveries`);
        process.exit(0);
      };
      const onSignal = () => {
        stop().catch((e: unknown) => (console.error(`chaos receive: stop failed: ${String(e)}`), process.exit(1)));
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    });

  chaos
    .command('validate')
    .description('Check what a receiver recorded against the retry schedule; exits 0 only when the sender conformed')
    .requiredOption('--db <path>', 'SQLite file written by `chaos receive`')
    .option('--time-scale <n>', "the sender's time scale (default: the one the receiver recorded)", num('--time-scale'))
    .option('--tolerance <spec>', 'allowed delay error: the larger of a percentage and a floor, e.g. 2%,50ms', '2%,50ms')
    .option('--from <point>', 'measure retry delays from the failed attempt\'s end or its arrival (default: the profile\'s webhooks.retryDelayFrom)')
    .option('--report-dir <dir>', 'write chaos-validate.json and chaos-validate.junit.xml here', 'lendcheck-reports')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (o: { db: string; timeScale?: number; tolerance: string; from?: string; reportDir: string; profile?: string }) => {
      if (o.from !== undefined && o.from !== 'end' && o.from !== 'arrival') throw new Error('--from must be end or arrival');
      const { loadProfile, parseTolerance, validateAttempts, writeReports, summarize, exitCodeFor } = await parts();
      const { AttemptStore } = await import('../../chaos/store.ts');
      const store = new AttemptStore(o.db);
      const r = await validateAttempts(store.attempts(), store.sessions(), { timeScale: o.timeScale, tolerance: parseTolerance(o.tolerance), from: o.from as 'end' | 'arrival' | undefined, profile: loadProfile(o.profile) });
      store.close();
      const files = writeReports(r, o.reportDir, 'chaos-validate');
      console.log(summarize(r));
      console.log(`reports: ${files.json}, ${files.junit}`);
      process.exitCode = exitCodeFor(r.status);
    });

  chaos
    .command('certify')
    .description("Act as the sender against a partner's webhook receiver; exits 0 only when it is certified")
    .requiredOption('--url <url>', 'the receiver URL')
    .option('--secret <whsec>', 'the secret the receiver verifies with (or env LENDCHECK_WEBHOOK_SECRET)')
    .option('--scheme <scheme>', `signature scheme: ${SIGNATURE_SCHEMES.join(' | ')} (default: the profile's)`)
    .option('--burst <n>', 'deliveries in the burst probe', num('--burst'), 50)
    .option('--source <files...>', "the receiver's source files, for the constant-time-compare inspection")
    .option('--only <ids...>', 'run only these checks')
    .option('--report-dir <dir>', 'write chaos-certify.json and chaos-certify.junit.xml here', 'lendcheck-reports')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (o: { url: string; secret?: string; scheme?: string; burst: number; source?: string[]; only?: string[]; reportDir: string; profile?: string }) => {
      if (o.scheme && !SIGNATURE_SCHEMES.includes(o.scheme as SignatureScheme)) throw new Error(`--scheme must be one of ${SIGNATURE_SCHEMES.join(', ')}`);
      const { loadProfile, preflightReceiver, writeReports, summarize } = await parts();
      const { runCertify } = await import('../../chaos/certify/run.ts');
      const secret = secretFrom(o.secret, (o.scheme as SignatureScheme | undefined) ?? loadProfile(o.profile).signature.scheme);
      // The receiver must answer at all (any status): a dead address is the user's mistake, not 18 failed checks.
      await preflightReceiver(o.url, '--url');
      const r = await runCertify({
        url: o.url,
        secret,
        scheme: o.scheme as SignatureScheme | undefined,
        burst: Math.round(o.burst),
        sources: o.source,
        only: o.only,
        profile: loadProfile(o.profile),
      });
      const files = writeReports(r, o.reportDir, 'chaos-certify', [secret]);
      console.log(summarize(r));
      console.log(`${r.status === 'passed' ? 'CERTIFIED' : 'NOT CERTIFIED'}; reports: ${files.json}, ${files.junit}`);
      process.exitCode = r.status === 'passed' ? 0 : 1;
    });

  chaos
    .command('schedule')
    .description('Active run: start the receiver, register it, cause events, fail them through the whole retry schedule, validate')
    .option('--base-url <url>', 'target base URL ending in /v1 (default: start the embedded sandbox at time scale 3600)')
    .option('--api-key <key>', 'target API key (or env LENDCHECK_API_KEY)')
    .option('--allow-live', `allow a ${'ck_live_'} key (production)`, false)
    .option('--time-scale <n>', "the target's time scale (default: its sandbox clock's, else 1; the embedded sandbox runs at 3600)", num('--time-scale'))
    .option('--tolerance <spec>', 'allowed delay error: the larger of a percentage and a floor (default 2%,50ms against a target; 2%,1000ms against the embedded sandbox at 3600x)')
    .option('--db <path>', 'keep the receiver observations in this SQLite file')
    .option('--receiver-host <host>', 'address the receiver listens on (the target must reach it)', '127.0.0.1')
    .option('--report-dir <dir>', 'write chaos-schedule.json and chaos-schedule.junit.xml here', 'lendcheck-reports')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (o: { baseUrl?: string; apiKey?: string; allowLive: boolean; timeScale?: number; tolerance?: string; db?: string; receiverHost: string; reportDir: string; profile?: string }) => {
      const { loadProfile, parseTolerance, givenKey, refuseLive, preflight, writeReports, summarize, exitCodeFor } = await parts();
      const { runChaosSchedule } = await import('../../chaos/schedule/run.ts');
      const profile = loadProfile(o.profile);
      const tolerance = o.tolerance ? parseTolerance(o.tolerance) : undefined;
      const keys = [givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY')];
      refuseLive(keys, o.allowLive);
      if (o.baseUrl) await preflight({ baseUrl: o.baseUrl, keys, allowLive: o.allowLive });
      // The embedded sandbox checks a given key as any target would (cli/preflight/embedded.ts).
      else await (await import('../preflight/embedded.ts')).checkKeysOnEmbedded(keys, { profile });
      const r = await runChaosSchedule({
        baseUrl: o.baseUrl,
        apiKey: o.apiKey,
        allowLive: o.allowLive,
        timeScale: o.timeScale,
        tolerance,
        db: o.db,
        receiverHost: o.receiverHost,
        profile,
        log: (l) => console.log(l),
      });
      const files = writeReports(r, o.reportDir, 'chaos-schedule', [o.apiKey ?? process.env.LENDCHECK_API_KEY ?? '']);
      console.log(summarize(r));
      console.log(`reports: ${files.json}, ${files.junit}`);
      process.exitCode = exitCodeFor(r.status);
    });

  chaos
    .command('retries')
    .description('At real time, on a target with no test clock: fail one event on purpose and watch its first retries (1 min, 5 min: about 6 minutes), as the gate does; later retries are reported not observed')
    .requiredOption('--base-url <url>', 'target base URL ending in /v1')
    .option('--api-key <key>', 'target API key (or env LENDCHECK_API_KEY)')
    .option('--allow-live', `allow a ${'ck_live_'} key (production)`, false)
    .option('--retries <n>', `retries to watch, 1..5 (default ${DEFAULT_WATCHED_RETRIES}; 3 adds 30 min, 4 adds 2 h)`, num('--retries'))
    .option('--tolerance <spec>', 'allowed delay error: the larger of a percentage and a floor', '2%,50ms')
    .option('--receiver-host <host>', 'address the receiver listens on (the target must reach it)', '127.0.0.1')
    .option('--report-dir <dir>', 'write chaos-retries.json and chaos-retries.junit.xml here', 'lendcheck-reports')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (o: { baseUrl: string; apiKey?: string; allowLive: boolean; retries?: number; tolerance: string; receiverHost: string; reportDir: string; profile?: string }) => {
      const apiKey = o.apiKey ?? process.env.LENDCHECK_API_KEY;
      if (!apiKey) throw new Error('--api-key (or LENDCHECK_API_KEY) is required');
      if (o.retries !== undefined && !(Number.isInteger(o.retries) && o.retries <= 5)) throw new Error(`--retries must be 1..5, received ${o.retries}`);
      const { loadProfile, parseTolerance, givenKey, preflight, writeReports, summarize, exitCodeFor } = await parts();
      const { runRetryWatch } = await import('../../chaos/retry-watch/run.ts');
      const profile = loadProfile(o.profile);
      const tolerance = parseTolerance(o.tolerance);
      await preflight({ baseUrl: o.baseUrl, keys: [givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY')], allowLive: o.allowLive });
      const r = await runRetryWatch({ baseUrl: o.baseUrl, apiKey, allowLive: o.allowLive, retries: o.retries, tolerance, receiverHost: o.receiverHost, profile, log: (l) => console.log(l) });
      const files = writeReports(r, o.reportDir, 'chaos-retries', [apiKey]);
      console.log(summarize(r));
      console.log(`reports: ${files.json}, ${files.junit}`);
      process.exitCode = exitCodeFor(r.status);
    });
}
