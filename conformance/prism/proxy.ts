import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION_PREFIX } from '../../contract/index.ts';
import { routePath } from '../../contract/fill-path.ts';
import { prismBin } from './bin.ts';

// Prism as a validating proxy between a client and a target: every request and response is
// checked against the OpenAPI document, and Prism reports what breaks it in an
// `sl-violations` header (with --errors off it still forwards the target's answer). A small
// recorder in front keeps those headers, so a whole conformance run can be audited.

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Observed {
  method: string;
  path: string;
  status: number;
  violations: Violation[];
}

export interface PrismProxy {
  /** Base URL for clients, ending in /v1 like the target's. */
  url: string;
  observed: Observed[];
  close(): Promise<void>;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function waitUp(base: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${log().slice(-800)}`);
    try {
      const r = await fetch(`${base}${routePath('public.markets')}`, { signal: AbortSignal.timeout(2_000) });
      await r.body?.cancel();
      return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`prism proxy did not start within 60 s: ${log().slice(-800)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `prism proxy <document> <upstream>` plus the recorder; `upstream` ends in /v1. */
export async function startPrismProxy(documentFile: string, upstream: string): Promise<PrismProxy> {
  const prismPort = await freePort();
  const child = spawn(prismBin(), ['proxy', '-h', '127.0.0.1', '-p', String(prismPort), '--errors', 'false', documentFile, upstream], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString('utf8')).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString('utf8')).slice(-20_000)));
  const prism = `http://127.0.0.1:${prismPort}`;
  try {
    await waitUp(prism, child, () => log);
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }

  const observed: Observed[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      (async () => {
        // Prism serves the document's paths at its root; the client sees /v1 like the target's.
        const path = (req.url ?? '/').replace(new RegExp(`^${API_VERSION_PREFIX}(?=/|$)`), '') || '/';
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !HOP.has(k) && typeof v === 'string')) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        try {
          const r = await fetch(prism + path, { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body, redirect: 'manual' });
          const buf = Buffer.from(await r.arrayBuffer());
          const raw = r.headers.get('sl-violations');
          observed.push({ method: req.method ?? 'GET', path, status: r.status, violations: raw ? (JSON.parse(raw) as Violation[]) : [] });
          const out: Record<string, string> = {};
          r.headers.forEach((v, k) => {
            if (!HOP.has(k)) out[k] = v;
          });
          res.writeHead(r.status, { ...out, 'content-length': String(buf.length) });
          res.end(buf);
        } catch (e) {
          observed.push({ method: req.method ?? 'GET', path, status: 502, violations: [{ location: ['proxy'], severity: 'Error', code: 'proxy', message: (e as Error).message }] });
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`prism proxy: ${(e as Error).message}`);
        }
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${API_VERSION_PREFIX}`,
    observed,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
