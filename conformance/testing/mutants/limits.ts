import { bodyJson, matches, stripHeaders, withJson } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of rate limiting (spec part 8).

const RL = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

export const LIMIT_MUTANTS = registerMutants([
  {
    id: 'limit.429-without-headers',
    breaks: 'a 429 carries no X-RateLimit-* headers',
    rule: 'LIMIT-headers',
    killers: ['limits.burst-429'],
    install: () => async (req, next) => {
      const res = await next(req);
      return res.status === 429 ? stripHeaders(res, RL) : res;
    },
  },
  {
    id: 'limit.429-without-retry-after',
    breaks: 'a 429 says nothing of when to retry',
    rule: 'LIMIT-429',
    killers: ['limits.burst-429'],
    install: () => async (req, next) => {
      const res = await next(req);
      return res.status === 429 ? stripHeaders(res, ['retry-after']) : res;
    },
  },
  {
    id: 'limit.429-wrong-code',
    breaks: 'a 429 carries code too_many_requests',
    rule: 'ERR-rate_limit_exceeded',
    killers: ['limits.burst-429'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (res.status !== 429) return res;
      const b = (await bodyJson(res)) as { error: { message: string } };
      return withJson(res, { error: { code: 'too_many_requests', message: b.error.message } });
    },
  },
  {
    id: 'limit.never-429',
    breaks: 'an empty bucket still answers 200 (the limit is not enforced)',
    rule: 'LIMIT-429',
    killers: ['limits.burst-429'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (res.status !== 429 || !matches(req, 'rates.get')) return res;
      const h = new Headers(res.headers);
      h.delete('retry-after');
      return new Response(JSON.stringify({ rates: [], timestamp: new Date().toISOString() }), { status: 200, headers: h });
    },
  },
  {
    id: 'limit.public-429-other-body',
    breaks: 'the public 429 body is not the error object',
    rule: 'ERR-public-429-body',
    killers: ['limits.public-429'],
    install: () => async (req, next) => {
      const res = await next(req);
      return res.status === 429 && !req.headers.get('authorization') ? withJson(res, { message: 'slow down' }) : res;
    },
  },
  {
    id: 'limit.headers-missing-on-markets',
    breaks: 'GET /markets answers without rate-limit headers',
    rule: 'LIMIT-headers',
    killers: ['limits.headers-decrease'],
    install: () => async (req, next) => {
      const res = await next(req);
      return matches(req, 'public.markets') ? stripHeaders(res, RL) : res;
    },
  },
  {
    id: 'limit.remaining-constant',
    breaks: 'X-RateLimit-Remaining never falls',
    rule: 'LIMIT-headers',
    killers: ['limits.headers-decrease'],
    install: () => async (req, next) => {
      const res = await next(req);
      const limit = res.headers.get('x-ratelimit-limit');
      if (!limit || res.status === 429) return res;
      const h = new Headers(res.headers);
      h.set('x-ratelimit-remaining', limit);
      return new Response(res.body, { status: res.status, headers: h });
    },
  },
  {
    id: 'limit.remaining-zero-while-accepting',
    breaks: 'X-RateLimit-Remaining says 0 on every answer the key still gets',
    rule: 'LIMIT-headers',
    killers: ['limits.headers-decrease'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (!res.headers.has('x-ratelimit-remaining') || res.status === 429) return res;
      const h = new Headers(res.headers);
      h.set('x-ratelimit-remaining', '0');
      return new Response(res.body, { status: res.status, headers: h });
    },
  },
  {
    id: 'limit.tier-limit-wrong',
    breaks: 'a Scale key reports the Growth limit',
    rule: 'LIMIT-tier-scale',
    killers: ['limits.tiers'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (res.headers.get('x-ratelimit-limit') !== '2000') return res;
      const h = new Headers(res.headers);
      h.set('x-ratelimit-limit', '500');
      return new Response(res.body, { status: res.status, headers: h });
    },
  },
]);
