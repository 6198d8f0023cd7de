import { z } from 'zod';
import type { Profile } from './profile.ts';
import { knownSuccessStatus, successStatus } from './profile.ts';
import * as s from './schemas.ts';
import * as shapes from './shapes.ts';
import * as ctl from './sandbox-controls.ts';
import type { Endpoint } from './endpoint-type.ts';
import { rateBounded } from './rate-bound.ts';

export type { Access, Endpoint, EndpointId, Method, OwnedObject, Ownership } from './endpoint-type.ts';

const positionId = z.object({ positionId: z.string().min(1) });
const userIdParam = z.object({ userId: z.string().min(1) });
const analyticsQuery = z.object({ period: z.string().optional() });

/** Whether the target serves DELETE /webhooks/{webhookId}: with its list, or alone (profile webhooks.*). */
export const webhookDeletable = (p: Profile) => p.webhooks.listAndDelete || p.webhooks.deleteWithoutList;

/**
 * An authenticated read with no side effect for the limiter's checks: the rates path, or, where
 * the profile does not know it (ratesPath null), the authenticated order book of an asset (a
 * path the spec shows). Every request with a key draws from that key's bucket (part 8).
 */
export function limitProbe(profile: Profile): { id: 'rates.get'; params: Record<string, never> } | { id: 'orderbook.get'; params: { asset: string } } {
  return profile.ratesPath !== null ? { id: 'rates.get', params: {} } : { id: 'orderbook.get', params: { asset: profile.assets.borrow[0] ?? 'USDC' } };
}

/** limitProbe as a path under /v1 (its parameter encoded), for what sends a path, not an endpoint (k6's environment). */
export function limitProbePath(profile: Profile): string {
  const p = limitProbe(profile);
  return p.id === 'rates.get' ? profile.ratesPath! : `/markets/${encodeURIComponent(p.params.asset)}/orderbook`;
}

/** The endpoint table of spec part 4 plus the sandbox controls, resolved against a profile. */
export function endpoints(profile: Profile): Endpoint[] {
  // The profile's rate bound on every request and answer (contract/rate-bound.ts).
  const below = profile.bounds.rateBelow;
  return table(profile).map((e) => (below === null ? e : { ...e, ...(e.body ? { body: rateBounded(e.body, below) } : {}), response: rateBounded(e.response, below) }));
}

