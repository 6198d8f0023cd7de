import { legalAmount, endpoints, KEY_PREFIX, type Endpoint, type LooseBody, type Profile } from '../../contract/index.ts';
import { expectClientError, expectError, fail, show, type Check, type CheckContext, pass } from '../check.ts';
import type { Reply } from '../http.ts';
import { borrowBody, lendBody, sharedLend, validAddress } from './fixtures.ts';
import { callById, templateOf } from './call-by-id.ts';
import type { RouteId } from '../../contract/routes.ts';

// Part 5: every authenticated endpoint refuses a request without a valid Bearer key with
// 401 authentication_failed, whatever is wrong with the header; and one partner never
// sees another's positions (part 1: a partner acts for its own users).

const AUTH_REQ = ['AUTH-1', 'AUTH-4', 'ERR-authentication_failed', 'SHAPE-error'];

/** A request to each authenticated endpoint with plausible input, sent without a key. */
function unauthenticated(ctx: CheckContext, e: Endpoint): Promise<Reply> {
  // Every path parameter a keyed endpoint of the table takes, each a plausible value.
  const params: Record<string, string> = { positionId: `${ctx.runId}-nopos`, userId: ctx.user('auth'), asset: 'USDC', webhookId: `${ctx.runId}-nohook` };
  const body: LooseBody | undefined =
    e.id === 'lend.create'
      ? lendBody(ctx, ctx.user('auth'))
      : e.id === 'borrow.create'
        ? borrowBody(ctx, ctx.user('auth'))
        : e.id === 'user.withdraw'
          ? { asset: 'USDC', amount: legalAmount(ctx.profile, 0, { base: '1', kind: 'withdrawal' }), destination: validAddress(ctx.profile) }
          : e.id === 'webhooks.create'
            ? { url: 'http://127.0.0.1:9/x', events: ['position.created'] }
            : e.method === 'PATCH'
              ? { autoRollover: false }
              : e.method === 'POST'
                ? {}
                : undefined;
  // The ids come from walking the table, so ctx.call's per-endpoint types cannot follow them (call-by-id.ts).
  return callById(ctx, e.id as RouteId, { params, key: null, body });
}

