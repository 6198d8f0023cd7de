import { evidence, firstOf, type Exchange, type Finding, type PartnerCheck } from '../types.ts';

// Part 8: past a limit the answer is 429 with X-RateLimit-Reset. A client that sends again on
// the same key before then (or before Retry-After, when that is earlier) is hammering: every
// such request is refused again and holds the bucket empty. A request at or after the time
// the sandbox gave is polite, however soon.

/** Clock granularity allowed between the sandbox's time for the 429 and the next arrival. */
const SLACK_MS = 10;

const bucketOf = (e: Exchange) => (e.keyId ? `key:${e.keyId}` : 'public');

export const rateLimitIgnored: PartnerCheck = {
  name: 'rate-limit-ignored',
  rule: 'part 8: 429 rate_limit_exceeded with X-RateLimit-Reset',
  description: 'requests on the same key after a 429, before the time its X-RateLimit-Reset (or Retry-After) gave',
  run({ exchanges }) {
    const findings: Finding[] = [];
    const waitingUntil = new Map<string, Exchange>();
    const early = new Map<Exchange, Exchange[]>();
    for (const e of exchanges) {
      const bucket = bucketOf(e);
      const open = waitingUntil.get(bucket);
      if (open && e.at + SLACK_MS < open.retryAt!) early.get(open)!.push(e);
      else if (open) waitingUntil.delete(bucket);
      if (e.status === 429 && e.retryAt !== undefined && !waitingUntil.has(bucket)) {
        waitingUntil.set(bucket, e);
        early.set(e, []);
      }
    }
    for (const [refused, after] of early) {
      if (!after.length) continue;
      const wait = refused.retryAt! - refused.at;
      findings.push({
        check: this.name,
        rule: this.rule,
        ...(refused.partner ? { partner: refused.partner } : {}),
        expected: `no request on ${refused.keyId ? `key ${refused.keyId}` : 'the public limit'} for ${wait} ms after the 429 (until X-RateLimit-Reset / Retry-After)`,
        received: `${after.length} request(s) within that wait, the first ${after[0].at - refused.at} ms after the 429`,
        requests: firstOf([evidence(refused, `429, retry allowed from ${new Date(refused.retryAt!).toISOString()}`), ...after.map((e) => evidence(e, `${e.at - refused.at} ms after the 429`))], 6),
      });
    }
    return findings;
  },
};
