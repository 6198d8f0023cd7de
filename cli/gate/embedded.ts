import type { Profile } from '../../contract/index.ts';
import { importPart } from './steps.ts';
import { keysByTier, type GateTarget } from './target.ts';

interface SandboxServer {
  url: string;
  port: number;
  keys: unknown;
  close(): Promise<void>;
}
type StartSandbox = (opts: { port: number; host: string; timeScale?: number; dbPath?: string; profile?: Profile }) => Promise<SandboxServer>;

/** The reference sandbox in this process, on a loopback port of the system's choosing. */
export async function embeddedTarget(opts: { profile: Profile; timeScale?: number }): Promise<GateTarget> {
  const start = await importPart<StartSandbox>(['sandbox/server.ts'], 'startSandboxServer').catch((e: Error) => {
    throw new Error(`cannot start the embedded sandbox (${e.message}); point the gate at a service with --base-url`);
  });
  const server = await start({ port: 0, host: '127.0.0.1', timeScale: opts.timeScale, profile: opts.profile });
  const { tierKeys, all } = keysByTier(server.keys);
  const baseUrl = server.url.replace(/\/$/, '').replace(/(\/v1)?$/, '/v1');
  // The main key is the roomiest one, as the conformance suite's own embedded target picks it:
  // its checks must not run into the limiter they are not measuring.
  const apiKey = tierKeys.scale ?? tierKeys.growth ?? all[0];
  return {
    baseUrl,
    label: `embedded sandbox (${baseUrl})`,
    embedded: true,
    apiKey,
    apiKey2: all.find((k) => k !== apiKey && !Object.values(tierKeys).includes(k)),
    tierKeys,
    hasControls: true,
    timeScale: opts.timeScale,
    close: () => server.close(),
  };
}
