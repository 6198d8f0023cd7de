import { type Command, Option } from 'commander';
import type { GateFlags } from '../gate/command.ts';
import { DEFAULT_REPORT_DIR, GATE_STEP_NAMES as STEP_NAMES, SIGNATURE_SCHEME_FORMS } from './option-values.ts';

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
    .option('--signature-scheme <name>', `the webhook signature scheme the target uses (part 6 leaves it open), over the profile's and detection's: ${SIGNATURE_SCHEME_FORMS}`)
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
      // The gate's parts load now, never for --help or a mistyped flag.
      const { createRedactor } = await import('../../reports/redact.ts');
      const { flagsFromEnv, keysOf } = await import('../gate/target.ts');
      // Errors end up on stderr through the CLI's top level: mask the keys in them first.
      const early = createRedactor(keysOf(flagsFromEnv(opts)));
      try {
        // The embedded sandbox's keys, checked before the steps' modules load: a refused key is exit 2 in seconds.
        const flags = flagsFromEnv(opts);
        if (!flags.baseUrl && !opts.targetImage && !opts.rerunFailed) {
          const { gateKeys } = await import('../preflight/gate-keys.ts');
          const { checkKeysOnEmbedded } = await import('../preflight/embedded.ts');
          const { LOAD_KEYS } = await import('../gate/embedded.ts');
          const { DEFAULT_KEYS } = await import('../../sandbox/auth/keys.ts');
          await checkKeysOnEmbedded(gateKeys(opts, flags), { sandboxKeys: [...DEFAULT_KEYS, ...LOAD_KEYS] });
        }
        const { gate } = await import('../gate/command.ts');
        await gate(opts);
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        err.message = early.text(err.message);
        if (err.stack) err.stack = early.text(err.stack);
        throw err;
      }
    });
}

