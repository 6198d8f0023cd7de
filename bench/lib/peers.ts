import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { routePath } from '../../contract/fill-path.ts';
import { PRISM_VERSION, prismBin } from '../../conformance/prism/bin.ts';

// The peers the sandbox is measured beside: a bare node:http handler (Node's ceiling)
// and Prism mocking contract/openapi/openapi.json (the stateless mock partners use today).

export interface Peer {
  name: string;
  /** Base URL that endpoint paths are appended to. */
  base: string;
  close(): Promise<void>;
}

export async function startBare(): Promise<Peer> {
  const body = JSON.stringify({ ok: true });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { name: 'bare node:http', base: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export async function startPrism(openapiPath: string, port = 4599): Promise<Peer> {
  const child: ChildProcess = spawn(prismBin(), ['mock', '-h', '127.0.0.1', '-p', String(port), '--errors', 'false', openapiPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(`${base}${routePath('public.markets')}`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('prism did not start within 30 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    name: `prism ${PRISM_VERSION}`,
    base,
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
