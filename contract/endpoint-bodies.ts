import type { z } from 'zod';
import type * as s from './schemas.ts';
import type * as shapes from './shapes.ts';
import type * as ctl from './sandbox-controls.ts';
import type { Access, Method } from './endpoint-type.ts';
import { PARTNER_ROUTES } from './routes.ts';

// `lendcheck/types`: the request and response body of every endpoint a partner calls, as
// TypeScript types inferred from the very zod schemas the sandbox and the conformance suite
// check bodies with (schemas.ts, shapes.ts, sandbox-controls.ts), so a partner's typed body
// cannot drift from what the sandbox accepts. Requests are z.input (what you send: optional
// fields stay optional), responses z.output (what you read). Responses are "loose": fields the
// spec shows are typed, extras are `unknown`. Where the spec does not show a body (responseSource
// 'profile' in endpoints.ts), the type is the reference sandbox's (profile lendcheck-v1): another
// service may answer otherwise (contract/profile.ts records how).

type In<T extends z.ZodType> = z.input<T>;
type Out<T extends z.ZodType> = z.output<T>;

export type LendRequest = In<typeof s.lendRequest>;
export type BorrowRequest = In<typeof s.borrowRequest>;
export type RepayRequest = In<typeof s.repayRequest>;
export type PatchPositionRequest = In<typeof s.patchPositionRequest>;
export type WithdrawRequest = In<typeof s.withdrawRequest>;
export type WebhookSubscriptionRequest = In<typeof s.webhookSubscription>;
export type PositionListQuery = In<typeof s.positionListQuery>;
export type OrderBookQuery = In<typeof s.orderBookQuery>;
export type FundRequest = In<typeof ctl.fundRequest>;
export type ClockAdvanceRequest = In<typeof ctl.clockAdvanceRequest>;
export type TriggerRequest = In<typeof ctl.triggerRequest>;

export type CreateLendResponse = Out<typeof s.createLendResponse>;
export type CreateBorrowResponse = Out<typeof shapes.createBorrowResponse>;
export type Position = Out<typeof s.position>;
export type BorrowPosition = Out<typeof shapes.borrowPosition>;
export type PositionList = Out<typeof s.positionList>;
export type RepayResult = Out<typeof shapes.repayResult>;
export type CancelResult = Out<typeof shapes.cancelResult>;
export type WithdrawalRecord = Out<typeof shapes.withdrawalRecord>;
export type RatesResponse = Out<typeof s.ratesResponse>;
export type AuthOrderBook = Out<typeof shapes.authOrderBook>;
export type WebhookRegistration = Out<typeof shapes.webhookRegistration>;
export type WebhookList = Out<typeof shapes.webhookList>;
export type WebhookDeleted = { webhookId: string; deleted: true; [k: string]: unknown };
export type MarketList = Out<typeof s.marketList>;
export type OrderBook = Out<typeof s.orderBook>;
export type PublicRates = Out<typeof shapes.publicRates>;
export type AnalyticsSeries = Out<typeof shapes.analyticsSeries>;
export type VaultList = Out<typeof shapes.vaultList>;
export type Vault = Out<typeof shapes.vault>;
export type BalancesResponse = Out<typeof ctl.balancesResponse>;
export type ClockResponse = Out<typeof ctl.clockResponse>;
export type TriggerResponse = Out<typeof ctl.triggerResponse>;
export type AttemptsResponse = Out<typeof ctl.attemptsResponse>;
/** The spec's error object (part 5): every 4xx and 5xx. */
export type ErrorBody = Out<typeof s.errorBody>;
/** A webhook delivery's body (part 6). */
export type EventEnvelope = Out<typeof s.eventEnvelope>;
/** {data, timestamp}: the public wrapper where the profile puts one (publicEnvelope). */
export type PublicEnvelope<T> = { data: T; timestamp: string; [k: string]: unknown };

