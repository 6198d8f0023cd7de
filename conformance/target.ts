import { Agent, request } from 'undici';
import { KEY_PREFIX } from '../contract/index.ts';

// Where the suite points, from flags first and the environment second. A production
// (ck_live_) key is refused unless the run is read-only: a conformance run must never
// move real money. The LENDCHECK_* variables are the user's input only: resolveTarget reads
// them once, in the process that parses the command, and what it returns (a ResolvedTarget) is
// what travels on, to the Vitest worker too (suite/channel.ts); nothing after reads them again.

export interface TargetOptions {
  baseUrl?: string;
  apiKey?: string;
  /** More keys of partner 1 (--api-key given again, or --api-keys-file): the budget spreads the run over them. */
  moreApiKeys?: string[];
  /** Longest wait for rate-limit room, per wait, in ms (--max-wait, in seconds on the command line). */
  maxWaitMs?: number;
  apiKey2?: string;
  /** A key the suite may exhaust to see a 429; the starter key of the embedded sandbox. */
  burstKey?: string;
  publicBaseUrl?: string;
  profileFile?: string;
  strict?: boolean;
  readOnly?: boolean;
  /** Check ids (or id prefixes ending in `*`) to run; all when empty. */
  only?: string[];
  reportDir?: string;
  /** Seed of the property-based corpus, for reproducible runs. */
  seed?: number;
  /** Known tiers of the keys (e.g. from the gate's key list), so tier limits are checked exactly. */
  keyTiers?: { key?: string; key2?: string; burstKey?: string };
  /** The run plan (conformance/plans.ts): full unless named. */
  plan?: string;
}

export const ENV = {
  baseUrl: 'LENDCHECK_BASE_URL',
  apiKey: 'LENDCHECK_API_KEY',
  moreApiKeys: 'LENDCHECK_MORE_API_KEYS',
  maxWaitMs: 'LENDCHECK_MAX_WAIT_MS',
  apiKey2: 'LENDCHECK_API_KEY_2',
  burstKey: 'LENDCHECK_BURST_KEY',
  publicBaseUrl: 'LENDCHECK_PUBLIC_BASE_URL',
  profileFile: 'LENDCHECK_PROFILE',
  strict: 'LENDCHECK_STRICT',
  readOnly: 'LENDCHECK_READ_ONLY',
  only: 'LENDCHECK_ONLY',
  reportDir: 'LENDCHECK_REPORT_DIR',
  seed: 'LENDCHECK_SEED',
  keyTiers: 'LENDCHECK_KEY_TIERS',
  plan: 'LENDCHECK_PLAN',
} as const;

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes)$/i.test(v);

/** A target whose flags and environment were read once: plain data (it crosses to the Vitest worker). */
export type ResolvedTarget = TargetOptions & { readonly resolved: true };

export const isResolved = (t: TargetOptions): t is ResolvedTarget => (t as { resolved?: unknown }).resolved === true;

/** Flags win over the environment; empty strings count as absent. A target already resolved is returned as it is. */
export function resolveTarget(flags: TargetOptions, env: NodeJS.ProcessEnv = process.env): ResolvedTarget {
  if (isResolved(flags)) return flags;
  const pick = (k: keyof typeof ENV) => {
    const f = flags[k];
    if (f !== undefined && f !== '') return f;
    const e = env[ENV[k]];
    return e === undefined || e === '' ? undefined : e;
  };
  const only = flags.only?.length ? flags.only : (pick('only') as string | undefined)?.split(',').map((s) => s.trim()).filter(Boolean);
  const seed = flags.seed ?? (env[ENV.seed] ? Number(env[ENV.seed]) : undefined);
  const moreApiKeys = flags.moreApiKeys?.length ? flags.moreApiKeys : env[ENV.moreApiKeys]?.split(',').map((k) => k.trim()).filter(Boolean);
  const maxWaitMs = flags.maxWaitMs ?? (env[ENV.maxWaitMs] ? Number(env[ENV.maxWaitMs]) : undefined);
  let keyTiers = flags.keyTiers;
  if (!keyTiers && env[ENV.keyTiers]) {
    try {
      keyTiers = JSON.parse(env[ENV.keyTiers]!) as TargetOptions['keyTiers'];
    } catch {
      keyTiers = undefined;
    }
  }
  return {
    resolved: true,
    baseUrl: pick('baseUrl') as string | undefined,
    apiKey: pick('apiKey') as string | undefined,
    ...(moreApiKeys?.length ? { moreApiKeys } : {}),
    ...(maxWaitMs !== undefined && Number.isFinite(maxWaitMs) && maxWaitMs >= 0 ? { maxWaitMs } : {}),
    apiKey2: pick('apiKey2') as string | undefined,
    burstKey: pick('burstKey') as string | undefined,
    publicBaseUrl: pick('publicBaseUrl') as string | undefined,
    profileFile: pick('profileFile') as string | undefined,
    strict: flags.strict ?? truthy(env[ENV.strict]),
    readOnly: flags.readOnly ?? truthy(env[ENV.readOnly]),
    only,
    reportDir: pick('reportDir') as string | undefined,
    seed: seed !== undefined && Number.isFinite(seed) ? seed : undefined,
    keyTiers,
    plan: pick('plan') as string | undefined,
  };
}

