import { type Command, Option } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { METRICS_PATH, SANDBOX_FAULT_NAMES } from './option-values.ts';

interface Opts {
  port: string;
  host: string;
  db?: string;
  keys?: string;
  timeScale: string;
  profile?: string;
  rateLimits: boolean;
  liquidity: boolean;
  keyPool?: string;
  keyPoolFile: string;
  controls: boolean;
  metrics?: boolean;
  testDelay?: string;
  fault?: string;
  console: boolean;
  choices: 'default' | 'random' | 'mutate';
  seed?: string;
  choicesOut?: string;
  partnerReport?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('Run the stateful reference sandbox (every endpoint, persistent, /v1) until SIGINT/SIGTERM')
    // The env fallbacks let a container image's fixed CMD be steered from outside (the
    // Dockerfile, and `gate --target-image`, which sets them); a flag given wins.
    .addOption(new Option('--port <n>', 'port (0 = any free port)').default('4010').env('LENDCHECK_SANDBOX_PORT'))
    .addOption(new Option('--host <addr>', 'address to listen on').default('127.0.0.1').env('LENDCHECK_SANDBOX_HOST'))
    .option('--db <path>', 'SQLite file (":memory:" for none)', '.lendcheck/sandbox.db')
    .option('--keys <file>', 'key store: JSON array of {key, partnerId, tier?} (else env LENDCHECK_KEYS, else the test keys)')
    .addOption(new Option('--time-scale <n>', 'business seconds per real second').default('1').env('LENDCHECK_TIME_SCALE'))
    .option('--profile <file>', 'profile file (JSON) merged over the defaults')
    .addOption(new Option('--choices <how>', 'the choices at every point the spec leaves "not shown": the defaults (or --profile), or random ones drawn by --seed among those a correct service could make, to play another implementation; mutate: the random draw plus a seeded shape mutator (made-up statuses, codes, bounds and rates path; not-shown bodies with fields nulled, dropped, renamed, nested or added)').choices(['default', 'random', 'mutate']).default('default'))
    .option('--seed <n>', 'with --choices random or mutate: the seed that names the drawn choices (same seed, same profile)')
    .option('--choices-out <file>', 'with --choices random or mutate: write the drawn profile there (JSON, loadable with --profile)')
    .option('--no-rate-limits', 'turn the rate limiter off')
    .option('--key-pool <n[,m]>', 'also mint N Scale test keys over M partners (default 4), written to --key-pool-file for `lendcheck load --keys`')
    .option('--key-pool-file <file>', 'where the minted pool goes (mode 600)', '.lendcheck/key-pool.json')
    .option('--no-liquidity', 'turn the built-in liquidity provider off (orders wait for a counter-order)')
    .option('--metrics', `serve ${METRICS_PATH} in Prometheus text format (requests and latency by endpoint, book depth, outbox backlog, deliveries)`)
    .option('--test-delay <endpoint=ms,…>', 'test only: answer these endpoints this many ms later (e.g. rates.get=200), to see a regression gate fail')
    .option(
      '--fault <name[,name]>',
      `test only, never on by default: give the sandbox deliberate bugs (races, lost updates, webhook-sender bugs) to see a suite catch them; name[:key=value;…] from ${SANDBOX_FAULT_NAMES.join(', ')}`,
    )
    .option('--no-console', 'serve no web console at / and /console')
    .addOption(new Option('--partner-report', 'record what partner code does and serve its partner report at GET /v1/sandbox/partner-report (probes each new webhook subscription with one mis-signed delivery)').env('LENDCHECK_PARTNER_REPORT'))
    .option('--no-controls', 'serve no /v1/sandbox/* controls (404 like any unknown route), as a real partner sandbox: users pre-funded, only crossing orders match; business time at real time unless --time-scale says otherwise (an accelerated partner sandbox)')
    .action(async (o: Opts) => {
      const port = Number(o.port);
      const timeScale = Number(o.timeScale);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: must be 0..65535, got ${o.port}`);
      if (!(timeScale > 0)) throw new Error(`--time-scale: must be > 0, got ${o.timeScale}`);
      const { mintPool, parsePoolSpec } = await import('../load/pool.ts');
      const { DEFAULT_KEYS, KeyStore, loadKeys } = await import('../../sandbox/auth/keys.ts');
      const { startSandbox } = await import('../../sandbox/start.ts');
      const { parseFaultFlag, validateFaults } = await import('../../sandbox/faults/index.ts');
      const profile = await chosenProfile(o);
      const faults = o.fault ? parseFaultFlag(o.fault) : [];
      validateFaults(faults);
      const own = loadKeys(o.keys);
      const pool = o.keyPool ? mintPool(parsePoolSpec(o.keyPool).keys, parsePoolSpec(o.keyPool).partners) : [];
      const keys = pool.length ? [...own, ...pool] : own;
      if (pool.length) {
        const file = resolve(o.keyPoolFile);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(pool, null, 2) + '\n', { mode: 0o600 });
      }
      const dbPath = o.db === ':memory:' ? ':memory:' : resolve(o.db ?? '.lendcheck/sandbox.db');
      // The flags map onto startSandbox's options one to one (sandbox/start.ts sandboxOptions
      // turns them into plugins), so the package's startSandbox is this same sandbox.
      const server = await startSandbox({
        port, host: o.host, db: dbPath, keys, timeScale, profile,
        rateLimits: o.rateLimits, liquidity: o.liquidity, controls: o.controls,
        metrics: o.metrics === true, console: o.console, partnerReport: o.partnerReport === true, ...(o.testDelay ? { testDelay: o.testDelay } : {}),
        ...(faults.length ? { faults } : {}),
        ...(o.choices === 'mutate' ? { mutateShapes: Number(o.seed) } : {}),
      });
      console.log(`lendcheck sandbox listening on ${server.url}`);
      console.log(`  database: ${dbPath}`);
      if (o.console) console.log(`  console: ${new URL('/console', server.url).href} (open it with a key; read-only without one)`);
      if (o.metrics) console.log(`  metrics: ${new URL(METRICS_PATH, server.url).href}`);
      // The plugin's own route (not an endpoint of the spec), as the plugin declares it.
      if (o.partnerReport) console.log(`  partner report: ${new URL((await import('../../sandbox/partner-report/record.ts')).PARTNER_REPORT_PATH, server.url).href}`);
      if (o.testDelay) console.log(`  test delay: ${o.testDelay} (slower on purpose)`);
      if (o.choices !== 'default') console.log(`  choices: ${o.choices}, seed ${o.seed} (profile ${profile.name}${o.choicesOut ? `, written to ${resolve(o.choicesOut)}` : ''})`);
      if (faults.length) console.log(`  FAULTS ON (deliberate bugs, for testing a suite): ${faults.map((f) => f.name).join(', ')}`);
      if (!o.controls) console.log(`  no sandbox controls: users are pre-funded, crossing orders match, time runs at ${timeScale === 1 ? 'real time' : `${timeScale}× real time (--time-scale)`}`);
      if (!LOOPBACK.has(o.host)) console.log(`  warning: listening on ${o.host}, reachable beyond this machine`);
      // The built-in keys are public test keys (like stripe-mock's), so they are printed;
      // keys from a store the user supplied are shown by id only.
      const store = new KeyStore(keys, profile);
      const builtIn = own === DEFAULT_KEYS;
      console.log(builtIn ? '  test keys (Authorization: Bearer <key>):' : '  keys from your key store (shown by id):');
      if (pool.length) console.log(`  key pool: ${pool.length} Scale keys over ${new Set(pool.map((k) => k.partnerId)).size} partners, written to ${resolve(o.keyPoolFile)} (use: lendcheck load --scenario matching --keys FILE)`);
      for (const k of own) {
        const info = store.lookup(k.key)!;
        console.log(`    ${builtIn ? k.key : `key ${info.keyId}`}  partner=${info.partnerId} tier=${info.tier}`);
      }
      await new Promise<void>((done) => {
        const stop = (sig: string) => {
          console.log(`lendcheck sandbox: ${sig}, shutting down`);
          process.off('SIGINT', onInt);
          process.off('SIGTERM', onTerm);
          server.close().then(done, (e) => {
            console.error(`lendcheck sandbox: close failed: ${(e as Error).message}`);
            process.exitCode = 1;
            done();
          });
        };
        const onInt = () => stop('SIGINT');
        const onTerm = () => stop('SIGTERM');
        process.on('SIGINT', onInt);
        process.on('SIGTERM', onTerm);
      });
    });
}

/** The profile the sandbox plays: the defaults, a file's, or one drawn by seed (sandbox/choices/random.ts). */
async function chosenProfile(o: Opts) {
  if (o.choices === 'default') {
    if (o.seed !== undefined || o.choicesOut) throw new Error('--seed and --choices-out go with --choices random or mutate');
    return (await import('../../contract/index.ts')).loadProfile(o.profile);
  }
  if (o.profile) throw new Error(`--choices ${o.choices} draws the whole profile: give --profile or --choices ${o.choices}, not both`);
  const seed = Number(o.seed);
  if (o.seed === undefined || !Number.isSafeInteger(seed)) throw new Error(`--seed: --choices ${o.choices} needs an integer seed, got ${o.seed ?? 'none'}`);
  const profile = o.choices === 'mutate' ? (await import('../../sandbox/choices/mutate-profile.ts')).mutatedProfile(seed) : (await import('../../sandbox/choices/random.ts')).randomProfile(seed);
  if (o.choicesOut) {
    const file = resolve(o.choicesOut);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile, null, 2) + '\n');
  }
  return profile;
}
