import { createHash, randomBytes } from 'node:crypto';

// What failures.json keeps of a run's credentials, so `lendcheck replay` can tell whether it runs
// against the same target with the same keys: per key, a salted hash (the run's own random salt,
// the base URL, the key), 16 hex digits. Never the key, and not comparable across runs.

export const CREDENTIAL_ROLES = ['apiKey', 'apiKey2', 'burstKey'] as const;
export type CredentialRole = (typeof CREDENTIAL_ROLES)[number];
export type Credentials = Partial<Record<CredentialRole, string | undefined>>;

export interface CredentialFingerprint {
  salt: string;
  /** Per option (--api-key, …; not "apiKey", which the report redactor masks by name): the key's fingerprint, or "none" where the run was given no key for it. */
  keys: Record<string, string>;
}

/** The target as fingerprinted: its base URL, or the embedded sandbox. */
export const targetOf = (baseUrl: string | undefined): string => (baseUrl ? baseUrl.replace(/\/+$/, '') : 'embedded sandbox');

function hash(salt: string, baseUrl: string | undefined, key: string): string {
  return createHash('sha256').update(`lendcheck-replay\n${salt}\n${targetOf(baseUrl)}\n${key}`).digest('hex').slice(0, 16);
}

const OPTION: Record<CredentialRole, string> = { apiKey: '--api-key', apiKey2: '--api-key-2', burstKey: '--burst-key' };

export function fingerprintCredentials(baseUrl: string | undefined, keys: Credentials, salt = randomBytes(8).toString('hex')): CredentialFingerprint {
  return { salt, keys: Object.fromEntries(CREDENTIAL_ROLES.map((r) => [OPTION[r], keys[r] ? hash(salt, baseUrl, keys[r]) : 'none'])) };
}

/** What differs between a run and a replay, in words; empty when the target and every key are the same. */
export function credentialChanges(run: { baseUrl?: string; credentials?: CredentialFingerprint }, now: { baseUrl?: string; keys: Credentials }): string[] {
  const changes: string[] = [];
  if (targetOf(run.baseUrl) !== targetOf(now.baseUrl)) changes.push(`the target: the run was against ${targetOf(run.baseUrl)}, this replay against ${targetOf(now.baseUrl)}`);
  if (!run.credentials) return [...changes, 'the keys: the run recorded no fingerprint of its keys (an older lendcheck), so they cannot be compared'];
  if (changes.length) return changes;
  const fp = fingerprintCredentials(run.baseUrl, now.keys, run.credentials.salt).keys;
  for (const r of CREDENTIAL_ROLES) {
    const o = OPTION[r];
    const was = run.credentials.keys[o] ?? 'none';
    if (was === fp[o]) continue;
    changes.push(was === 'none' ? `${o}: given now, not to the run` : fp[o] === 'none' ? `${o}: given to the run, not now` : `${o}: not the key the run used`);
  }
  return changes;
}
