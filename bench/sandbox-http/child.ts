import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { poolKeys } from '../lib/key-pool.ts';

// The child side of bench/sandbox-http.ts: one server (bare node:http, the sandbox, or the
// sandbox behind its fetch door over node:http, sandbox/http/fetch-listener.ts), its URL on stdout, and V8's CPU profiler on
// request. Each server runs in its own process so the load generator never shares its loop.

/** The plugins of a sandbox child, imported from the checkout at `root` (--against). */
export async function sandboxPlugins(root: string, names: string): Promise<unknown[]> {
  if (names === 'none') return [];
  const want = new Set(names.split(','));
  const out: unknown[] = [];
  if (want.has('metrics')) out.push((await import(join(root, 'sandbox', 'metrics', 'plugin.ts'))).metricsPlugin());
  if (want.has('default')) out.push(...(await import(join(root, 'sandbox', 'plugins.ts'))).defaultPlugins({ webhooks: false }));
  return out;
}

export async function serve(kind: string, dbPath: string, root: string, pluginNames: string): Promise<void> {
  const plugins = (await sandboxPlugins(root, pluginNames)) as [];
  const nKeys = Number(process.env.LENDCHECK_BENCH_KEYS ?? 0);
  const keys = nKeys > 0 ? poolKeys(nKeys) : undefined;
  if (kind === 'bare') {
    const { startBare } = await import('../lib/peers.ts');
    console.log(`URL ${(await startBare()).base}/v1`);
  } else if (kind === 'sandbox-before') {
    const { createServer } = await import('node:http');
    const { fetchListener } = await import('../../sandbox/http/fetch-listener.ts');
    const { createSandbox } = await import('../../sandbox/app.ts');
    const sb = createSandbox({ dbPath, plugins: [], liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
    const server = createServer(fetchListener((req, env) => sb.fetch(req, env)));
    server.listen(0, '127.0.0.1', () => console.log(`URL http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/v1`));
    process.on('SIGTERM', () => {
      server.close(() => {
        sb.close().then(() => process.exit(0), (e: unknown) => (console.error(e), process.exit(1)));
      });
    });
  } else {
    const { startSandboxServer } = (await import(join(root, 'sandbox', 'server.ts'))) as typeof import('../../sandbox/server.ts');
    const s = await startSandboxServer({ port: 0, dbPath, plugins, keys, liquidity: { enabled: false, delaySeconds: 5 }, validateResponses: false });
    console.log(`URL ${s.url}`);
    process.on('SIGTERM', () => {
      s.close().then(() => process.exit(0), (e: unknown) => (console.error(e), process.exit(1)));
    });
    if (process.send) profileOnRequest();
  }
}

/** The parent says 'start' and 'stop' over IPC; the profile goes back as the reply to 'stop'. */
function profileOnRequest(): void {
  const session = new Session();
  session.connect();
  process.on('message', (m: string) => {
    answer(m).catch((e: unknown) => console.error(`profiler: ${String(e)}`));
  });
  async function answer(m: string) {
    if (m === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      process.send!({ started: true });
    } else if (m === 'stop') {
      const { profile } = await session.post('Profiler.stop');
      process.send!({ profile });
    }
  }
}
