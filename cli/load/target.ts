// Where a load run points: the user's base URL, or an embedded sandbox on a loopback
// port (port 0) that lives exactly as long as the run.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSandbox, type SandboxOptions } from '../../sandbox/app.ts';

export interface Target {
  baseUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function startEmbeddedSandbox(opts: SandboxOptions): Promise<Target> {
  const sandbox = createSandbox(opts);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: sandbox.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    embedded: true,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await sandbox.close();
    },
  };
}

export function externalTarget(baseUrl: string): Target {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), embedded: false, close: async () => {} };
}