function table(profile: Profile): Endpoint[] {
  return [
    { id: 'lend.create', method: 'POST', path: '/lend', access: 'key', summary: 'Place a lend order', body: s.lendRequest, response: s.createLendResponse, responseSource: 'spec', requirements: ['EP-lend', 'SHAPE-create-lend'], owns: { object: 'user', param: 'userId', verb: 'create' } },
    { id: 'borrow.create', method: 'POST', path: '/borrow', access: 'key', summary: 'Place a borrow order', body: s.borrowRequest, response: shapes.createBorrowResponse, responseSource: 'profile', requirements: ['EP-borrow'], owns: { object: 'user', param: 'userId', verb: 'create' } },
    { id: 'position.get', method: 'GET', path: '/positions/{positionId}', access: 'key', summary: 'Read one position', params: positionId, response: s.position, responseSource: 'spec', requirements: ['EP-position-get', 'SHAPE-position'], owns: { object: 'position', param: 'positionId', verb: 'read' } },
    { id: 'positions.list', method: 'GET', path: '/users/{userId}/positions', access: 'key', summary: "List a user's positions", params: userIdParam, query: s.positionListQuery, response: s.positionList, responseSource: 'spec', requirements: ['EP-positions-list', 'SHAPE-position-list'], owns: { object: 'user', param: 'userId', verb: 'list' } },
    { id: 'position.repay', method: 'POST', path: '/positions/{positionId}/repay', access: 'key', summary: 'Repay a borrow position', params: positionId, body: s.repayRequest, response: shapes.repayResult, responseSource: 'profile', requirements: ['EP-repay'], owns: { object: 'position', param: 'positionId', verb: 'change' } },
    { id: 'position.cancel', method: 'POST', path: '/positions/{positionId}/cancel', access: 'key', summary: 'Cancel an unmatched order', params: positionId, response: shapes.cancelResult, responseSource: 'profile', requirements: ['EP-cancel'], owns: { object: 'position', param: 'positionId', verb: 'change' } },
    { id: 'position.patch', method: 'PATCH', path: '/positions/{positionId}', access: 'key', summary: 'Change auto-features', params: positionId, body: s.patchPositionRequest, response: shapes.patchResult, responseSource: 'profile', requirements: ['EP-patch'], owns: { object: 'position', param: 'positionId', verb: 'change' } },
    { id: 'user.withdraw', method: 'POST', path: '/users/{userId}/withdraw', access: 'key', summary: 'Withdraw available funds', params: userIdParam, body: s.withdrawRequest, response: shapes.withdrawalRecord, responseSource: 'profile', requirements: ['EP-withdraw'], owns: { object: 'user', param: 'userId', verb: 'change' } },
    // Served somewhere the spec does not show: an unknown path (null) is no endpoint to assert.
    ...(profile.ratesPath === null
      ? []
      : ([{ id: 'rates.get', method: 'GET', path: profile.ratesPath, access: 'key', summary: 'Current rates', response: s.ratesResponse, responseSource: 'spec', requirements: ['EP-rates', 'SHAPE-rates'], owns: false }] satisfies Endpoint[])),
    { id: 'orderbook.get', method: 'GET', path: '/markets/{asset}/orderbook', access: 'key', summary: 'Order book of an asset', params: z.object({ asset: z.string().min(1) }), query: s.orderBookQueryUpTo(profile.bounds.orderbookMaxDepth), response: shapes.authOrderBook, responseSource: 'profile', requirements: ['EP-orderbook-auth'], owns: false },
    { id: 'webhooks.create', method: 'POST', path: '/webhooks', access: 'key', summary: 'Subscribe to events', body: s.webhookSubscriptionFor(profile.webhooks.secretMinLength, profile.signature.scheme ?? undefined), response: shapes.webhookRegistration, responseSource: 'profile', requirements: ['EP-webhooks'], owns: { object: 'webhook', verb: 'create' } },
    ...(profile.webhooks.listAndDelete
      ? ([{ id: 'webhooks.list', method: 'GET', path: '/webhooks', access: 'key', summary: 'List subscriptions', response: shapes.webhookList, responseSource: 'profile', requirements: ['EP-webhooks'], owns: { object: 'webhook', verb: 'list' } }] satisfies Endpoint[])
      : []),
    ...(webhookDeletable(profile)
      ? ([
          { id: 'webhooks.delete', method: 'DELETE', path: '/webhooks/{webhookId}', access: 'key', summary: 'Delete a subscription', params: z.object({ webhookId: z.string().min(1) }), response: z.looseObject({ webhookId: z.string(), deleted: z.literal(true) }), responseSource: 'profile', requirements: ['EP-webhooks'], owns: { object: 'webhook', param: 'webhookId', verb: 'change' } },
        ] satisfies Endpoint[])
      : []),

    { id: 'public.markets', method: 'GET', path: '/markets', access: 'public', summary: 'List markets', response: s.marketList, responseSource: 'spec', requirements: ['EP-public-markets', 'SHAPE-market'] },
    { id: 'public.orderbook', method: 'GET', path: '/markets/{id}/orderbook', access: 'public', summary: 'Public order book of a market', params: z.object({ id: z.string().min(1) }), response: s.orderBook, responseSource: 'spec', requirements: ['EP-public-orderbook', 'SHAPE-orderbook'] },
    { id: 'public.rates', method: 'GET', path: '/markets/rates', access: 'public', summary: 'Public rates', response: shapes.publicRates, responseSource: 'profile', requirements: ['EP-public-rates'] },
    { id: 'public.tvl', method: 'GET', path: '/analytics/tvl', access: 'public', summary: 'Total value locked over a period', query: analyticsQuery, response: shapes.analyticsSeries, responseSource: 'profile', requirements: ['EP-public-analytics'] },
    { id: 'public.volume', method: 'GET', path: '/analytics/volume', access: 'public', summary: 'Volume over a period', query: analyticsQuery, response: shapes.analyticsSeries, responseSource: 'profile', requirements: ['EP-public-analytics'] },
    { id: 'public.rateSeries', method: 'GET', path: '/analytics/rates', access: 'public', summary: 'Rate series', query: z.object({ asset: z.string().optional(), maturity: z.string().optional(), period: z.string().optional() }), response: shapes.analyticsSeries, responseSource: 'profile', requirements: ['EP-public-analytics'] },
    { id: 'public.vaults', method: 'GET', path: '/vaults', access: 'public', summary: 'List vaults', response: shapes.vaultList, responseSource: 'profile', requirements: ['EP-public-vaults'] },
    { id: 'public.vault', method: 'GET', path: '/vaults/{id}', access: 'public', summary: 'One vault', params: z.object({ id: z.string().min(1) }), response: shapes.vault, responseSource: 'profile', requirements: ['EP-public-vaults'] },

    ...ctl.controlEndpoints(),
  ];
}

/** An endpoint's request body as the profile checks it (its rate bound included). */
export function endpointBody(profile: Profile, id: string): z.ZodType {
  const body = endpoints(profile).find((e) => e.id === id)?.body;
  if (!body) throw new Error(`no request body for ${id}`);
  return body;
}

export function endpointKey(e: Pick<Endpoint, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}

/** The profile's successStatus key of an endpoint (the get-rates path, whatever it is, is `GET /rates`). */
export const successKey = (e: Pick<Endpoint, 'id' | 'method' | 'path'>): string => (e.id === 'rates.get' ? 'GET /rates' : endpointKey(e));

/** The success status the profile gives this endpoint (public GETs default to 200). */
export function endpointSuccess(profile: Profile, e: Endpoint): number {
  return successStatus(profile, successKey(e));
}

/** The success status the profile knows for this endpoint; undefined where it records it as unknown (null). */
export function endpointSuccessKnown(profile: Profile, e: Endpoint): number | undefined {
  return knownSuccessStatus(profile, successKey(e));
}

/** Whether this public endpoint wraps its payload as {data, timestamp} under the profile. */
export function publicEnvelopeOf(profile: Profile, e: Endpoint): 'bare' | 'data' {
  return profile.publicEnvelope[e.path] ?? 'data';
}

/** The schema a success body must match, envelope included. */
export function successSchema(profile: Profile, e: Endpoint): z.ZodType {
  if (e.access === 'public' && publicEnvelopeOf(profile, e) === 'data') return shapes.publicEnvelope(e.response);
  return e.response;
}
