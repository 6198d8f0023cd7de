import type { Profile } from '../../contract/index.ts';
import type { KeyEntry } from '../../sandbox/auth/keys.ts';
import { InputError } from '../exit-codes.ts';
import { preflight, type GivenKey } from './preflight.ts';

// With no --base-url the target is the embedded sandbox, which has its own keys. A key the user
// gives there is checked against it as against any target (a 401 on one keyed read), so a
// mistyped key is exit 2 in a second, never a run of failures. The gate checks its own embedded
// target; conformance and load start theirs inside the run, so a sandbox with the same keys is
// started here for the check and closed.

const HINT = "; with no --base-url the target is the embedded sandbox, which takes only its own test keys (`lendcheck sandbox` lists them)";

/** The preflight's key check against a running embedded sandbox, its message saying which keys it takes. */
export async function checkKeysAt(baseUrl: string, keys: GivenKey[]): Promise<void> {
  const given = keys.filter((k) => k.key);
  if (!given.length) return;
  try {
    await preflight({ baseUrl, urlOption: 'the embedded sandbox', keys: given, allowLive: true });
  } catch (e) {
    if (e instanceof InputError && /refused this key/.test(e.message)) throw new InputError(`${e.message}${HINT}`);
    throw e;
  }
}

/** Starts a sandbox with the embedded target's keys (in memory, a free loopback port), checks the given keys on it, closes it. */
export async function checkKeysOnEmbedded(keys: GivenKey[], opts: { profile?: Profile; sandboxKeys?: KeyEntry[] } = {}): Promise<void> {
  if (!keys.some((k) => k.key)) return;
  const { startSandboxServer } = await import('../../sandbox/server.ts');
  const { DEFAULT_KEYS } = await import('../../sandbox/auth/keys.ts');
  const server = await startSandboxServer({ port: 0, host: '127.0.0.1', dbPath: ':memory:', keys: opts.sandboxKeys ?? DEFAULT_KEYS, ...(opts.profile ? { profile: opts.profile } : {}) });
  try {
    await checkKeysAt(server.url.replace(/\/$/, '').replace(/(\/v1)?$/, '/v1'), keys);
  } finally {
    await server.close();
  }
}
