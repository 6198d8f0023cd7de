import { describe, it, expect, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerBaseUrl, dockerSocketPath, probeDockerEngine, startTargetImage } from './target-image.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-docker-'));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(tmp, { recursive: true, force: true });
});

function fakeEngine(answer: (url: string) => [number, string]): Promise<string> {
  const socket = join(tmp, `engine-${servers.length}.sock`);
  const s = createServer((req, res) => {
    const [status, body] = answer(req.url ?? '');
    res.writeHead(status).end(body);
  });
  servers.push(s);
  return new Promise((r) => s.listen(socket, () => r(socket)));
}

describe('--target-image', () => {
  it('finds the engine socket from DOCKER_HOST or the default path', () => {
    expect(dockerSocketPath({})).toBe('/var/run/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toBe('/run/user/1000/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'tcp://10.0.0.2:2375' })).toBeUndefined();
  });

  it('probes an engine by GET /_ping on its socket, and says why when none answers', async () => {
    const ok = await fakeEngine((u) => (u === '/_ping' ? [200, 'OK'] : [404, '']));
    expect(await probeDockerEngine({ DOCKER_HOST: `unix://${ok}` })).toEqual({ ok: true });
    const broken = await fakeEngine(() => [500, 'no']);
    expect(await probeDockerEngine({ DOCKER_HOST: `unix://${broken}` })).toEqual({ ok: false, reason: `the engine at ${broken} answered 500` });
    const absent = join(tmp, 'absent.sock');
    expect(await probeDockerEngine({ DOCKER_HOST: `unix://${absent}` })).toEqual({ ok: false, reason: `no Docker engine socket at ${absent}` });
    expect((await probeDockerEngine({ DOCKER_HOST: 'tcp://10.0.0.2:2375' })).ok).toBe(false);
  });

  it('points the suites at the mapped port on loopback only', () => {
    expect(containerBaseUrl('localhost', 49153)).toBe('http://127.0.0.1:49153/v1');
    expect(containerBaseUrl('127.0.0.1', 49153, 'api/v1/')).toBe('http://127.0.0.1:49153/api/v1');
    expect(() => containerBaseUrl('10.1.2.3', 49153)).toThrow(/not on loopback/);
  });

  it('refuses to start without an engine, naming why', async () => {
    // An absent socket stands for "no engine", whether or not one answers on this machine.
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `unix://${join(tmp, 'no-engine.sock')}`;
    try {
      await expect(startTargetImage({ image: 'lendcheck-sandbox:local' })).rejects.toThrow(/--target-image needs a container engine: no Docker engine socket at /);
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });

  it('refuses a port already in use on the host network, before any container starts', async () => {
    const busy = createNetServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as AddressInfo).port;
    try {
      await expect(startTargetImage({ image: 'lendcheck-sandbox:local', containerPort: port })).rejects.toThrow(new RegExp(`port ${port} on this host is already in use`));
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
  // Starting a real image is tested with the other container runs in cli/containers.test.ts.
});
