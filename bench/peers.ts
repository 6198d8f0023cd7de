import { fileURLToPath } from 'node:url';
import { runK6, type K6Figures } from './lib/k6.ts';
import { startBare, startPrism, type Peer } from './lib/peers.ts';
import { startSandboxServer } from '../sandbox/server.ts';
import { fillPath, routePath } from '../contract/fill-path.ts';
import { ROUTES, type RouteId } from '../contract/routes.ts';

// The sandbox beside its peers under the same k6 constant-arrival-rate load, one endpoint
// at a time, all in one run (these machines are noisy, so only ratios are comparable).
// Usage: node --import tsx bench/peers.ts [--rate 3000] [--duration 10s] [--json FILE]

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const RATE = arg('rate', '3000');
const DURATION = arg('duration', '10s');
const script = fileURLToPath(new URL('./k6/endpoint-rate.ts', import.meta.url));
const openapi = fileURLToPath(new URL('../contract/openapi/openapi.json', import.meta.url));

interface Case {
  name: string;
  /** The endpoint (the route list's method, path and access); its `{positionId}` and `{userId}` are filled per target. */
  endpoint: RouteId;
  body?: string;
}

const CASES: Case[] = [
  { name: 'GET /positions/{id}', endpoint: 'position.get' },
  { name: `${ROUTES['positions.list'].method} ${ROUTES['positions.list'].path}`, endpoint: 'positions.list' },
  {
    name: 'POST /lend',
    endpoint: 'lend.create',
    // A fresh user per VU keeps orders from running out of starting funds.
    body: JSON.stringify({ userId: 'bench_{{VU}}', asset: 'USDC', amount: '1.5', rate: 0.05, maturity: '30d' }),
  },
  { name: 'GET /markets (public)', endpoint: 'public.markets' },
];

async function main() {
  const key = 'ck_test_partner_a_scale';
  const sandbox = await startSandboxServer({ port: 0, plugins: [] });
  const seed = await fetch(`${sandbox.url}${routePath('lend.create')}`, {
    method: ROUTES['lend.create'].method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: 'bench_reader', asset: 'USDC', amount: '10', rate: 0.05 }),
  });
  const positionId = ((await seed.json()) as { positionId: string }).positionId;
  const peers: Array<Peer & { fill: (p: string) => string }> = [
    { name: 'lendcheck sandbox', base: sandbox.url, close: () => sandbox.close(), fill: (p) => fillPath(p, { positionId, userId: 'bench_reader' }) },
    { ...(await startBare()), fill: (p) => p },
    { ...(await startPrism(openapi)), fill: (p) => fillPath(p, { positionId: 'pos_1', userId: 'user_1' }) },
  ];
  const rows: Array<{ case: string; peer: string } & K6Figures> = [];
  try {
    for (const c of CASES) {
      for (const peer of peers) {
        const f = await runK6(script, {
          TARGET: peer.base,
          PATH_: peer.fill(ROUTES[c.endpoint].path),
          METHOD: ROUTES[c.endpoint].method,
          BODY: c.body ?? '',
          KEY: ROUTES[c.endpoint].access !== 'public' ? key : '',
          RATE,
          DURATION,
        });
        rows.push({ case: c.name, peer: peer.name, ...f });
        console.error(`${c.name.padEnd(32)} ${peer.name.padEnd(18)} ${f.achievedRps.toFixed(0)} req/s p50 ${f.p50Ms.toFixed(2)} ms p99 ${f.p99Ms.toFixed(2)} ms failed ${(f.failedRate * 100).toFixed(1)}% dropped ${f.dropped}`);
      }
    }
  } finally {
    for (const p of peers) await p.close();
  }
  const table = CASES.map((c) => {
    const by = (n: string) => rows.find((r) => r.case === c.name && r.peer.startsWith(n))!;
    const s = by('lendcheck');
    const b = by('bare');
    const p = by('prism');
    return {
      endpoint: c.name,
      sandboxRps: +s.achievedRps.toFixed(0),
      sandboxP50: +s.p50Ms.toFixed(2),
      sandboxP99: +s.p99Ms.toFixed(2),
      vsBareRps: +(s.achievedRps / b.achievedRps).toFixed(2),
      vsBareP99: +(s.p99Ms / b.p99Ms).toFixed(2),
      vsPrismRps: +(s.achievedRps / p.achievedRps).toFixed(2),
      vsPrismP99: +(s.p99Ms / p.p99Ms).toFixed(2),
    };
  });
  console.table(table);
  const out = { rate: Number(RATE), duration: DURATION, rows, table };
  const jsonFile = arg('json', '');
  if (jsonFile) (await import('node:fs')).writeFileSync(jsonFile, JSON.stringify(out, null, 2));
  return out;
}

await main();
