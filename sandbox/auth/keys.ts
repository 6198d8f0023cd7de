import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KEY_PREFIX, type Profile } from '../../contract/index.ts';
import type { KeyInfo } from '../pipeline/plugin.ts';

export interface KeyEntry {
  key: string;
  partnerId: string;
  tier?: string;
}

// Well-known test keys, like stripe-mock's: public on purpose, valid only here.
export const DEFAULT_KEYS: KeyEntry[] = [
  { key: 'ck_test_partner_a_starter', partnerId: 'partner_a', tier: 'starter' },
  { key: 'ck_test_partner_a_growth', partnerId: 'partner_a', tier: 'growth' },
  { key: 'ck_test_partner_a_scale', partnerId: 'partner_a', tier: 'scale' },
  { key: 'ck_test_partner_b_growth', partnerId: 'partner_b', tier: 'growth' },
];

const KEY_RE = /^ck_test_[A-Za-z0-9_]{1,200}$/;

const keyFile = z.array(
  z.object({
    key: z.string().regex(KEY_RE, `must be a ${KEY_PREFIX.sandbox} key of letters, digits and _`),
    partnerId: z.string().min(1),
    tier: z.string().min(1).optional(),
  }),
);

/** Validates a key list; a ck_live_ key is refused outright, the sandbox never holds one. */
export function parseKeys(raw: unknown, source: string): KeyEntry[] {
  const r = keyFile.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`invalid key store ${source}: [${i.path.join('.')}] ${i.message}`);
  }
  return r.data;
}

/** Keys from --keys FILE, else env LENDCHECK_KEYS, else the defaults. */
export function loadKeys(file?: string, env: NodeJS.ProcessEnv = process.env): KeyEntry[] {
  if (file) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`cannot read key store ${file}: ${(e as Error).message}`);
    }
    return parseKeys(raw, file);
  }
  if (env.LENDCHECK_KEYS) {
    let raw: unknown;
    try {
      raw = JSON.parse(env.LENDCHECK_KEYS);
    } catch (e) {
      throw new Error(`cannot parse LENDCHECK_KEYS: ${(e as Error).message}`);
    }
    return parseKeys(raw, 'LENDCHECK_KEYS');
  }
  return DEFAULT_KEYS;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Raw keys remembered between requests; past this many the oldest is forgotten. */
const SEEN_MAX = 4096;

/**
 * Holds SHA-256 hashes of the keys and finds a presented key by its hash in a Map. The
 * index is the hash, never the raw key, so a lookup's timing depends on a digest a client
 * cannot steer towards a valid key's without a preimage (the usual way hashed API keys are
 * indexed); the former constant-time scan compared against every entry, O(keys) per
 * request, which a key pool of hundreds made the sandbox's hottest function.
 * Keys seen recently (valid or not) are remembered, bounded, in a private Map, so a
 * repeated key costs one Map get instead of a SHA-256 per request (and the limiter and
 * auth both look a key up). Those raw keys are ones the process was given or was sent;
 * they stay in memory only, never in JSON or logs.
 */
export class KeyStore {
  readonly #byHash = new Map<string, KeyInfo>();
  readonly #seen = new Map<string, KeyInfo | null>();

  constructor(keys: KeyEntry[], profile: Profile) {
    for (const k of keys) {
      const hash = sha256(k.key);
      // The first entry of a key wins, as the scan did.
      if (!this.#byHash.has(hash)) this.#byHash.set(hash, { keyId: hash.slice(0, 8), partnerId: k.partnerId, tier: k.tier ?? profile.limits.defaultTier });
    }
  }

  lookup(raw: string): KeyInfo | undefined {
    const seen = this.#seen.get(raw);
    if (seen !== undefined) return seen ?? undefined;
    const info = KEY_RE.test(raw) ? this.#byHash.get(sha256(raw)) : undefined;
    if (raw.length <= 256) {
      if (this.#seen.size >= SEEN_MAX) this.#seen.delete(this.#seen.keys().next().value!);
      this.#seen.set(raw, info ?? null);
    }
    return info;
  }
}