export function authChecks(profile: Profile): Check[] {
  const keyed = endpoints(profile).filter((e) => e.access === 'key');
  return [
    {
      id: 'auth.missing-header',
      title: 'every authenticated endpoint answers 401 authentication_failed without an Authorization header',
      requirements: [...AUTH_REQ],
      async run(ctx) {
        // An unknown rates path (the spec does not show it) is asked nothing, and says so.
        if (profile.ratesPath === null) ctx.note('the get-rates path is unknown (ratesPath null: the spec does not show it and detection found none), so it is not asked without a key; give it as ratesPath in the profile file to check it');
        for (const e of keyed) {
          if (ctx.readOnly && e.method !== 'GET') continue;
          // One path serves both order books; without a key the public one answers (profile orderbookPath).
          if (e.id === 'orderbook.get' && profile.orderbookPath === 'shared-by-auth') {
            ctx.profileChoice({ option: 'orderbookPath', expected: 'shared-by-auth', followed: true });
            continue;
          }
          const r = await unauthenticated(ctx, e);
          // The rates path is the profile's guess: a 404 there says nothing about auth.
          // So is whether the webhook list and delete exist.
          const open = e.id === 'rates.get' ? 'ratesPath' : e.id === 'webhooks.list' || e.id === 'webhooks.delete' ? 'webhooks.listAndDelete' : undefined;
          if (open && r.status !== 401 && r.status >= 400 && r.status < 500) {
            ctx.profileChoice({ option: open, expected: show(open === 'ratesPath' ? profile.ratesPath : profile.webhooks.listAndDelete), followed: false, received: `${r.status} without a key` }, r.exchange);
            continue;
          }
          expectError(r, 'authentication_failed', 401, `${e.method} ${e.path} without a key is refused`);
        }
        return pass();
      },
    },
    {
      id: 'auth.bad-credentials',
      title: 'a wrong scheme, a malformed key, an unknown key and a key of the other environment each get 401 authentication_failed',
      requirements: [...AUTH_REQ, 'AUTH-2'],
      async run(ctx) {
        const env = ctx.key.startsWith(KEY_PREFIX.production) ? KEY_PREFIX.production : KEY_PREFIX.sandbox;
        const other = env === KEY_PREFIX.production ? KEY_PREFIX.sandbox : KEY_PREFIX.production;
        const suffix = ctx.key.slice(env.length);
        const cases: Array<[string, string]> = [
          ['the Basic scheme', `Basic ${Buffer.from(`user:${ctx.key}`).toString('base64')}`],
          ['a Token scheme carrying the real key', `Token ${ctx.key}`],
          ['Bearer with no key', 'Bearer '],
          ['a malformed key', 'Bearer not a key'],
          ['an unknown key', `Bearer ${env}${ctx.runId}unknown0000`],
          ['the key with the other environment\'s prefix', `Bearer ${other}${suffix}`],
        ];
        for (const [what, value] of cases) {
          // A path the spec fixes, so the answer is about the credentials alone.
          const r = await ctx.call('positions.list', { params: { userId: ctx.user('auth') }, key: null, headers: { authorization: value } });
          expectError(r, 'authentication_failed', 401, `a request with ${what} is refused`);
        }
        return pass();
      },
    },
    {
      id: 'auth.isolation',
      title: "a second partner cannot read, list, cancel or change the first partner's positions, and learns nothing of them",
      requirements: ['AUTH-isolation', 'ERR-position_not_found'],
      needs: ['second-key', 'write'],
      async run(ctx) {
        const own = await sharedLend(ctx);
        const mine = { positionId: own.positionId };
        const before = await ctx.call('position.get', { params: mine });
        const flag = (before.json as { autoRollover?: boolean })?.autoRollover;
        const leaks = (text: string) => text.includes(own.userId);
        const key2 = ctx.key2!;
        // 404 position_not_found, or a 403 (profile access.foreignStatus; the other one a note): both refuse without disclosing.
        const refused = (r: Reply, title: string) => {
          if (r.status === 403) expectClientError(r, title);
          else expectError(r, 'position_not_found', 404, title);
          ctx.profileChoice({ option: 'access.foreignStatus', expected: profile.access.foreignStatus, followed: String(r.status) === profile.access.foreignStatus, received: String(r.status) }, r.exchange);
        };
        const get = await ctx.call('position.get', { params: mine, key: key2 });
        refused(get, "partner 2 reading partner 1's position");
        if (leaks(get.text)) fail("partner 2's 404 tells nothing of partner 1's position", 'no owner userId in the body', show(get.text), get.exchange);

        for (const [what, send] of [
          [templateOf(profile, 'position.cancel'), () => ctx.call('position.cancel', { params: mine, key: key2 })],
          [templateOf(profile, 'position.patch'), () => ctx.call('position.patch', { params: mine, key: key2, body: { autoRollover: !flag } })],
          [templateOf(profile, 'position.repay'), () => ctx.call('position.repay', { params: mine, key: key2, body: {} })],
        ] as const) {
          const r = await send();
          refused(r, `partner 2 calling ${what} on partner 1's position`);
          if (leaks(r.text)) fail(`partner 2's refusal of ${what.split(' ')[0]} tells nothing of partner 1's position`, 'no owner userId in the body', show(r.text), r.exchange);
        }

        const list = await ctx.call('positions.list', { params: { userId: own.userId }, key: key2 });
        const unknownUser = profile.errors.unknownUser;
        if (list.status >= 200 && list.status < 300) {
          const items = (list.json as { positions?: Array<{ positionId?: string }> })?.positions ?? [];
          if (items.some((p) => p.positionId === own.positionId) || list.text.includes(own.positionId)) {
            fail("partner 2 listing partner 1's user sees none of partner 1's positions", 'an empty list', show(list.json), list.exchange);
          }
          ctx.profileChoice({ option: 'errors.unknownUser', expected: unknownUser, followed: unknownUser === 'empty-list', received: 'empty-list' }, list.exchange);
        } else {
          // Part 7: the code for an unknown user is "not shown": any 4xx error object refuses (a 404
          // user_not_found, a 403), so long as it discloses none of partner 1's positions. Which
          // status and code is the profile's (a note). The userId in the body is partner 2's own word.
          expectClientError(list, "partner 2 listing partner 1's user is answered with an empty list or a 4xx error object");
          if (list.text.includes(own.positionId)) fail("partner 2's refusal to list partner 1's user tells nothing of partner 1's positions", 'no positionId of partner 1 in the body', show(list.text), list.exchange);
          const code = (list.json as { error: { code: string } }).error.code;
          ctx.profileChoice({ option: 'errors.unknownUser', expected: unknownUser, followed: unknownUser === 'position_not_found' && list.status === 404 && code === 'position_not_found', received: `${list.status} ${code}` }, list.exchange);
        }

        const still = await ctx.call('position.get', { params: mine });
        const after = still.json as { status?: string; autoRollover?: boolean } | undefined;
        if (still.status < 200 || still.status > 299 || after?.status === 'cancelled' || after?.autoRollover !== flag) {
          fail("partner 1's position is untouched by partner 2's attempts", `not cancelled, autoRollover ${flag}`, `${still.status} ${show(still.json)}`, still.exchange);
        }
        return pass();
      },
    },
  ];
}
