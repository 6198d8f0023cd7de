import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeListener } from './http/node-listener.ts';
import { API_VERSION_PREFIX } from '../contract/index.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.ts';
import { DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';

export interface SandboxServer {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  sandbox: Sandbox;
  keys: KeyEntry[];
  close(): Promise<void>;
}

/** Serves a sandbox over HTTP through the node:http door (http/node-listener.ts); the
 *  request carries the socket's address, so the limiter's public bucket is per client. */
export async function startSandboxServer(opts: SandboxOptions & { port?: number; host?: string } = {}): Promise<SandboxServer> {
  const { port = 0, host = '127.0.0.1', ...rest } = opts;
  const sandbox = createSandbox(rest);
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = createServer(nodeListener(sandbox.dispatch));
      s.once('error', reject);
      s.listen(port, host, () => resolve(s));
    });
  } catch (e) {
    await sandbox.close();
    throw e;
  }
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${addr.port}${API_VERSION_PREFIX}`,
    port: addr.port,
    sandbox,
    keys: opts.keys ?? DEFAULT_KEYS,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 1000).unref();
        });
        await sandbox.close();
      })();
      return closing;
    },
  };
}
