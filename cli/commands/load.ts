import { Command, Option } from 'commander';
import { join, resolve } from 'node:path';
import { TIER_NAMES } from '../../contract/constants.ts';
import type { ScenarioName } from '../load/env.ts';
import { givenKey, preflight, refuseLive } from '../preflight/preflight.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { DEFAULT_HISTORY_FILE, LOAD_SCENARIOS as SCENARIOS } from './option-values.ts';

interface LoadCliOptions {
  scenario: ScenarioName;
  tier?: string;
  public?: boolean;
  baseUrl?: string;
  apiKey?: string;
  smoke?: boolean;
  reportDir?: string;
  out: string[];
  segments?: string;
  emit?: 'k6-operator';
  allowProduction?: boolean;
  profile?: string;
  keys?: string;
  keyPool?: string;
  matchBy: 'auto' | 'webhooks' | 'polling';
  ordersPerSecond?: string;
  history?: string;
  verbose?: boolean;
}

const collect = (v: string, prev: string[]) => [...prev, v];

export function registerLoad(program: Command): void {
  program
    .command('load')
    .description('Run a k6 load scenario (rate-limit, matching, mixed) on the pinned k6; exits with its verdict')
    .addOption(new Option('--scenario <name>', 'scenario to run').choices([...SCENARIOS]).makeOptionMandatory())
    .addOption(new Option('--tier <tier>', "the key's tier (default: the profile's default tier)").choices([...TIER_NAMES]))
    .option('--public', 'rate-limit: the public endpoints (60/min per client address, no key)')
    .option('--base-url <url>', 'target base URL ending in /v1 (default: an embedded sandbox on a loopback port)')
    .option('--api-key <key>', 'API key (default with the embedded sandbox: its test key of the tier); prefer env LENDCHECK_API_KEY')
    .option('--smoke', 'short version of the scenario')
    .option('--report-dir <dir>', 'where the k6 summary, JUnit file and dashboard export go')
    .option('--out <output>', 'k6 output, passed through as --out (repeatable), e.g. experimental-prometheus-rw', collect, [])
    .option('--segments <n>', 'split the run over N local k6 processes (execution segments) and judge thresholds merged')
    .addOption(new Option('--emit <kind>', 'write manifests instead of running').choices(['k6-operator']))
    .option('--allow-production', `allow a ck_live_ key`)
    .option('--profile <file>', 'profile file (JSON)')
    .option('--keys <file>', 'matching: a key pool, JSON array of {key, partnerId, tier?} (else env LENDCHECK_KEYS); orders are spread over it')
    .option('--key-pool <n[,m]>', 'matching, embedded sandbox: mint N test keys over M partners (default 4) for the run')
    .addOption(new Option('--match-by <how>', 'matching: time-to-match from signed position.matched webhooks or by polling').choices(['auto', 'webhooks', 'polling']).default('auto'))
    .option('--orders-per-second <n>', 'matching: orders per second on each side (checked against the key pool)')
    .option('--verbose', "k6's own output (its progress block, logs) on stderr; off by default: one line per phase")
    .option('--history <file>', 'the run history this run is added to (lendcheck compare reads it)', DEFAULT_HISTORY_FILE)
    .action(async (o: LoadCliOptions) => {
      // The parts load when the command runs, never for --help or a mistyped flag.
      const { defaultProfile, loadProfile } = await import('../../contract/index.ts');
      const { scenarioEnv } = await import('../load/env.ts');
      const { k6Binary } = await import('../load/k6-process.ts');
      const { loadPool, parsePoolSpec } = await import('../load/pool.ts');
      const { runLoad, scenarioScript } = await import('../load/run.ts');
      const { loadExitCode } = await import('../load/exit.ts');
      const { newRunId } = await import('../gate/run.ts');
      const { recordRun } = await import('../history/record.ts');
      const profile = o.profile ? loadProfile(o.profile) : defaultProfile;
      const apiKey = o.apiKey ?? process.env.LENDCHECK_API_KEY;
      refuseLive([givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY')], !!o.allowProduction, '--allow-production');
      const segments = o.segments === undefined ? 1 : Number(o.segments);
      if (!Number.isInteger(segments) || segments < 1 || segments > 64) throw new Error(`--segments: expected an integer 1..64 / received "${o.segments}"`);
      if (o.emit === 'k6-operator') {
        if (!o.baseUrl) throw new Error('--emit k6-operator: the pods need a --base-url they can reach');
        const dir = resolve(o.reportDir ?? join('lendcheck-reports', 'k6-operator'));
        const tier = o.tier ?? profile.limits.defaultTier;
        const env = scenarioEnv(profile, { scenario: o.scenario, tier, publicMode: !!o.public, smoke: !!o.smoke, baseUrl: o.baseUrl, runId: `operator-${Date.now()}` });
        const { emitK6Operator } = await import('../load/operator.ts');
        const files = emitK6Operator({ k6: k6Binary().path, script: scenarioScript(o.scenario), env, outs: o.out, parallelism: segments, dir, name: `lendcheck-${o.scenario}` });
        console.log(`wrote ${files.configMap}\nwrote ${files.testRun}\nthe TestRun reads API_KEY from Secret lendcheck-${o.scenario}-api-key`);
        return;
      }
      const pool = o.scenario === 'matching' || o.keys ? loadPool(profile, o.keys) : undefined;
      // A user's target is checked before k6 starts: a dead address or a refused key is one line, exit 2.
      if (o.baseUrl) {
        const keys = [givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY'), ...(pool ?? []).map((k, i) => ({ option: `${o.keys ? '--keys' : 'LENDCHECK_KEYS'} (key ${i + 1})`, key: k.key }))];
        await preflight({ baseUrl: o.baseUrl, keys: o.public ? [] : keys, allowLive: !!o.allowProduction, liveOption: '--allow-production' });
      } else if (!o.public) {
        // The embedded sandbox checks a given key as any target would (cli/preflight/embedded.ts).
        // A --keys pool is added to the embedded sandbox's keys for the run (cli/load/run.ts), so
        // the check's sandbox takes them too: --api-key may be one of the pool's.
        const { checkKeysOnEmbedded } = await import('../preflight/embedded.ts');
        const sandboxKeys = pool ? [...(await import('../../sandbox/auth/keys.ts')).DEFAULT_KEYS, ...pool] : undefined;
        await checkKeysOnEmbedded([givenKey('--api-key', o.apiKey, 'LENDCHECK_API_KEY')], { profile, ...(sandboxKeys ? { sandboxKeys } : {}) });
      }
      const r = await runLoad({
        scenario: o.scenario,
        tier: o.tier,
        publicMode: o.public,
        baseUrl: o.baseUrl,
        apiKey,
        smoke: o.smoke,
        reportDir: o.reportDir,
        outs: o.out,
        segments,
        allowProduction: o.allowProduction,
        profile,
        echo: !!o.verbose,
        phase: (l) => console.error(`load: ${l}`),
        pool,
        keyPool: o.keyPool ? parsePoolSpec(o.keyPool) : undefined,
        matchBy: o.matchBy,
        env: o.ordersPerSecond ? { ORDERS_PER_SECOND: o.ordersPerSecond } : undefined,
      });
      for (const c of r.checks.filter((c) => c.status === 'failed')) console.log(`FAIL ${c.title}: ${c.message ?? ''}`);
      const figures = Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join(' ');
      console.log(`${r.status === 'passed' ? 'PASS' : 'FAIL'} load ${r.name}: ${figures}`);
      process.exitCode = loadExitCode(r);
      const runId = `load-${newRunId()}`;
      if (o.history && recordRun({ runId, target: r.target ?? 'unknown', profile: profile.name, startedAt: r.startedAt, verdict: r.status === 'passed' ? 'passed' : 'failed', parts: [r] }, o.history, 'load')) {
        console.log(`history: ${runId} added to ${o.history} (${selfCommand()} compare ${runId})`);
      }
    });
}
