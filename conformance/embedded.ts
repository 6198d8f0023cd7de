import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION_PREFIX, type Profile } from '../contract/index.ts';
import type { Toxic } from '../faults/index.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/app.ts';
import { DEFAULT_KEYS, type KeyEntry } from '../sandbox/auth/keys.ts';
import { fetchListener } from '../sandbox/http/fetch-listener.ts';
import { startSandboxServer } from '../sandbox/server.ts';
import type { KeyTiers } from './checks/limits.ts';
import type { RunOptions } from './runner.ts';
import type { TargetOptions } from './target.ts';
import { planNamed } from './plans.ts';

// The target when no --base-url is given: the reference sandbox on a loopback port. The
// suite gets three keys of partner A (main, and a Starter key it may exhaust) and one of
// partner B, picked from the sandbox's key list by partner and tier.

export interface EmbeddedTarget {
  url: string;
  apiKey: string;
  apiKey2?: string;
  burstKey?: string;
  keyTiers: KeyTiers;
  close(): Promise<void>;
}

/** Request → Response middleware around the sandbox's fetch handler (the mutants use it): the HTTP seams' one toxic shape (faults/http.ts). */
export type FetchWrapper = Toxic;

function pickKeys(keys: KeyEntry[]): Omit<EmbeddedTarget, 'url' | 'close'> {
  const a = keys.filter((k) => k.partnerId === keys[0]?.partnerId);
  const main = a.find((k) => k.tier === 'scale') ?? a.find((k) => k.tier === 'growth') ?? a[0];
  const burst = a.find((k) => k.tier === 'starter' && k !== main);
  const other = keys.find((k) => k.partnerId !== main?.partnerId);
  if (!main) throw new Error('the embedded sandbox has no keys');
  return {
    apiKey: main.key,
    apiKey2: other?.key,
    burstKey: burst?.key,
    keyTiers: { key: main.tier, key2: other?.tier, burstKey: burst?.tier },
  };
}

export async function startEmbedded(profile: Profile): Promise<EmbeddedTarget> {
  // The suite checks every answer against the contract itself; the sandbox's own response
  // validation (on under NODE_ENV=test, as inside the Vitest worker) would only slow it down.
  const s = await startSandboxServer({ port: 0, host: '127.0.0.1', profile, validateResponses: false });
  return { url: s.url, ...pickKeys(s.keys), close: () => s.close() };
}

/** A sandbox served over real HTTP through a wrapper; `sandbox` stays reachable for tests. */
export async function serveWrapped(wrap: FetchWrapper, opts: SandboxOptions = {}): Promise<EmbeddedTarget & { sandbox: Sandbox }> {
  const sandbox = createSandbox(opts);
  const server = await new Promise<Server>((resolve, reject) => {
    // The fetch door passes the client's address as env; the limiter's public bucket reads it.
    const s = createServer(fetchListener((req, env) => wrap(req, (r) => sandbox.fetch(r, env))));
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${API_VERSION_PREFIX}`,
    ...pickKeys(opts.keys ?? DEFAULT_KEYS),
    sandbox,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}

/** Run options for a target: what the flags name, and the embedded sandbox's URL and keys
 *  when there is no base URL. `lendcheck conformance` in-process and the Vitest suite share it. */
export function runOptionsFor(target: TargetOptions, profile: Profile, embedded?: EmbeddedTarget): RunOptions {
  if (!target.baseUrl && !embedded) throw new Error('no base URL and no embedded sandbox');
  return {
    baseUrl: target.baseUrl ?? embedded!.url,
    publicBaseUrl: target.publicBaseUrl,
    apiKey: target.apiKey ?? embedded!.apiKey,
    moreApiKeys: target.moreApiKeys,
    maxWaitMs: target.maxWaitMs,
    apiKey2: target.apiKey2 ?? embedded?.apiKey2,
    burstKey: target.burstKey ?? embedded?.burstKey,
    keyTiers: embedded?.keyTiers ?? target.keyTiers,
    profile,
    strict: target.strict,
    readOnly: target.readOnly,
    only: target.only,
    seed: target.seed,
    plan: planNamed(target.plan).name,
    targetLabel: target.baseUrl ?? `embedded sandbox (${embedded!.url})`,
  };
}
