// The three ways a partner runs the sandbox in its own tests, side by side in one run:
// lendcheck/msw (in process, no port), startSandbox (in process, on a port) and the container
// (lendcheck/testcontainers). For each: the set-up cost (a ready sandbox, then closed) and the
// time of one test's scenario on it (lend, a crossing borrow that matches, a position read,
// the clock moved 31 days, the read again, a withdrawal; all over fetch). The msw way also
// shows the first sandbox of the process apart: it builds the per-profile table and the
// database image that later sandboxes share. The ways alternate by round, so load from other
// work falls on all of them alike; figures are medians.
//
// Run: node --import tsx bench/partner-ways.ts [rounds=5] [per-round=20]
// The container way runs when LENDCHECK_CONTAINERS=1 and an engine answers (DOCKER_HOST or
// the default socket; `eval "$(bash scripts/setup-podman.sh)"` makes one with podman), with
// the image lendcheck-sandbox:local built (`docker build -t lendcheck-sandbox:local .`, or
// LENDCHECK_IMAGE naming another); otherwise the run says why it left it out.

import os from 'node:os';
import { setupServer } from 'msw/node';
import { createMswSandbox } from '../sandbox/msw/index.ts';
import { startSandbox } from '../sandbox/start.ts';
import { routePath } from '../contract/fill-path.ts';
import { ROUTES, type RouteId } from '../contract/routes.ts';

/** An endpoint whose path the route list fixes (not the profile's get-rates path). */
type PathId = Parameters<typeof routePath>[0];

const ROUNDS = Number(process.argv[2] ?? 5);
const PER_ROUND = Number(process.argv[3] ?? 20);

interface Target {
  baseUrl: string;
  key: string;
  advance(seconds: number): Promise<void>;
}

