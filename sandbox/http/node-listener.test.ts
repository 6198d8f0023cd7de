import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app.ts';
import { TestClock } from '../engine/clock.ts';
import { defaultPlugins } from '../plugins.ts';
import { KEY_A, KEY_B, START_MS } from '../testing/helpers.ts';
import type { SandboxRequest } from '../pipeline/request.ts';
import { nodeListener } from './node-listener.ts';

// Through the node:http door, repeated reads are answered by the read-cache stage inside
// dispatch, byte for byte what the route answers; a test that fails when that is lost.

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, key: string, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port, path: `/v1${path}`, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

let open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open) await close();
  open = [];
});

/** Serves `sb`; coreCalls counts the requests that reached a route (not the cache stage). */
async function serve(sb: Sandbox): Promise<{ port: number; coreCalls: () => number }> {
  let calls = 0;
  let hits = 0;
  const cache = sb.readCache;
  if (cache) {
    const get = cache.get.bind(cache);
    cache.get = (partner, target) => {
      const a = get(partner, target);
      if (a) hits++;
      return a;
    };
  }
  const core = (req: SandboxRequest) => {
    calls++;
    return sb.dispatch(req);
  };
  const server: Server = createServer(nodeListener(core));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(async () => {
    await new Promise((r) => server.close(r));
    await sb.close();
  });
  return { port: (server.address() as AddressInfo).port, coreCalls: () => calls - hits };
}

describe('node door: repeated reads from the read-cache stage', () => {
  const sandbox = (opts: Parameters<typeof createSandbox>[0] = {}) =>
    createSandbox({ clock: new TestClock({ startMs: START_MS, realNow: () => 0 }), tickMs: 0, plugins: [], validateResponses: true, ...opts });

  it('answers a repeated GET without the route, byte for byte as the core did, until a write', async () => {
    const { port, coreCalls } = await serve(sandbox({ liquidity: { enabled: false, delaySeconds: 5 } }));
    const lend = await get(port, '/lend', KEY_A, 'POST', JSON.stringify({ userId: 'u1', asset: 'USDC', amount: '10', rate: 0.05, maturity: '90d' }));
    expect(lend.status).toBe(201);
    const id = (JSON.parse(lend.body) as { positionId: string }).positionId;
    for (const path of [`/positions/${id}`, '/users/u1/positions', '/users/u1/positions?limit=1']) {
      const before = coreCalls();
      const first = await get(port, path, KEY_A);
      expect(first.status).toBe(200);
      expect(coreCalls()).toBe(before + 1);
      const again = await get(port, path, KEY_A);
      expect(coreCalls(), `${path}: the repeat reached the core`).toBe(before + 1);
      expect(again).toEqual(first);
    }
    // Another partner never gets partner A's answer (404 from the core, every time).
    const before = coreCalls();
    expect((await get(port, `/positions/${id}`, KEY_B)).status).toBe(404);
    expect((await get(port, `/positions/${id}`, KEY_B)).status).toBe(404);
    expect(coreCalls()).toBe(before + 2);
    // A write empties the cache: the next read comes from the core and shows it.
    await get(port, '/lend', KEY_A, 'POST', JSON.stringify({ userId: 'u1', asset: 'USDC', amount: '2', rate: 0.05, maturity: '30d' }));
    const after = coreCalls();
    const list = await get(port, '/users/u1/positions', KEY_A);
    expect(coreCalls()).toBe(after + 1);
    expect((JSON.parse(list.body) as { positions: unknown[] }).positions).toHaveLength(2);
  });

  it('keeps a view that accrues interest only for the instant it was computed for', async () => {
    const sb = sandbox({ liquidity: { enabled: true, delaySeconds: 5 } });
    const { port, coreCalls } = await serve(sb);
    const lend = await get(port, '/lend', KEY_A, 'POST', JSON.stringify({ userId: 'u2', asset: 'USDC', amount: '1000', rate: 0.1, maturity: '90d' }));
    const id = (JSON.parse(lend.body) as { positionId: string }).positionId;
    sb.clock.advance(10_000); // the built-in liquidity fills it
    const first = await get(port, `/positions/${id}`, KEY_A);
    expect((JSON.parse(first.body) as { status: string }).status).toBe('active');
    const n = coreCalls();
    expect(await get(port, `/positions/${id}`, KEY_A)).toEqual(first);
    expect(coreCalls()).toBe(n);
    sb.clock.advance(86_400_000);
    const later = await get(port, `/positions/${id}`, KEY_A);
    expect(coreCalls()).toBe(n + 1);
    const accrued = (r: Raw) => (JSON.parse(r.body) as { accruedInterest: string }).accruedInterest;
    expect(Number(accrued(later))).toBeGreaterThan(Number(accrued(first)));
  });

  it('is on behind every default plugin, the limiter first: a cached read is counted and carries the limit headers (issue 49)', async () => {
    const { port, coreCalls } = await serve(sandbox({ plugins: defaultPlugins(), liquidity: { enabled: false, delaySeconds: 5 } }));
    const lend = await get(port, '/lend', KEY_A, 'POST', JSON.stringify({ userId: 'u9', asset: 'USDC', amount: '10', rate: 0.05, maturity: '90d' }));
    expect(lend.status).toBe(201);
    const id = (JSON.parse(lend.body) as { positionId: string }).positionId;
    const first = await get(port, `/positions/${id}`, KEY_A);
    const before = coreCalls();
    const again = await get(port, `/positions/${id}`, KEY_A);
    expect(coreCalls(), 'the repeat was answered by the cache').toBe(before);
    expect(again.body).toBe(first.body);
    // The limiter ran around the cached answer: one more request counted, its headers on it.
    const remaining = (r: Raw) => Number(r.headers['x-ratelimit-remaining']);
    expect(Number.isFinite(remaining(first))).toBe(true);
    expect(remaining(again)).toBeLessThan(remaining(first));
    // and the entry kept none of them: a third read gets its own count, not the second's.
    const third = await get(port, `/positions/${id}`, KEY_A);
    expect(remaining(third)).toBeLessThan(remaining(again));
  });

  it('is off under --fault: a planted bug may make a read depend on more than the rows', () => {
    const sb = sandbox({ faults: [{ name: 'stale-read' }] });
    expect(sb.readCache).toBeUndefined();
    return sb.close();
  });
});
