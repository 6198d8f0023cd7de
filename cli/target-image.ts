import { routePath } from '../contract/fill-path.ts';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Agent, request } from 'undici';

// --target-image IMAGE: the implementation under test runs as a container (testcontainers)
// and the suites point at its mapped port on loopback. testcontainers is imported only
// when the flag is used: it is a dev dependency and the rest of lendcheck runs without it.

export interface TargetImageOptions {
  image: string;
  /** The port the implementation listens on inside the container. */
  containerPort?: number;
  /** A path under the base URL that answers once the service is ready. */
  readyPath?: string;
  /** Where the API lives under the service root. */
  basePath?: string;
  env?: Record<string, string>;
  startupTimeoutMs?: number;
}

export interface StartedTarget {
  baseUrl: string;
  image: string;
  stop(): Promise<void>;
}

/** Where the Docker engine would answer: DOCKER_HOST (unix:// only) or the default socket. */
export function dockerSocketPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const h = env.DOCKER_HOST;
  if (h?.startsWith('unix://')) return h.slice('unix://'.length);
  if (h) return undefined;
  return '/var/run/docker.sock';
}

/**
 * Whether a container engine answers right now (GET /_ping on its socket); the reason when
 * it does not, so callers and tests can say why they skip.
 */
export async function probeDockerEngine(env: NodeJS.ProcessEnv = process.env): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (env.DOCKER_HOST && !env.DOCKER_HOST.startsWith('unix://')) return { ok: false, reason: `DOCKER_HOST=${env.DOCKER_HOST} is not a unix socket; only local engines are probed` };
  const socketPath = dockerSocketPath(env)!;
  if (!existsSync(socketPath)) return { ok: false, reason: `no Docker engine socket at ${socketPath}` };
  const agent = new Agent({ connect: { socketPath } });
  try {
    const r = await request('http://localhost/_ping', { dispatcher: agent, headersTimeout: 2000, bodyTimeout: 2000 });
    const body = await r.body.text();
    return r.statusCode === 200 && body.trim() === 'OK' ? { ok: true } : { ok: false, reason: `the engine at ${socketPath} answered ${r.statusCode}` };
  } catch (e) {
    return { ok: false, reason: `no Docker engine answers at ${socketPath}: ${(e as Error).message}` };
  } finally {
    await agent.close();
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The base URL the suites use for a container reachable at host:port. */
export function containerBaseUrl(host: string, port: number, basePath = '/v1'): string {
  if (!LOOPBACK.has(host)) throw new Error(`the container's port is published on ${host}, not on loopback: lendcheck only loads loopback targets`);
  const h = host === 'localhost' ? '127.0.0.1' : host;
  return `http://${h}:${port}${basePath.startsWith('/') ? basePath : `/${basePath}`}`.replace(/\/$/, '');
}

export async function startTargetImage(o: TargetImageOptions): Promise<StartedTarget> {
  const port = o.containerPort ?? 8080;
  const basePath = o.basePath ?? '/v1';
  // On the host network a service already on this port would answer the readiness poll and
  // be tested in the image's place: refuse at once instead.
  await assertPortFree(port);
  const engine = await probeDockerEngine();
  if (!engine.ok) throw new Error(`--target-image needs a container engine: ${engine.reason}`);
  const { GenericContainer } = await import('testcontainers');
  // The host's network, not a bridge with a published port: the suites subscribe webhook
  // receivers on the host's 127.0.0.1, which a container behind a bridge cannot reach. The
  // engine is local (probed through its unix socket), so the service's port is the
  // container port on loopback. The LENDCHECK_SANDBOX_* variables keep lendcheck's own image
  // on loopback and on that port (other images ignore them).
  const container = await new GenericContainer(o.image)
    .withNetworkMode('host')
    .withEnvironment({ LENDCHECK_SANDBOX_HOST: '127.0.0.1', LENDCHECK_SANDBOX_PORT: String(port), ...(o.env ?? {}) })
    .withStartupTimeout(o.startupTimeoutMs ?? 60_000)
    .start();
  const baseUrl = containerBaseUrl('127.0.0.1', port, basePath);
  try {
    await waitReady(`http://127.0.0.1:${port}${o.readyPath ?? `${basePath}${routePath('public.markets')}`}`, o.startupTimeoutMs ?? 60_000);
  } catch (e) {
    await container.stop();
    throw e;
  }
  return {
    baseUrl,
    image: o.image,
    stop: async () => {
      await container.stop();
    },
  };
}

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const s = createServer()
      .once('error', (e: NodeJS.ErrnoException) => reject(new Error(`--target-image: port ${port} on this host is already in use (${e.code ?? e.message}); the container shares the host's network, so choose another with --target-port`)))
      .listen(port, '127.0.0.1', () => s.close(() => resolve()));
  });
}

/** Polls until the URL answers below 500; testcontainers' HTTP wait needs a mapped port, absent on the host network. */
async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const r = await request(url, { headersTimeout: 2000, bodyTimeout: 2000 });
      await r.body.dump();
      if (r.statusCode < 500) return;
      last = `status ${r.statusCode}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the --target-image service did not answer ${url} within ${Math.round(timeoutMs / 1000)} s (${last})`);
}
