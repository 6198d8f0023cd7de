// The read cache on and off in one sandbox of the default plugins (the spec's limits on): batches
// of pipelined GET /positions/{id} over a raw connection, each with a Scale key of its own (a
// batch fits its burst), alternating the cache on and bypassed; CPU per request of the process,
// paired geometric mean of the rounds (issue 49: the cache behind the limiter, in every door).
//   node --import tsx bench/sandbox-http/cache-on-off.ts
import { connect } from 'node:net';
import { API_VERSION_PREFIX } from '../../contract/constants.ts';
import { routePath } from '../../contract/fill-path.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
const keys = Array.from({ length: 100 }, (_, i) => ({ key: `ck_test_b_${i}_scale`, partnerId: 'partner_a', tier: 'scale' }));
const s = await startSandboxServer({ port: 0, dbPath: ':memory:', plugins: defaultPlugins(), keys, liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
const h = { authorization: `Bearer ${keys[0]!.key}`, 'content-type': 'application/json' };
const r = (await fetch(`${s.url}${routePath('lend.create')}`, { method: 'POST', headers: h, body: JSON.stringify({ userId: 'u', asset: 'USDC', amount: '10', rate: 0.2, maturity: '180d' }) }).then((x) => x.json())) as { positionId: string };
const cache = s.sandbox.readCache!;
const port = Number(new URL(s.url).port);
let k = 1;
function batch(N: number): Promise<void> {
  const key = keys[k++]!.key;
  return new Promise((done, fail) => {
    const req = `GET ${API_VERSION_PREFIX}${routePath('position.get', r)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    const sock = connect(port, '127.0.0.1'); let seen = 0, sent = 0;
    const pump = () => { while (sent < N && sent - seen < 64) { sock.write(req); sent++; } };
    sock.on('connect', pump);
    sock.on('data', (d: Buffer) => { for (let i = d.indexOf('HTTP/1.1 200'); i !== -1; i = d.indexOf('HTTP/1.1 200', i + 1)) seen++; if (d.includes('HTTP/1.1 429')) fail(new Error('429')); if (seen >= N) { sock.destroy(); done(); } else pump(); });
    sock.on('error', fail);
  });
}
async function cpu(n: number) { const c0 = process.cpuUsage(); await batch(n); const c = process.cpuUsage(c0); return (c.user + c.system) / n; }
await cpu(1500);
const on: number[] = [], off: number[] = [];
for (let i = 0; i < 30; i++) { cache.bypass = false; on.push(await cpu(1500)); cache.bypass = true; off.push(await cpu(1500)); }
const g = Math.exp(on.reduce((a, x, i) => a + Math.log(x / off[i]!), 0) / on.length);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[15]!;
console.log(`cached read, default plugins, limits on: cache on ${med(on).toFixed(1)} µs, off (bypass) ${med(off).toFixed(1)} µs; on/off ${g.toFixed(3)} (paired geometric mean, 30 rounds of 1500)`);
process.exit(0);
