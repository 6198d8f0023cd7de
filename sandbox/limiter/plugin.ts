import { PUBLIC_RATE_LIMIT_MESSAGE } from '../../contract/index.ts';
import type { Answer } from '../answer/answer.ts';
import { errorAnswerOf } from '../answer/errors.ts';
import type { SandboxRequest } from '../pipeline/request.ts';
import { andThen } from '../pipeline/stage.ts';
import { isInternalRequest, type KeyInfo, type SandboxContext, type SandboxPlugin } from '../pipeline/plugin.ts';
import { GcraLimiter, type LimitDecision, type LimitRule, type RateLimiter } from './gcra.ts';
import { rateLimitHeaders } from './headers.ts';
import { publicRule, tierRule } from './rules.ts';
import { enforcedRule, limiterFaults, type LimitFaultSetting } from './faults/index.ts';

// Rate limits as a stage that runs before the auth check, so 401s carry the headers too. The
// caller (key, partner, tier) is the one the caller stage found (auth/bearer.ts identify).
//
// Buckets:
//  - a request with a valid key draws from `key:<keyId>` by the key's tier;
//  - every other request (no key, or an unknown, malformed or refused key) draws from
//    `addr:<client address>` under the public rule (60/min). Putting bad keys there means
//    a client guessing keys is held to the public rate, and a 401 is never free.
// Limits run on real time (a monotonic source), never on the sandbox's business clock.

export interface RateLimitOptions {
  limiter?: RateLimiter;
  /** Monotonic real time in ms (injectable so tests step time instead of sleeping). */
  now?: () => number;
  /** Wall-clock ms, for unix-based X-RateLimit-Reset units. */
  wallNow?: () => number;
  /** Client address of a request; defaults to the one its door gives (the socket's). */
  clientAddress?: (req: SandboxRequest) => string;
  /** Which callers are limited (undefined: a request with no valid key); default all.
   *  The msw door turns limits on per key and tier with it. */
  applies?: (caller: KeyInfo | undefined) => boolean;
}

function socketAddress(req: SandboxRequest): string {
  // X-Forwarded-For is not trusted: the sandbox listens on loopback and nothing proxies it.
  // In-process requests (tests) have no socket.
  return req.clientAddress ?? 'unknown';
}

export interface BucketChoice {
  bucket: string;
  /** The rule the headers state. */
  rule: LimitRule;
  /** The rule the limiter enforces: the stated one, unless a limiter fault (limiter/faults/) is on. */
  enforced: LimitRule;
  keyed: boolean;
}

/** The public bucket of a client address: no key, or one auth refuses. */
function addressBucket(ctx: SandboxContext, faults: readonly LimitFaultSetting[], address: string): BucketChoice {
  const rule = publicRule(ctx.profile);
  return { bucket: `addr:${address}`, rule, enforced: enforce(faults, rule), keyed: false };
}

const enforce = (faults: readonly LimitFaultSetting[], rule: LimitRule): LimitRule => (faults.length ? enforcedRule(faults, rule) : rule);

/** The 429 without an Error: a refusal is the limiter's commonest answer in a tier run, and an
 *  Error's stack capture was its largest cost. */
const refusal = (message: string, headers: Record<string, string>): Answer => errorAnswerOf(429, 'rate_limit_exceeded', message, undefined, headers);

export function rateLimitPlugin(opts: RateLimitOptions = {}): SandboxPlugin {
  const limiter = opts.limiter ?? new GcraLimiter();
  // Whole milliseconds: GCRA's arithmetic is exact only on integer times (see gcra.ts),
  // and performance.now() carries fractions that once cost a request its token.
  const now = opts.now ?? (() => Math.floor(performance.now()));
  const wallNow = opts.wallNow ?? Date.now;
  const address = opts.clientAddress ?? socketAddress;
  const applies = opts.applies;
  return {
    name: 'rate-limits',
    stage(ctx) {
      // A key's bucket and rule are fixed for the sandbox's life: built once per key (the key
      // store hands back the same KeyInfo for a key), not per request.
      const keyed = new WeakMap<KeyInfo, BucketChoice>();
      const faults = limiterFaults(ctx.faults);
      const choose = (info: KeyInfo | undefined, req: SandboxRequest): BucketChoice => {
        // The caller as auth found it, so a header auth refuses never draws from a key's bucket.
        if (!info) return addressBucket(ctx, faults, address(req));
        let choice = keyed.get(info);
        if (!choice) {
          const rule = tierRule(ctx.profile, info.tier);
          keyed.set(info, (choice = { bucket: `key:${info.keyId}`, rule, enforced: enforce(faults, rule), keyed: true }));
        }
        return choice;
      };
      const decide = (choice: BucketChoice, d: LimitDecision, next: () => Answer | Promise<Answer>): Answer | Promise<Answer> => {
        const headers = rateLimitHeaders(ctx.profile, choice.rule, d, wallNow());
        if (!d.allowed) {
          const message = choice.keyed
            ? `rate limit exceeded: ${choice.rule.name} tier allows ${choice.rule.perMinute}/min with a burst of ${choice.rule.capacity}; retry after ${d.retryAfterSeconds} s`
            : PUBLIC_RATE_LIMIT_MESSAGE;
          return refusal(message, headers);
        }
        return andThen(next(), (a) => {
          for (const k in headers) a.headers[k] = headers[k]!;
          return a;
        });
      };
      return (req, next) => {
        if (isInternalRequest(req.env) || (applies && !applies(req.partner))) return next();
        const choice = choose(req.partner, req);
        const d = limiter.check(choice.bucket, choice.enforced, now());
        return d instanceof Promise ? d.then((v) => decide(choice, v, next)) : decide(choice, d, next);
      };
    },
  };
}
