import { PUBLIC_PER_MINUTE, TIERS, type Profile, type TierLimit } from '../../contract/index.ts';
import type { LimitRule } from './gcra.ts';

// Which bucket a request draws from and how big it is. The spec's tier table lives in
// contract/constants.ts; what "burst" means and the default tier are profile choices.

/** Capacity of a bucket for a tier figure, by the profile's meaning of "burst". */
function capacityOf(profile: Profile, t: TierLimit): number {
  switch (profile.limits.burstMeaning) {
    case 'bucket-capacity':
      return t.burst;
  }
}

/** The rule of a key's tier; a key with no (or an unknown) tier gets the profile's default tier. */
export function tierRule(profile: Profile, tier: string | undefined): LimitRule {
  const name = tier && tier in TIERS ? tier : profile.limits.defaultTier;
  const t: TierLimit = TIERS[name as keyof typeof TIERS];
  return { name, capacity: capacityOf(profile, t), perMinute: t.perMinute };
}

/** Public endpoints: 60/min per client address, bucket of profile.limits.publicBurst. */
export function publicRule(profile: Profile): LimitRule {
  return { name: 'public', capacity: profile.limits.publicBurst, perMinute: PUBLIC_PER_MINUTE };
}
