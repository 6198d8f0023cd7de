import type { Profile } from '../../contract/index.ts';
import { TIER_NAMES } from '../../contract/constants.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { DEFAULT_KEYS, type KeyEntry } from '../../sandbox/auth/keys.ts';
import { keysByTier, type GateTarget } from './target.ts';

/**
 * Keys the gate adds to the embedded sandbox for the load step alone. Conformance spends
 * the sandbox's own keys (and empties a Starter bucket on purpose to see a 429); the
 * rate-limit smoke must start from a full bucket, so it gets keys nothing else touched.
 */
export const LOAD_KEYS: KeyEntry[] = TIER_NAMES.map((tier) => ({ key: `ck_test_gate_load_${tier}`, partnerId: 'gate_load', tier }));

/**
 * Business seconds the embedded sandbox takes to complete a withdrawal (the sandbox's own
 * default is 10). The spec names no delay; conformance's hooks scenario waits for
 * withdrawal.completed to reach its receiver, so at 10 s the gate sat idle for most of
 * hooks.every-delivery. The event, its delivery and what is judged of it are the same at 1 s.
 */
export const EMBEDDED_WITHDRAWAL_DELAY_SECONDS = 1;

/** The reference sandbox in this process, on a loopback port of the system's choosing. */
export async function embeddedTarget(opts: { profile: Profile; timeScale?: number }): Promise<GateTarget> {
  const server = await startSandboxServer({ port: 0, host: '127.0.0.1', timeScale: opts.timeScale, profile: opts.profile, keys: [...DEFAULT_KEYS, ...LOAD_KEYS], withdrawalDelaySeconds: EMBEDDED_WITHDRAWAL_DELAY_SECONDS });
  // Conformance keys: the sandbox's first partner (its roomiest key as the main one, as the
  // suite's own embedded target picks it), its Starter key to exhaust, another partner's key.
  const own = keysByTier(DEFAULT_KEYS);
  const first = DEFAULT_KEYS[0]?.partnerId;
  const baseUrl = server.url.replace(/\/$/, '').replace(/(\/v1)?$/, '/v1');
  return {
    baseUrl,
    label: `embedded sandbox (${baseUrl})`,
    embedded: true,
    apiKey: own.tierKeys.scale ?? own.tierKeys.growth ?? own.all[0],
    apiKey2: DEFAULT_KEYS.find((k) => k.partnerId !== first)?.key,
    burstKey: own.tierKeys.starter,
    tierKeys: keysByTier(LOAD_KEYS).tierKeys,
    hasControls: true,
    timeScale: opts.timeScale,
    close: () => server.close(),
  };
}
