// CPU per cached read, several checkouts' sandboxes side by side in one process (issue 42's
// speed bar for the read cache): each serves over node:http on loopback, and batches of N
// pipelined GETs over one raw connection alternate between them, round by round; the process's
// CPU time per request is taken per batch. The last checkout is the reference: each other's
// ratio to it is given as the paired geometric mean of the rounds (adjacent batches share the
// machine's state). Give the reference twice (a copy of its folder) for an A/A control: its ratio
// is the method's own noise on this machine.
// With --plugins default each sandbox runs its default plugins, the spec's limits on (issue 49:
// the read cache on in every door): every batch reads with a Scale key of its own, so each batch
// (1,500 by default there) fits the key's burst of 2,000 and every answer is a 200.
//   node --import tsx bench/sandbox-http/cached-cpu.ts [--which get|list] [--plugins none|default] [--rounds 60] [--n 5000] ROOT... REFERENCE
import { connect } from 'node:net';
import { resolve, join } from 'node:path';
import { parseArgs } from 'node:util';
import { API_VERSION_PREFIX } from '../../contract/constants.ts';
import { routePath } from '../../contract/fill-path.ts';
import { ROUTES } from '../../contract/routes.ts';

const { values: v, positionals } = parseArgs({ allowPositionals: true, options: { which: { type: 'string', default: 'get' }, plugins: { type: 'string', default: 'none' }, rounds: { type: 'string', default: '60' }, n: { type: 'string' } } });
const roots = positionals.map((p) => resolve(p));
if (roots.length < 2) throw new Error('give two or more checkouts, the reference last');
const WITH_PLUGINS = v.plugins === 'default';
const N = Number(v.n ?? (WITH_PLUGINS ? 1500 : 5000));
// Without plugins one key serves every batch; with limits on, a fresh Scale key per batch.
const KEYS = Array.from({ length: WITH_PLUGINS ? 2 * Number(v.rounds) + 4 : 1 }, (_, i) => (WITH_PLUGINS ? `ck_test_bench_${i}_scale` : 'ck_test_partner_a_scale'));
const KEY = KEYS[0]!;

interface Served { root: string; port: number; target: string; batches: number }
const served: Served[] = [];
for (const root of roots) {
  const { startSandboxServer } = (await import(join(root, 'sandbox', 'server.ts'))) as typeof import('../../sandbox/server.ts');
  const { defaultPlugins } = (await import(join(root, 'sandbox', 'plugins.ts'))) as typeof import('../../sandbox/plugins.ts');
  const keys = KEYS.map((key) => ({ key, partnerId: 'partner_a', tier: 'scale' }));
  const s = await startSandboxServer({ port: 0, dbPath: ':memory:', plugins: WITH_PLUGINS ? defaultPlugins() : [], keys, liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
  const h = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  let first = '';
  // One position to read and a user with 50 to list, as bench/sandbox-http.ts seeds them.
  for (let i = 0; i < 50; i++) {
    const r = (await fetch(`${s.url}${routePath('lend.create')}`, { method: 'POST', headers: h, body: JSON.stringify({ userId: 'bench-reader', asset: 'USDC', amount: '10', rate: 0.2, maturity: '180d' }) }).then((x) => x.json())) as { positionId: string };
    first ||= r.positionId;
  }
  served.push({ root, port: Number(new URL(s.url).port), target: API_VERSION_PREFIX + (v.which === 'list' ? routePath('positions.list', { userId: 'bench-reader' }) : routePath('position.get', { positionId: first })), batches: 1 });
}

/** N GETs pipelined on one connection, at most 64 unanswered; resolves when N answers came. */
function batch(s: Served): Promise<void> {
  return new Promise((done, fail) => {
    // Under limits each batch reads with a key of its own (the seeding used the first).
    const key = WITH_PLUGINS ? KEYS[s.batches++ % KEYS.length]! : KEY;
    const req = `GET ${s.target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    const sock = connect(s.port, '127.0.0.1');
    let seen = 0;
    let sent = 0;
    const pump = () => {
      while (sent < N && sent - seen < 64) {
        sock.write(req);
        sent++;
      }
    };
    sock.on('connect', pump);
    sock.on('data', (d: Buffer) => {
      for (let i = d.indexOf('HTTP/1.1 200'); i !== -1; i = d.indexOf('HTTP/1.1 200', i + 1)) seen++;
      if (d.includes('HTTP/1.1 429')) fail(new Error(`a batch met a 429 (${s.root}): a batch must fit one key's burst`));
      if (seen >= N) {
        sock.destroy();
        done();
      } else pump();
    });
    sock.on('error', fail);
  });
}

const cpu: number[][] = served.map(() => []);
for (const s of served) await batch(s); // warm-up: JIT, the read cache filled
for (let round = 0; round < Number(v.rounds); round++) {
  const order = round % 2 ? [...served.keys()].reverse() : [...served.keys()];
  for (const i of order) {
    const c0 = process.cpuUsage();
    await batch(served[i]!);
    const c = process.cpuUsage(c0);
    cpu[i]!.push((c.user + c.system) / N);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const ref = cpu.length - 1;
const label = (id: 'positions.list' | 'position.get') => `${ROUTES[id].method} ${ROUTES[id].path}`;
console.log(`cached ${label(v.which === 'list' ? 'positions.list' : 'position.get')}${WITH_PLUGINS ? ' (default plugins, limits on)' : ''}: ${v.rounds} rounds of ${N} pipelined requests, µs of CPU per request (median)`);
served.forEach((s, i) => {
  const r = cpu[i]!.map((x, k) => x / cpu[ref]![k]!);
  const g = Math.exp(r.reduce((a, x) => a + Math.log(x), 0) / r.length);
  console.log(`  ${s.root}: ${med(cpu[i]!).toFixed(1)} µs${i === ref ? ' (reference)' : `, ${g.toFixed(3)} × the reference (paired geometric mean)`}`);
});
process.exit(0);
