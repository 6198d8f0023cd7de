import { RATE_LIMIT_HEADERS, TIERS } from '../contract/index.ts';
import { type Detector } from './probe.ts';

// The tier a key gets when none was chosen for it (limits.defaultTier). Only a key issued
// without a tier shows it, and which keys those are is the target's to say, so the user
// names one (`--new-key`); its X-RateLimit-Limit is matched against the spec's tier table,
// read as the burst or the per-minute rate as the rate-limit detector found.

export const tierDetector: Detector = {
  name: 'default tier',
  options: ['limits.defaultTier'],
  async run(p) {
    const key = p.opts.newKey;
    if (!key) return p.miss('limits.defaultTier', 'seen only through a key issued without a tier: name one with --new-key');
    const meaning = p.fact<'burst' | 'per-minute'>('limitHeader');
    if (!meaning) return p.miss('limits.defaultTier', `${RATE_LIMIT_HEADERS.limit} could not be read as a burst or a per-minute rate`);
    const r = await p.call('positions.list', { params: { userId: p.user('tier') }, key });
    const limit = Number(r.headers[RATE_LIMIT_HEADERS.limit.toLowerCase()]);
    const tiers = Object.entries(TIERS).filter(([, t]) => (meaning === 'burst' ? t.burst : t.perMinute) === limit).map(([n]) => n);
    if (tiers.length === 1) p.set('limits.defaultTier', tiers[0], 'high', [r], `the new key's ${RATE_LIMIT_HEADERS.limit} ${limit} is ${tiers[0]}'s ${meaning === 'burst' ? 'burst' : 'per-minute rate'}`);
    else p.miss('limits.defaultTier', `the new key's ${RATE_LIMIT_HEADERS.limit} ${r.headers[RATE_LIMIT_HEADERS.limit.toLowerCase()] ?? '(absent)'} is no tier's ${meaning}`);
  },
};
