// A key pool for load runs: many keys, each with its partner and tier, so a matching run
// measures the target's book rather than one key's tier. Orders are spread over the keys in
// proportion to each key's sustained rate, and the plan is checked against the pool's total
// budget before k6 starts. Keys travel to k6 in its process environment, never as arguments.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KEY_PREFIX, TIERS, type Profile } from '../../contract/index.ts';

export interface PoolKey {
  key: string;
  partnerId: string;
  tier: string;
}

const entry = z.object({ key: z.string().min(8), partnerId: z.string().min(1), tier: z.string().min(1).optional() });
const poolFile = z.array(entry).min(1, 'at least one key');

function parsePool(raw: unknown, source: string, profile: Profile): PoolKey[] {
  const r = poolFile.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`${source}: [${i.path.join('.')}] ${i.message}`);
  }
  return r.data.map((k) => ({ key: k.key, partnerId: k.partnerId, tier: k.tier ?? profile.limits.defaultTier }));
}

/** The pool from --keys FILE, else env LENDCHECK_KEYS; undefined when neither is given. */
export function loadPool(profile: Profile, file?: string, env: NodeJS.ProcessEnv = process.env): PoolKey[] | undefined {
  let text: string;
  let source: string;
  if (file) {
    source = `--keys ${file}`;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`${source}: cannot read: ${(e as Error).message}`);
    }
  } else if (env.LENDCHECK_KEYS) {
    source = 'LENDCHECK_KEYS';
    text = env.LENDCHECK_KEYS;
  } else return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source}: expected a JSON array of {key, partnerId, tier?} / received unparseable JSON (${(e as Error).message})`);
  }
  return parsePool(raw, source, profile);
}

/** Sustained requests per second a key's tier allows (its burst is left as headroom). */
export function keyRate(k: Pick<PoolKey, 'tier'>, custom?: { perMinute: number }): number {
  const t = (TIERS as Record<string, { perMinute: number }>)[k.tier];
  const perMinute = t?.perMinute ?? custom?.perMinute;
  if (!perMinute) throw new Error(`key pool: tier "${k.tier}" has no known rate; give TIER_PER_MINUTE for custom tiers`);
  return perMinute / 60;
}

export function poolBudget(pool: PoolKey[], custom?: { perMinute: number }): number {
  return pool.reduce((s, k) => s + keyRate(k, custom), 0);
}

/**
 * Refuses a plan the pool cannot carry at its keys' sustained rates: `requestsPerSecond` is
 * every keyed request the run offers (orders, plus polls when matching falls back to them).
 */
export function checkPoolBudget(pool: PoolKey[], requestsPerSecond: number, custom?: { perMinute: number }): void {
  const budget = poolBudget(pool, custom);
  if (requestsPerSecond > budget + 1e-9) {
    const scale = keyRate({ tier: 'scale' });
    const more = Math.ceil((requestsPerSecond - budget) / scale);
    throw new Error(
      `key pool too small: the plan offers ${round(requestsPerSecond)} keyed requests/s but the pool's ${pool.length} keys allow ${round(budget)}/s ` +
        `at their tiers' sustained rates; add at least ${more} Scale keys, or lower ORDERS_PER_SECOND`,
    );
  }
}

/**
 * Key index per slot, each key appearing in proportion to its rate (smooth weighted round
 * robin, as nginx balances upstreams), so a VU taking slot n mod length spreads load evenly.
 */
export function poolSlots(pool: PoolKey[], custom?: { perMinute: number }): number[] {
  const rates = pool.map((k) => keyRate(k, custom));
  const min = Math.min(...rates);
  const weights = rates.map((r) => Math.max(1, Math.round(r / min)));
  const total = weights.reduce((a, b) => a + b, 0);
  // Long cycles cost env space only; cap them (weights above 64:1 are rounded).
  const length = Math.min(total, 4096);
  const current = weights.map(() => 0);
  const out: number[] = [];
  for (let n = 0; n < length; n++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i] += weights[i];
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    out.push(best);
  }
  return out;
}

/** What k6 reads: keys, their partners and the slot order (process env only). */
export function poolEnv(pool: PoolKey[], custom?: { perMinute: number }): Record<string, string> {
  return {
    POOL_KEYS: pool.map((k) => k.key).join(','),
    POOL_PARTNERS: pool.map((k) => k.partnerId).join(','),
    POOL_SLOTS: poolSlots(pool, custom).join(','),
  };
}

/** N fresh test keys over M partners (interleaved, so neighbours belong to different partners). */
export function mintPool(n: number, partners: number, tier = 'scale', prefix = 'pool'): PoolKey[] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`key pool: expected a key count ≥ 1 / received ${n}`);
  if (!Number.isInteger(partners) || partners < 1 || partners > n) throw new Error(`key pool: expected 1..${n} partners / received ${partners}`);
  const run = randomBytes(4).toString('hex');
  return Array.from({ length: n }, (_, i) => ({
    key: `${KEY_PREFIX.sandbox}${prefix}_${run}_${i}_${randomBytes(8).toString('hex')}`,
    partnerId: `${prefix}_partner_${(i % partners) + 1}`,
    tier,
  }));
}

/** `N` or `N,M` or `N,partners M` (the CLI's --key-pool). */
export function parsePoolSpec(spec: string): { keys: number; partners: number } {
  const m = /^\s*(\d+)\s*(?:,\s*(?:partners\s*)?(\d+))?\s*$/.exec(spec);
  if (!m) throw new Error(`--key-pool: expected N or N,M (keys, partners) / received "${spec}"`);
  const keys = Number(m[1]);
  const partners = m[2] ? Number(m[2]) : Math.min(4, keys);
  if (keys < 1 || partners < 1 || partners > keys) throw new Error(`--key-pool: expected 1 ≤ partners ≤ keys / received ${keys} keys, ${partners} partners`);
  return { keys, partners };
}

/** One key of each partner, for the calls made once per partner (webhook registration). */
export function onePerPartner(pool: PoolKey[]): PoolKey[] {
  const seen = new Map<string, PoolKey>();
  for (const k of pool) if (!seen.has(k.partnerId)) seen.set(k.partnerId, k);
  return [...seen.values()];
}

const round = (n: number) => Math.round(n * 100) / 100;
