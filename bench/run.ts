import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench`: every benchmark and drill, one after another (never in parallel: they
// would measure each other), each one's whole output kept in lendcheck-reports/bench/.
// Every script measures its own baseline in the same run and prints ratios.
//   npm run bench                  the standard set (about 25 minutes on 2 cores)
//   npm run bench -- --long        adds the 30-minute long run
//   npm run bench -- --only a,b    just these steps

interface Step {
  name: string;
  script: string;
  args: string[];
  what: string;
}

const STEPS: Step[] = [
  { name: 'peers', script: 'peers.ts', args: ['--rate', '3000', '--duration', '10s', '--json', 'peers.json'], what: 'sandbox vs bare node:http vs Prism, k6 constant arrival rate per endpoint' },
  { name: 'sandbox-http', script: 'sandbox-http.ts', args: ['--seconds', '5', '--slices', '5', '--rounds', '3', '--plugins', 'default,metrics', '--endpoints', 'get,list,lend,429,401', '--against-ref', 'a7082ae', '--profile'], what: 'sandbox GET, list, POST /lend (file database), 429 and 401 with limits (key pool) and metrics on: req/s, p50/p99 and CPU per request vs a bare node:http handler, 3 rounds of 5 alternating slices, beside the sandbox before issue 27 (a7082ae); then where its CPU goes (V8 profile)' },
  // With limits on, an unknown key draws from the public bucket and is answered 429 after its
  // burst, so the step above measures few 401s; this one serves without the limiter.
  { name: 'sandbox-401', script: 'sandbox-http.ts', args: ['--seconds', '5', '--slices', '5', '--rounds', '3', '--plugins', 'metrics', '--endpoints', 'get,401'], what: 'a 401 for an unknown key beside a successful GET, limits off and metrics on (every unknown-key answer a 401), slices alternating with bare node:http, 3 rounds' },
  { name: 'mixed', script: 'mixed.ts', args: ['--rate', '400', '--seconds', '20', '--against-ref', 'a7082ae', '--json', 'mixed.json'], what: "k6's mixed scenario against the default sandbox (limits on through a key pool, metrics on) beside the sandbox before issue 27 (commit a7082ae) and bare node:http: req/s and p99 per endpoint" },
  { name: 'matching-load', script: 'matching-load.ts', args: ['--keys', '40', '--partners', '4', '--json', 'matching-load.json'], what: 'highest sustained order rate through a pool of 40 keys over 4 partners (rate limits on) with p99 time-to-match from webhooks < 100 ms, beside the single-key ceiling' },
  { name: 'matching', script: 'matching.ts', args: ['--json', 'matching.json'], what: 'matching cost at depth 1k vs 100k (book and engine)' },
  { name: 'limiter', script: 'limiter.ts', args: [], what: 'ns per rate-limit check vs a Map get+set' },
  { name: 'dispatcher', script: 'dispatcher.ts', args: [], what: 'webhook deliveries/s vs plain undici POSTs' },
  { name: 'receiver', script: 'receiver.ts', args: [], what: 'chaos receiver deliveries/s vs a bare node:http server' },
  { name: 'conformance', script: 'conformance.ts', args: ['3'], what: 'conformance suite wall time vs plain sequential requests' },
  { name: 'k6-ceiling', script: 'k6-ceiling.ts', args: [], what: "k6's req/s vs wrk on one endpoint" },
  { name: 'sandbox-kill', script: 'drills/sandbox-kill.ts', args: ['--cycles', '10', '--json', 'sandbox-kill.json'], what: 'SIGKILL the sandbox mid mixed load with webhook retries pending, 10 cycles: lost, duplicated, redelivered, checker violations' },
  { name: 'receiver-restart', script: 'drills/receiver-restart.ts', args: ['--restarts', '5', '--json', 'receiver-restart.json'], what: 'restart the chaos receiver 5 times (SIGKILL/SIGTERM) mid-stream at 300 events/s: lost, invented, undelivered, drain time' },
  { name: 'long-run', script: 'long-run.ts', args: ['--minutes', '30', '--json', 'long-run.json'], what: 'mixed load for 30 minutes: memory and latency slopes' },
];

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1]!.split(',') : undefined;
const long = argv.includes('--long');
const outDir = join(process.cwd(), 'lendcheck-reports', 'bench');
mkdirSync(outDir, { recursive: true });

function run(step: Step): Promise<{ code: number | null; seconds: number }> {
  const t0 = performance.now();
  const args = step.args.map((a) => (a.endsWith('.json') ? join(outDir, a) : a));
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${step.script}`, import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (d: Buffer) => {
      out += String(d);
      process.stdout.write(d);
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    p.on('exit', (code) => {
      writeFileSync(join(outDir, `${step.name}.log`), out);
      resolve({ code, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

const chosen = STEPS.filter((s) => (only ? only.includes(s.name) : s.name !== 'long-run' || long));
const summary: Array<{ step: string; exit: number | null; seconds: number; what: string }> = [];
for (const s of chosen) {
  console.log(`\n=== ${s.name}: ${s.what}`);
  const r = await run(s);
  summary.push({ step: s.name, exit: r.code, seconds: Math.round(r.seconds), what: s.what });
}
console.log('\n=== summary (full outputs in lendcheck-reports/bench/)');
console.table(summary);
writeFileSync(join(outDir, 'summary.json'), JSON.stringify({ at: new Date().toISOString(), summary }, null, 2));
process.exitCode = summary.some((s) => s.exit !== 0) ? 1 : 0;
