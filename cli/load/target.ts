// Where a load run points: the user's base URL, or an embedded sandbox on a loopback
// port (port 0) that lives exactly as long as the run.
import type { SandboxOptions } from '../../sandbox/app.ts';
import { startSandboxServer } from '../../sandbox/server.ts';

export interface Target {
  baseUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function startEmbeddedSandbox(opts: SandboxOptions): Promise<Target> {
  const server = await startSandboxServer({ ...opts, port: 0, host: '127.0.0.1' });
  return { baseUrl: server.url, embedded: true, close: () => server.close() };
}

export function externalTarget(baseUrl: string): Target {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), embedded: false, close: async () => {} };
}
