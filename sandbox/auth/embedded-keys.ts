import type { KeyEntry } from './keys.ts';

// Which of an embedded sandbox's keys lendcheck drives it with, written once for every part
// that starts one (the gate's embedded target, the chaos schedule, Schemathesis): the first
// partner's Scale key (else Growth, else its first), so the suites are not throttled by their
// own target; a Starter key of that partner for the burst checks; another partner's key for
// tenancy.

export interface EmbeddedKeys {
  main: KeyEntry;
  /** A key of another partner, where there is one. */
  other?: KeyEntry;
  /** The first partner's Starter key, where it is not `main`. */
  burst?: KeyEntry;
}

export function embeddedKeys(keys: KeyEntry[]): EmbeddedKeys {
  const a = keys.filter((k) => k.partnerId === keys[0]?.partnerId);
  const main = a.find((k) => k.tier === 'scale') ?? a.find((k) => k.tier === 'growth') ?? a[0];
  if (!main) throw new Error('the embedded sandbox has no keys');
  const burst = a.find((k) => k.tier === 'starter' && k !== main);
  const other = keys.find((k) => k.partnerId !== main.partnerId);
  return { main, ...(other ? { other } : {}), ...(burst ? { burst } : {}) };
}