/** Each endpoint by its id (endpoints.ts): method, path under /v1, request body, query and success body. */
export interface PartnerEndpoints {
  'lend.create': { method: 'POST'; path: '/lend'; body: LendRequest; response: CreateLendResponse };
  'borrow.create': { method: 'POST'; path: '/borrow'; body: BorrowRequest; response: CreateBorrowResponse };
  'position.get': { method: 'GET'; path: '/positions/{positionId}'; response: Position };
  'positions.list': { method: 'GET'; path: '/users/{userId}/positions'; query: PositionListQuery; response: PositionList };
  'position.repay': { method: 'POST'; path: '/positions/{positionId}/repay'; body: RepayRequest; response: RepayResult };
  'position.cancel': { method: 'POST'; path: '/positions/{positionId}/cancel'; response: CancelResult };
  'position.patch': { method: 'PATCH'; path: '/positions/{positionId}'; body: PatchPositionRequest; response: Position };
  'user.withdraw': { method: 'POST'; path: '/users/{userId}/withdraw'; body: WithdrawRequest; response: WithdrawalRecord };
  /** The path is the profile's ratesPath (the spec does not show it); '/rates' in the reference sandbox. */
  'rates.get': { method: 'GET'; path: '/rates'; response: RatesResponse };
  'orderbook.get': { method: 'GET'; path: '/markets/{asset}/orderbook'; query: OrderBookQuery; response: AuthOrderBook };
  'webhooks.create': { method: 'POST'; path: '/webhooks'; body: WebhookSubscriptionRequest; response: WebhookRegistration };
  'webhooks.list': { method: 'GET'; path: '/webhooks'; response: WebhookList };
  'webhooks.delete': { method: 'DELETE'; path: '/webhooks/{webhookId}'; response: WebhookDeleted };
  'public.markets': { method: 'GET'; path: '/markets'; response: MarketList };
  'public.orderbook': { method: 'GET'; path: '/markets/{id}/orderbook'; response: OrderBook };
  'public.rates': { method: 'GET'; path: '/markets/rates'; response: PublicEnvelope<PublicRates> };
  'public.tvl': { method: 'GET'; path: '/analytics/tvl'; response: PublicEnvelope<AnalyticsSeries> };
  'public.volume': { method: 'GET'; path: '/analytics/volume'; response: PublicEnvelope<AnalyticsSeries> };
  'public.vaults': { method: 'GET'; path: '/vaults'; response: PublicEnvelope<VaultList> };
  'public.vault': { method: 'GET'; path: '/vaults/{id}'; response: PublicEnvelope<Vault> };
  'sandbox.fund': { method: 'POST'; path: '/sandbox/fund'; body: FundRequest; response: BalancesResponse };
  'sandbox.balances': { method: 'GET'; path: '/sandbox/users/{userId}/balances'; response: BalancesResponse };
  'sandbox.clock': { method: 'GET'; path: '/sandbox/clock'; response: ClockResponse };
  'sandbox.clock.advance': { method: 'POST'; path: '/sandbox/clock/advance'; body: ClockAdvanceRequest; response: ClockResponse };
  'sandbox.trigger': { method: 'POST'; path: '/sandbox/trigger'; body: TriggerRequest; response: TriggerResponse };
  'sandbox.attempts': { method: 'GET'; path: '/sandbox/events/{eventId}/attempts'; response: AttemptsResponse };
}

export type PartnerEndpointId = keyof PartnerEndpoints;
/** The request body of an endpoint (`never` for one that takes none). */
export type RequestOf<Id extends PartnerEndpointId> = PartnerEndpoints[Id] extends { body: infer B } ? B : never;
/** The success body of an endpoint. */
export type ResponseOf<Id extends PartnerEndpointId> = PartnerEndpoints[Id]['response'];

/**
 * The same table at run time (method, path and access), for the typed client: the zod-free
 * route list's (routes.ts). The annotation holds each row's method and path to the type's
 * above at compile time; routes.test.ts holds the list to endpoints.ts.
 */
export const PARTNER_ENDPOINTS: { [Id in PartnerEndpointId]: { method: PartnerEndpoints[Id]['method'] & Method; path: PartnerEndpoints[Id]['path']; access: Access } } = PARTNER_ROUTES;
