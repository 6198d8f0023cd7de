import { DEFAULT_KEYS } from '../../../sandbox/auth/keys.ts';
import { alterRequest, matches, paramOf, withHeader, withJson, bodyJson, errCode, rewrite } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of authentication and tenancy (spec part 5, part 1).

const partnerA = DEFAULT_KEYS.find((k) => k.partnerId === 'partner_a' && k.tier === 'scale')!.key;
const partnerB = DEFAULT_KEYS.filter((k) => k.partnerId === 'partner_b').map((k) => k.key);
const bearer = (req: Request) => /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];

export const AUTH_MUTANTS = registerMutants([
  {
    id: 'auth.skipped-on-rates',
    breaks: 'GET /rates answers without a key (auth skipped on one endpoint)',
    rule: 'AUTH-4',
    killers: ['auth.missing-header'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'rates.get') && !req.headers.get('authorization'), (req) => withHeader(req, 'authorization', `Bearer ${partnerA}`)),
  },
  {
    id: 'auth.skipped-on-withdraw',
    breaks: 'POST /users/{userId}/withdraw answers without a key',
    rule: 'AUTH-4',
    killers: ['auth.missing-header'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'user.withdraw') && !req.headers.get('authorization'), (req) => withHeader(req, 'authorization', `Bearer ${partnerA}`)),
  },
  {
    id: 'auth.live-key-accepted',
    breaks: 'a ck_live_ key is accepted by the sandbox as if it were ck_test_',
    rule: 'AUTH-2',
    killers: ['auth.bad-credentials'],
    direction: 'upstream',
    install: () => alterRequest((req) => bearer(req)?.startsWith('ck_live_') ?? false, (req) => withHeader(req, 'authorization', `Bearer ck_test_${bearer(req)!.slice('ck_live_'.length)}`)),
  },
  {
    id: 'auth.any-scheme',
    breaks: 'any auth scheme is accepted (Token <key> works like Bearer)',
    rule: 'AUTH-1',
    killers: ['auth.bad-credentials'],
    direction: 'upstream',
    install: () => alterRequest((req) => /^Token\s/.test(req.headers.get('authorization') ?? ''), (req) => withHeader(req, 'authorization', (req.headers.get('authorization') ?? '').replace(/^Token/, 'Bearer'))),
  },
  {
    id: 'auth.403-not-401',
    breaks: 'an invalid key gets 403 instead of 401',
    rule: 'ERR-authentication_failed',
    killers: ['auth.missing-header'],
    install: () => rewrite((_req, res) => res.status === 401, (b) => b, 403),
  },
  {
    id: 'auth.wrong-code',
    breaks: 'an invalid key gets code unauthorized instead of authentication_failed',
    rule: 'AUTH-4',
    killers: ['auth.missing-header'],
    install: () => rewrite((_req, res) => res.status === 401, (b) => ({ error: { ...b.error, code: 'unauthorized' } })),
  },
  {
    id: 'tenancy.position-leak',
    breaks: "partner B can read partner A's position",
    rule: 'AUTH-isolation',
    killers: ['auth.isolation'],
    install: () => async (req, next) => {
      const res = await next(req);
      const k = bearer(req);
      if (!(matches(req, 'position.get') && res.status === 404 && k && partnerB.includes(k))) return res;
      return next(withHeader(req, 'authorization', `Bearer ${partnerA}`));
    },
  },
  {
    id: 'tenancy.list-leak',
    breaks: "partner B's list of a user shows partner A's positions",
    rule: 'AUTH-isolation',
    killers: ['auth.isolation'],
    direction: 'upstream',
    install: () => alterRequest((req) => matches(req, 'positions.list') && partnerB.includes(bearer(req) ?? ''), (req) => withHeader(req, 'authorization', `Bearer ${partnerA}`)),
  },
  {
    id: 'tenancy.404-leaks-owner',
    breaks: "the 404 for another partner's position names its owner",
    rule: 'AUTH-isolation',
    killers: ['auth.isolation'],
    install: () => async (req, next) => {
      const res = await next(req);
      const k = bearer(req);
      if (!(matches(req, 'position.get') && res.status === 404 && k && partnerB.includes(k))) return res;
      const owner = await bodyJson(await next(withHeader(req, 'authorization', `Bearer ${partnerA}`)));
      const body = await bodyJson(res);
      const userId = (owner as { userId?: string })?.userId;
      if (!userId || errCode(body) !== 'position_not_found') return withJson(res, body);
      return withJson(res, { error: { code: 'position_not_found', message: `position ${paramOf(req, 'positionId')} belongs to user ${userId} of another partner` } });
    },
  },
  {
    id: 'public.markets-demands-key',
    breaks: 'GET /markets demands a key',
    rule: 'AUTH-5',
    killers: ['endpoint.public.markets'],
    install: () => async (req, next) =>
      matches(req, 'public.markets') && !req.headers.get('authorization')
        ? withJson(await next(req), { error: { code: 'authentication_failed', message: 'Authorization: a key is required' } }, 401)
        : next(req),
  },
  {
    id: 'public.vaults-demands-key',
    breaks: 'GET /vaults demands a key',
    rule: 'AUTH-5',
    killers: ['endpoint.public.vaults'],
    install: () => async (req, next) =>
      matches(req, 'public.vaults') && !req.headers.get('authorization')
        ? withJson(await next(req), { error: { code: 'authentication_failed', message: 'Authorization: a key is required' } }, 401)
        : next(req),
  },
]);
