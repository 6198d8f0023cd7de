import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { PUBLIC_RATE_LIMIT_MESSAGE } from '../../contract/index.ts';
import { isInternalRequest, type KeyInfo, type SandboxContext, type SandboxEnv, type SandboxPlugin } from '../plugin-types.ts';
import { GcraLimiter, type LimitRule, type RateLimiter } from './gcra.ts';
import { rateLimitHeaders } from './headers.ts';
import { publicRule, tierRule } from './rules.ts';

// Rate limits as middleware that runs before auth, so 401s carry the headers too.
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
  /** Client address of a request; defaults to the socket's remote address. */
  clientAddress?: (c: Context<SandboxEnv>) => string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function socketAddress(c: Context<SandboxEnv>): string {
  try {
    // X-Forwarded-For is not trusted: the sandbox listens on loopback and nothing proxies it.
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket
  }
}

export interface BucketChoice {
  bucket: string;
  rule: LimitRule;
  keyed: boolean;
}

export function chooseBucket(ctx: SandboxContext, authorization: string | undefined, address: string): BucketChoice {
  const raw = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  const info = raw ? ctx.lookupKey(raw) : undefined;
  if (info) return { bucket: `key:${info.keyId}`, rule: tierRule(ctx.profile, info.tier), keyed: true };
  return { bucket: `addr:${address}`, rule: publicRule(ctx.profile), keyed: false };
}

/**
 * The 429 as errorResponse would build it (same bytes, same header order), without an
 * Error: a refusal is the limiter's commonest answer in a tier run, and an Error's stack
 * capture was its largest cost.
 */
function refusal(message: string, headers: Record<string, string>): Response {
  return new Response(`{"error":{"code":"rate_limit_exceeded","message":${JSON.stringify(message)}}}`, {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function rateLimitPlugin(opts: RateLimitOptions = {}): SandboxPlugin {
  const limiter = opts.limiter ?? new GcraLimiter();
  // Whole milliseconds: GCRA's arithmetic is exact only on integer times (see gcra.ts),
  // and performance.now() carries fractions that once cost a request its token.
  const now = opts.now ?? (() => Math.floor(performance.now()));
  const wallNow = opts.wallNow ?? Date.now;
  const address = opts.clientAddress ?? socketAddress;
  return {
    name: 'rate-limits',
    middleware(app, ctx) {
      // A key's bucket and rule are fixed for the sandbox's life: built once per key (the key
      // store hands back the same KeyInfo for a key), not per request.
      const keyed = new WeakMap<KeyInfo, BucketChoice>();
      const choose = (authorization: string | undefined, c: Context<SandboxEnv>): BucketChoice => {
        const raw = authorization ? BEARER.exec(authorization)?.[1] : undefined;
        const info = raw ? ctx.lookupKey(raw) : undefined;
        if (!info) return chooseBucket(ctx, undefined, address(c));
        let choice = keyed.get(info);
        if (!choice) keyed.set(info, (choice = { bucket: `key:${info.keyId}`, rule: tierRule(ctx.profile, info.tier), keyed: true }));
        return choice;
      };
      app.use('/v1/*', async (c, next) => {
        if (isInternalRequest(c.env)) return next();
        const choice = choose(c.req.header('authorization'), c);
        const d = await limiter.check(choice.bucket, choice.rule, now());
        const headers = rateLimitHeaders(ctx.profile, choice.rule, d, wallNow());
        if (!d.allowed) {
          const message = choice.keyed
            ? `rate limit exceeded: ${choice.rule.name} tier allows ${choice.rule.perMinute}/min with a burst of ${choice.rule.capacity}; retry after ${d.retryAfterSeconds} s`
            : PUBLIC_RATE_LIMIT_MESSAGE;
          return refusal(message, headers);
        }
        await next();
        // Set on the answer's own headers: c.header() on a finished response rebuilds it
        // from its body stream, which sent every limited answer down the listener's slow
        // path (a stream read per request). Headers that refuse changes (an immutable
        // guard) still go through c.header(), as before.
        try {
          const h = c.res.headers;
          for (const k in headers) h.set(k, headers[k]!);
        } catch {
          for (const k in headers) c.header(k, headers[k]);
        }
      });
    },
  };
}
