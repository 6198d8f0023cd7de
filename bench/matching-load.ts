// Benchmark (not a test): the highest sustained order rate a key pool carries through the
// reference sandbox with rate limits on, at which p99 time-to-match (from signed
// position.matched webhooks) stays under 100 ms, beside the single-key ceiling measured in the
// same run (one Scale key, time-to-match by polling, as the matching scenario did before).
// "Sustained": the single key's bucket is drained before its run, so it gets its tier's rate,
// not its burst; the pool's keys are not drained, but each key's request rate over the run is
// measured and a step holds only if the busiest key stayed below its tier's sustained rate.
//
//   node --import tsx bench/matching-load.ts [--keys 40] [--partners 4] [--rates 200,400,500,600]
//                                            [--seconds 20] [--json out.json]
//
// The sandbox runs in its own process (`lendcheck sandbox`, a file database, rate limits on,
// the built-in liquidity provider off so every match is lend meets borrow); k6 and
// lendcheck's receiver run beside it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { defaultProfile, resolveCall } from '../contract/index.ts';
import { runLoad } from '../cli/load/run.ts';
import { keyRate, mintPool, type PoolKey } from '../cli/load/pool.ts';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '40' },
    partners: { type: 'string', default: '4' },
    rates: { type: 'string', default: '200,400,500,600' },
    seconds: { type: 'string', default: '20' },
    json: { type: 'string' },
  },
});
const TTM_P99_LIMIT = 100;
const MIN_MATCH_RATIO = 0.99;
const seconds = Number(values.seconds);
const pool = mintPool(Number(values.keys), Number(values.partners));
const single: PoolKey = mintPool(1, 1, 'scale', 'single')[0];
const dir = mkdtempSync(join(tmpdir(), 'lc-bench-matching-'));
const keyFile = join(dir, 'keys.json');
writeFileSync(keyFile, JSON.stringify([...pool, single]), { mode: 0o600 });

/** A fresh sandbox per run: orders one run leaves resting would otherwise fill the next run's. */
function startSandbox(name: string): Promise<{ child: ChildProcess; url: string }> {
  const bin = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--db', join(dir, `${name}.db`), '--keys', keyFile, '--time-scale', '60', '--no-liquidity'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

/** Empties each key's bucket: cheap keyed reads until the limiter answers 429. */
async function drain(url: string, keys: PoolKey[]): Promise<number> {
  const u = new URL(url);
  const http = new Pool(u.origin, { connections: 32 });
  let sent = 0;
  await Promise.all(keys.map(async (k) => {
    for (let limited = false; !limited; ) {
      const batch = await Promise.all(Array.from({ length: 50 }, () =>
        http.request({ method: 'GET', path: `${u.pathname}${resolveCall(defaultProfile, 'rates.get').path}`, headers: { authorization: `Bearer ${k.key}` } }).then(async (r) => (await r.body.dump(), r.statusCode))));
      sent += batch.length;
      limited = batch.includes(429);
    }
  }));
  await http.close();
  return sent;
}

const r2 = (n: number) => Math.round(n * 100) / 100;
let sb = await startSandbox('single');
const stop = () => sb.child.kill('SIGTERM');
process.once('SIGINT', () => (stop(), process.exit(130)));
async function fresh(name: string): Promise<void> {
  stop();
  await new Promise((r) => sb.child.once('exit', r));
  sb = await startSandbox(name);
}
try {
  const budget = pool.reduce((s, k) => s + keyRate(k), 0);
  console.log(`matching load — a fresh sandbox per run (own process, file database, rate limits on, time scale 60)`);
  console.log(`pool: ${pool.length} Scale keys over ${values.partners} partners, sustained budget ${r2(budget)} requests/s; single key: 1 Scale key (${r2(keyRate(single))}/s)`);

  // The single-key ceiling: one key, polling, offered more than the tier carries.
  let t = performance.now();
  const drainedSingle = await drain(sb.url, [single]);
  console.log(`\nsingle key: drained its bucket (${drainedSingle} requests, ${r2((performance.now() - t) / 1000)} s); 10 orders/s per side offered for ${seconds} s, time-to-match by polling`);
  const one = await runLoad({
    scenario: 'matching', baseUrl: sb.url, apiKey: single.key, tier: 'scale', matchBy: 'polling', reportDir: join(dir, 'single'),
    env: { ORDERS_PER_SECOND: '10', MATCHING_SECONDS: String(seconds), MARKETS: '4', MATCH_TIMEOUT_SECONDS: '10', POLL_SECONDS: '1' },
  });
  const singleCeiling = Number(one.figures.ordersMatched) / seconds;
  console.log(`single key: ${one.figures.ordersMatched} of ${one.figures.orders} orders matched in ${seconds} s = ${r2(singleCeiling)} orders/s; time-to-match p99 ${one.figures['time to match p99 ms']} ms (floor: the 1 s poll)`);

  const steps = [];
  for (const rate of values.rates!.split(',').map(Number)) {
    await fresh(`pool-${rate}`);
    t = performance.now();
    // The pool is not drained (40 buckets of 2,000 take minutes to empty here): each key's own
    // request rate is measured instead and must stay below its tier's sustained rate.
    const r = await runLoad({
      scenario: 'matching', baseUrl: sb.url, pool, matchBy: 'webhooks', reportDir: join(dir, `pool-${rate}`),
      env: { ORDERS_PER_SECOND: String(rate / 2), MATCHING_SECONDS: String(seconds), MARKETS: '4', TTM_P99_MS: String(TTM_P99_LIMIT), MIN_MATCH_RATIO: String(MIN_MATCH_RATIO) },
    }).catch((e: Error) => ({ status: 'failed', figures: { error: e.message } as Record<string, number | string> }));
    const f = r.figures;
    const p99 = Number(f['time to match p99 ms']);
    const ok = p99 < TTM_P99_LIMIT && Number(f.matchRatio) >= MIN_MATCH_RATIO && Number(f.ordersPerSecond) >= rate * 0.95 && Number(f.rejected429 ?? 0) === 0 && Number(f.busiestKeyShareOfTier) < 1;
    steps.push({ offered: rate, ok, figures: f });
    console.log(
      `pool @ ${rate} orders/s (${r2((performance.now() - t) / 1000)} s): achieved ${f.ordersPerSecond} orders/s, ` +
        `time-to-match p50/p95/p99 ${f['time to match p50 ms']}/${f['time to match p95 ms']}/${p99} ms, match ratio ${f.matchRatio}, 429s ${f.rejected429}, ` +
        `busiest key at ${f.busiestKeyShareOfTier} of its tier → ${ok ? 'holds' : 'does not hold'}${'error' in f ? ` (${String(f.error)})` : ''}`,
    );
  }
  const best = steps.filter((s) => s.ok).map((s) => Number(s.figures.ordersPerSecond)).sort((a, b) => b - a)[0];
  console.log(`\nhighest sustained rate with p99 time-to-match < ${TTM_P99_LIMIT} ms and match ratio ≥ ${MIN_MATCH_RATIO * 100} %: ${best ?? 'none'} orders/s` +
    (best ? ` = ${r2(best / singleCeiling)}× the single-key ceiling (${r2(singleCeiling)} orders/s) measured above` : ''));
  if (values.json) writeFileSync(values.json, JSON.stringify({ pool: { keys: pool.length, partners: Number(values.partners), budget }, single: { ceiling: singleCeiling, figures: one.figures }, steps, best: best ?? null, ratio: best ? best / singleCeiling : null }, null, 2));
} finally {
  stop();
  await new Promise((r) => sb.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