export class UnsafeTargetError extends Error {}

/** Throws when a production key would be used for anything but a read-only run. */
export function assertSafe(t: TargetOptions): void {
  const live = [t.apiKey, ...(t.moreApiKeys ?? []), t.apiKey2, t.burstKey].filter((k): k is string => !!k && k.startsWith(KEY_PREFIX.production));
  if (live.length && !t.readOnly) {
    throw new UnsafeTargetError(
      `refusing a production key (${KEY_PREFIX.production}…): a conformance run must never move real money; pass --read-only to run only GET and public checks`,
    );
  }
  if (t.burstKey?.startsWith(KEY_PREFIX.production)) {
    throw new UnsafeTargetError(`refusing to exhaust a production key (${KEY_PREFIX.production}…) with a burst, even read-only`);
  }
  if (t.baseUrl) {
    let u: URL;
    try {
      u = new URL(t.baseUrl);
    } catch {
      throw new UnsafeTargetError(`--base-url is not a URL: ${t.baseUrl}`);
    }
    if (!/^https?:$/.test(u.protocol)) throw new UnsafeTargetError(`--base-url must be http(s): ${t.baseUrl}`);
  }
  if (t.baseUrl && !t.apiKey) throw new UnsafeTargetError('a --base-url needs an --api-key (or LENDCHECK_API_KEY)');
}

export class TargetUnreachable extends Error {}

/**
 * Any HTTP answer (whatever its status) shows something listens at the base URL; a refused
 * connection, an unknown host or no answer in time ends the gate before any step runs.
 */
export async function assertReachable(baseUrl: string, timeoutMs = 10_000): Promise<void> {
  try {
    await probeOnce(baseUrl, timeoutMs);
  } catch (e) {
    // A connection closed without an answer is asked once more, on a new connection: the gate's probe read
    // "UND_ERR_SOCKET other side closed" from a live sandbox (neutrality soak, seeds 1 and 2, 3 runs of 3)
    // whose next connection answered. A target that closes every connection stays unreachable.
    const code = (e as { code?: string }).code;
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') {
      try {
        return await probeOnce(baseUrl, timeoutMs);
      } catch (again) {
        throw unreachable(baseUrl, again);
      }
    }
    throw unreachable(baseUrl, e);
  }
}

/** One GET {base}/ on a connection of its own (never a socket an earlier step left in the global pool). */
async function probeOnce(baseUrl: string, timeoutMs: number): Promise<void> {
  const fresh = new Agent({ pipelining: 0 });
  try {
    const r = await request(`${baseUrl}/`, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, dispatcher: fresh });
    await r.body.dump();
  } finally {
    await fresh.destroy().catch(() => {});
  }
}

function unreachable(baseUrl: string, e: unknown): TargetUnreachable {
  const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
  const detail = [err.code ?? err.cause?.code, err.message || err.cause?.message].filter(Boolean).join(' ');
  return new TargetUnreachable(`target unreachable: ${baseUrl}: ${detail || String(e)}`);
}

