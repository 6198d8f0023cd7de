import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KEY_PREFIX, type Profile } from '../../contract/index.ts';
import type { KeyInfo } from '../plugin-types.ts';

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

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** Holds only SHA-256 hashes; every lookup compares against every entry in constant time. */
export class KeyStore {
  private readonly entries: Array<{ hash: Buffer; info: KeyInfo }>;

  constructor(keys: KeyEntry[], profile: Profile) {
    this.entries = keys.map((k) => {
      const hash = sha256(k.key);
      return { hash, info: { keyId: hash.toString('hex').slice(0, 8), partnerId: k.partnerId, tier: k.tier ?? profile.limits.defaultTier } };
    });
  }

  lookup(raw: string): KeyInfo | undefined {
    if (!KEY_RE.test(raw)) return undefined;
    const h = sha256(raw);
    let found: KeyInfo | undefined;
    for (const e of this.entries) if (timingSafeEqual(e.hash, h) && !found) found = e.info;
    return found;
  }
}