let n = 0;
async function scenario(t: Target): Promise<void> {
  const call = async (id: RouteId & PathId, params: Record<string, string>, body?: unknown) => {
    const { method } = ROUTES[id];
    const path = routePath(id, params);
    const r = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: expected 2xx / received ${r.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const u = `bench_${process.pid}_${++n}`;
  // No rollover: on a shared sandbox a rolled lend would stay in the book and take the next test's borrow.
  const lend = await call('lend.create', {}, { userId: `${u}_l`, asset: 'USDC', amount: '1000', rate: 0.05, maturity: '30d', autoRollover: false });
  await call('borrow.create', {}, { userId: `${u}_b`, collateral: { asset: 'ETH', amount: '10' }, borrowAsset: 'USDC', borrowAmount: '1000', rate: 0.06, maturity: '30d' });
  // A sandbox on a port may match on its next turn: read until active (bounded).
  for (let i = 0; ; i++) {
    const p = await call('position.get', { positionId: lend.positionId as string });
    if (p.status === 'active') break;
    if (i === 500) throw new Error(`expected the crossing borrow to match / received status ${String(p.status)} after ${i} reads`);
    await new Promise((r) => setTimeout(r, 2));
  }
  await t.advance(31 * 86_400);
  const later = await call('position.get', { positionId: lend.positionId as string });
  if (!/matured|rolled/.test(String(later.status))) throw new Error(`expected matured after 31 days / received ${String(later.status)}`);
  await call('user.withdraw', { userId: `${u}_s` }, { asset: 'USDC', amount: '10', destination: '0x000000000000000000000000000000000000dEaD' });
}

const ms = (t0: number) => performance.now() - t0;
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1] ?? Number.NaN;

interface Way {
  name: string;
  setup: number[];
  perTest: number[];
  round(): Promise<void>;
}

// --- msw: one msw server per file, one sandbox per test (the isolated case) ---------------
const mswServer = setupServer();
let firstMsw = Number.NaN;
{
  const t0 = performance.now();
  await createMswSandbox().close();
  firstMsw = ms(t0);
}
const msw: Way = {
  name: 'lendcheck/msw (sandbox per test)',
  setup: [],
  perTest: [],
  async round() {
    mswServer.listen({ onUnhandledRequest: 'error' });
    try {
      for (let i = 0; i < PER_ROUND; i++) {
        let t0 = performance.now();
        const sb = createMswSandbox();
        await sb.close();
        this.setup.push(ms(t0));
        const s = createMswSandbox();
        mswServer.use(...s.handlers);
        t0 = performance.now();
        await scenario({ baseUrl: s.baseUrl, key: s.key('partner_a', 'growth'), advance: (sec) => s.clock.advance(sec * 1000) });
        this.perTest.push(ms(t0));
        mswServer.resetHandlers();
        await s.close();
      }
    } finally {
      mswServer.close();
    }
  },
};

// --- startSandbox: one sandbox on a port (a globalSetup), shared by the tests -------------
const started: Way = {
  name: 'startSandbox (port, shared)',
  setup: [],
  perTest: [],
  async round() {
    const t0 = performance.now();
    const s = await startSandbox({ port: 0, liquidity: false });
    const key = s.keys.find((k) => k.partnerId === 'partner_a' && k.tier === 'growth')!.key;
    const advance = async (seconds: number) => {
      const r = await fetch(`${s.url}${routePath('sandbox.clock.advance')}`, { method: ROUTES['sandbox.clock.advance'].method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });
      if (r.status >= 300) throw new Error(`clock advance: ${r.status} ${await r.text()}`);
    };
    const setupMs = ms(t0);
    for (let i = 0; i < PER_ROUND; i++) {
      const t1 = performance.now();
      await scenario({ baseUrl: s.url, key, advance });
      this.perTest.push(ms(t1));
    }
    const t2 = performance.now();
    await s.close();
    this.setup.push(setupMs + ms(t2));
  },
};

// --- the container ---------------------------------------------------------------------------
async function containerWay(): Promise<Way | string> {
  if (process.env.LENDCHECK_CONTAINERS !== '1') return 'left out: set LENDCHECK_CONTAINERS=1 with a container engine and the lendcheck-sandbox:local image';
  const { LendcheckSandboxContainer, DEFAULT_SANDBOX_IMAGE } = await import('../sandbox/testcontainers/index.ts');
  console.log(`container way: image ${DEFAULT_SANDBOX_IMAGE}`);
  const way: Way = {
    name: 'container (testcontainers, shared)',
    setup: [],
    perTest: [],
    async round() {
      const t0 = performance.now();
      // The module's default: a mapped port on the engine's network, as a partner's test gets it.
      const c = await new LendcheckSandboxContainer().withSandboxArgs('--no-liquidity').start();
      const setupMs = ms(t0);
      const key = c.key('partner_a', 'growth');
      for (let i = 0; i < PER_ROUND; i++) {
        const t1 = performance.now();
        await scenario({ baseUrl: c.getBaseUrl(), key, advance: async (s) => void (await c.advanceClock(s)) });
        this.perTest.push(ms(t1));
      }
      const t2 = performance.now();
      await c.stop();
      this.setup.push(setupMs + ms(t2));
    },
  };
  return way;
}

const container = await containerWay();
const ways = [msw, started, ...(typeof container === 'string' ? [] : [container])];
for (let r = 0; r < ROUNDS; r++) for (const w of ways) await w.round();

const f = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0)).padStart(8);
console.log(`partner ways: ${ROUNDS} rounds × ${PER_ROUND} tests, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version}`);
// Each way against the msw way, the cheapest: how many times its set-up and its test cost.
const ratio = (x: number, of: number) => `×${(x / of).toFixed(x / of < 10 ? 1 : 0)}`.padStart(8);
console.log(`${'way'.padEnd(36)} ${'set-up ms'.padStart(10)} ${'vs msw'.padStart(8)} ${'per test ms'.padStart(12)} ${'vs msw'.padStart(8)}`);
for (const w of ways) {
  const [s, t] = [median(w.setup), median(w.perTest)];
  console.log(`${w.name.padEnd(36)} ${f(s).padStart(10)} ${ratio(s, median(msw.setup))} ${f(t).padStart(12)} ${ratio(t, median(msw.perTest))}`);
}
console.log(`first msw sandbox of the process (builds the shared table and image): ${firstMsw.toFixed(1)} ms`);
if (typeof container === 'string') console.log(`container way: ${container}`);
