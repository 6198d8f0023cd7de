import { API_VERSION_PREFIX } from './constants.ts';
// The endpoint table's routes (contract/endpoints.ts): each endpoint's id, method, path under
// /v1 and access, as plain data with no schema library, for what cannot load the schemas: the k6
// scenarios (k6 runs them itself, with no package resolution), the sandbox console's browser
// script, the CLI's light paths (cli/startup.test.ts) and the typed client (lendcheck/client).
// routes.test.ts holds it equal to the table, row for row, both ways: add an endpoint to the
// table and that test names the row to add here.

/** Who may call an endpoint: with a partner's key, anyone, or the sandbox's controls. */
export type Access = 'key' | 'public' | 'sandbox';
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Route {
  method: Method;
  path: string;
  access: Access;
}

/** The endpoints the typed client and lendcheck/types name (PartnerEndpoints in endpoint-bodies.ts). */
export const PARTNER_ROUTES = {
  'lend.create': { method: 'POST', path: '/lend', access: 'key' },
  'borrow.create': { method: 'POST', path: '/borrow', access: 'key' },
  'position.get': { method: 'GET', path: '/positions/{positionId}', access: 'key' },
  'positions.list': { method: 'GET', path: '/users/{userId}/positions', access: 'key' },
  'position.repay': { method: 'POST', path: '/positions/{positionId}/repay', access: 'key' },
  'position.cancel': { method: 'POST', path: '/positions/{positionId}/cancel', access: 'key' },
  'position.patch': { method: 'PATCH', path: '/positions/{positionId}', access: 'key' },
  'user.withdraw': { method: 'POST', path: '/users/{userId}/withdraw', access: 'key' },
  /** The path is the profile's ratesPath (the spec does not show it); '/rates' in the default profile. */
  'rates.get': { method: 'GET', path: '/rates', access: 'key' },
  'orderbook.get': { method: 'GET', path: '/markets/{asset}/orderbook', access: 'key' },
  'webhooks.create': { method: 'POST', path: '/webhooks', access: 'key' },
  'webhooks.list': { method: 'GET', path: '/webhooks', access: 'key' },
  'webhooks.delete': { method: 'DELETE', path: '/webhooks/{webhookId}', access: 'key' },
  'public.markets': { method: 'GET', path: '/markets', access: 'public' },
  'public.orderbook': { method: 'GET', path: '/markets/{id}/orderbook', access: 'public' },
  'public.rates': { method: 'GET', path: '/markets/rates', access: 'public' },
  'public.tvl': { method: 'GET', path: '/analytics/tvl', access: 'public' },
  'public.volume': { method: 'GET', path: '/analytics/volume', access: 'public' },
  'public.vaults': { method: 'GET', path: '/vaults', access: 'public' },
  'public.vault': { method: 'GET', path: '/vaults/{id}', access: 'public' },
  'sandbox.fund': { method: 'POST', path: '/sandbox/fund', access: 'sandbox' },
  'sandbox.balances': { method: 'GET', path: '/sandbox/users/{userId}/balances', access: 'sandbox' },
  'sandbox.clock': { method: 'GET', path: '/sandbox/clock', access: 'sandbox' },
  'sandbox.clock.advance': { method: 'POST', path: '/sandbox/clock/advance', access: 'sandbox' },
  'sandbox.trigger': { method: 'POST', path: '/sandbox/trigger', access: 'sandbox' },
  'sandbox.attempts': { method: 'GET', path: '/sandbox/events/{eventId}/attempts', access: 'sandbox' },
} as const satisfies Record<string, Route>;

/** The rest of the table: endpoints no typed client names (a rate series, the console's controls). */
const OTHER_ROUTES = {
  'public.rateSeries': { method: 'GET', path: '/analytics/rates', access: 'public' },
  'sandbox.oracle': { method: 'POST', path: '/sandbox/oracle', access: 'sandbox' },
  'sandbox.users': { method: 'GET', path: '/sandbox/users', access: 'sandbox' },
  'sandbox.deliveries': { method: 'GET', path: '/sandbox/deliveries', access: 'sandbox' },
  'sandbox.resend': { method: 'POST', path: '/sandbox/events/{eventId}/resend', access: 'sandbox' },
  'sandbox.webhook.pause': { method: 'POST', path: '/sandbox/webhooks/{webhookId}/pause', access: 'sandbox' },
  'sandbox.webhook.resume': { method: 'POST', path: '/sandbox/webhooks/{webhookId}/resume', access: 'sandbox' },
} as const satisfies Record<string, Route>;

/** Every endpoint of the table (the default profile's rows, every optional one served) by its id. */
export const ROUTES = { ...PARTNER_ROUTES, ...OTHER_ROUTES };

export type RouteId = keyof typeof ROUTES;

/**
 * Where the sandbox's controls live: the first segment the controls' routes share, under the
 * version prefix (`/v1/sandbox/`). A plugin's own control route (the partner report) sits under
 * it too, and a sandbox without controls serves nothing there (sandbox/partner-report/path.test.ts
 * holds every route of the list to it).
 */
export const CONTROLS_PREFIX = `${API_VERSION_PREFIX}/${ROUTES['sandbox.clock'].path.split('/')[1]}/`;

/**
 * Where a service may serve the get-rates endpoint, which part 4 does not show ("Get-rates
 * path: not shown"): the paths `profile detect` tries first, in order (then the target's own
 * OpenAPI document). The reference sandbox's default comes first.
 */
export const RATES_PATH_CANDIDATES: readonly string[] = [ROUTES['rates.get'].path, '/market-rates', `${ROUTES['rates.get'].path}/current`, '/interest-rates', '/lending-rates'];
