import { routePath } from '../../contract/fill-path.ts';
import { KEY_PREFIX, TIER_NAMES, type TierName } from '../../contract/constants.ts';
import { request } from 'undici';
import type { Tolerance } from '../../chaos/validate/validate.ts';
import type { MatchBy } from '../load/match-watch.ts';
import { assertReachable, TargetUnreachable } from '../../conformance/target.ts';

export type { TierName };

/** What the gate points at, and what that target offers the parts. */
export interface GateTarget {
  /** Base URL ending in /v1. */
  baseUrl: string;
  /** What the report calls it. */
  label: string;
  embedded: boolean;
  apiKey?: string;
  /** A second partner's key, for isolation checks. */
  apiKey2?: string;
  /** A key conformance may exhaust to see a 429 (never one of the load step's tier keys). */
  burstKey?: string;
  tierKeys: Partial<Record<TierName, string>>;
  hasControls: boolean;
  timeScale?: number;
  /** The chaos schedule's allowed delay error when the user set one (gate --chaos-tolerance). */
  chaosTolerance?: Tolerance;
  /** How the load step's matching smoke sees matches when the user chose (gate --match-by). */
  matchBy?: MatchBy;
  /** At real time: whether the chaos step watches retries (gate --no-retry-watch) and how many (--retry-watch-retries). */
  retryWatch?: { enabled: boolean; retries: number };
  close(): Promise<void>;
}

export interface TargetFlags {
  baseUrl?: string;
  apiKey?: string;
  apiKey2?: string;
  burstKey?: string;
  keyStarter?: string;
  keyGrowth?: string;
  keyScale?: string;
  allowLive?: boolean;
  timeScale?: number;
}

export const TARGET_ENV = {
  baseUrl: 'LENDCHECK_BASE_URL',
  apiKey: 'LENDCHECK_API_KEY',
  apiKey2: 'LENDCHECK_API_KEY_2',
  burstKey: 'LENDCHECK_BURST_KEY',
  keyStarter: 'LENDCHECK_KEY_STARTER',
  keyGrowth: 'LENDCHECK_KEY_GROWTH',
  keyScale: 'LENDCHECK_KEY_SCALE',
} as const;

/** Flags win over the environment; empty strings count as absent. */
export function flagsFromEnv(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): TargetFlags {
  const out: TargetFlags = { ...flags };
  for (const [k, v] of Object.entries(TARGET_ENV) as Array<[keyof typeof TARGET_ENV, string]>) {
    if ((out[k] === undefined || out[k] === '') && env[v]) out[k] = env[v];
  }
  return out;
}

/** Every key the flags carry, for the redactor. */
export function keysOf(f: TargetFlags | GateTarget): string[] {
  const t = f as GateTarget;
  if (t.tierKeys) return [t.apiKey, t.apiKey2, t.burstKey, ...Object.values(t.tierKeys)].filter((x): x is string => !!x);
  const g = f as TargetFlags;
  return [g.apiKey, g.apiKey2, g.burstKey, g.keyStarter, g.keyGrowth, g.keyScale].filter((x): x is string => !!x);
}

/** Safety: production keys move real money, so they need an explicit opt-in. */
export function refuseLiveKeys(f: TargetFlags): void {
  if (f.allowLive) return;
  const live = keysOf(f).filter((k) => k.startsWith(KEY_PREFIX.production));
  if (live.length) throw new Error(`refusing a ${KEY_PREFIX.production} (production) key: pass --allow-live to run against production on purpose`);
}

/** A target "has sandbox controls" when GET /sandbox/clock answers 200 with a key. */
export async function probeControls(baseUrl: string, apiKey: string | undefined): Promise<boolean> {
  try {
    const r = await request(`${baseUrl.replace(/\/$/, '')}${routePath('sandbox.clock')}`, {
      method: 'GET',
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      headersTimeout: 5000,
      bodyTimeout: 5000,
    });
    await r.body.dump();
    return r.statusCode === 200;
  } catch {
    return false;
  }
}

// assertReachable lives with the conformance target (a layer below the gate), which uses it too.
export { TargetUnreachable, assertReachable };

export async function externalTarget(f: TargetFlags, close: () => Promise<void> = async () => {}): Promise<GateTarget> {
  refuseLiveKeys(f);
  const baseUrl = f.baseUrl!.replace(/\/$/, '');
  const tierKeys: GateTarget['tierKeys'] = {};
  if (f.keyStarter) tierKeys.starter = f.keyStarter;
  if (f.keyGrowth) tierKeys.growth = f.keyGrowth;
  if (f.keyScale) tierKeys.scale = f.keyScale;
  const apiKey = f.apiKey ?? tierKeys.growth ?? tierKeys.scale ?? tierKeys.starter;
  await assertReachable(baseUrl);
  return {
    baseUrl,
    label: baseUrl,
    embedded: false,
    apiKey,
    apiKey2: f.apiKey2,
    burstKey: f.burstKey,
    tierKeys,
    hasControls: await probeControls(baseUrl, apiKey),
    timeScale: f.timeScale,
    close,
  };
}

/**
 * Sorts the embedded sandbox's keys by tier. The sandbox names them
 * ck_test_partner_<p>_<tier>; a key-store entry may also carry its tier explicitly.
 */
export function keysByTier(keys: unknown): { tierKeys: GateTarget['tierKeys']; all: string[] } {
  const entries: Array<{ key: string; tier?: string; partner?: string }> = [];
  const partnerOf = (o: Record<string, unknown>) => (typeof o.partnerId === 'string' ? o.partnerId : typeof o.partner === 'string' ? o.partner : undefined);
  const visit = (v: unknown, hint?: string) => {
    if (typeof v === 'string') entries.push({ key: v, tier: hint });
    else if (Array.isArray(v)) v.forEach((x) => visit(x));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.key === 'string') entries.push({ key: o.key, tier: typeof o.tier === 'string' ? o.tier : hint, partner: partnerOf(o) });
      else for (const [k, x] of Object.entries(o)) visit(x, (TIER_NAMES as readonly string[]).includes(k) ? k : hint);
    }
  };
  visit(keys);
  const tierKeys: GateTarget['tierKeys'] = {};
  // The first partner's keys are the tier keys; another partner's are for isolation.
  const partnerOfEntry = (e: (typeof entries)[number]) => e.partner ?? e.key.match(/^ck_test_(partner_[a-z0-9]+)_/)?.[1];
  const first = entries[0] && partnerOfEntry(entries[0]);
  for (const e of entries) {
    const tier = (e.tier ?? e.key.match(/_(starter|growth|scale)$/)?.[1]) as TierName | undefined;
    const samePartner = !first || partnerOfEntry(e) === undefined || partnerOfEntry(e) === first;
    if (tier && ['starter', 'growth', 'scale'].includes(tier) && !tierKeys[tier] && samePartner) tierKeys[tier] = e.key;
  }
  return { tierKeys, all: entries.map((e) => e.key) };
}
