import { z } from 'zod';
import { EVENT_TYPES } from './constants.ts';
import { decimalString, isoUtcTimestamp, positiveDecimalString } from './refinements.ts';
import type { Endpoint } from './endpoint-type.ts';

// lendcheck's own control surface under /v1/sandbox, in the spirit of Stripe's test
// clocks and `stripe trigger`. Not part of the spec: a target "has sandbox controls"
// when GET /sandbox/clock answers 200 with a key.

export const fundRequest = z.object({ userId: z.string().min(1), asset: z.string().min(1), amount: positiveDecimalString });
export const balance = z.looseObject({ asset: z.string(), available: decimalString, locked: decimalString });
export const balancesResponse = z.looseObject({ userId: z.string(), balances: z.array(balance) });

export const oracleRequest = z.object({ asset: z.string().min(1), priceUsd: positiveDecimalString });
export const oracleResponse = z.looseObject({ asset: z.string(), priceUsd: decimalString });

export const clockAdvanceRequest = z.object({ seconds: z.number().int().positive().max(10 * 365 * 86_400) });
export const clockResponse = z.looseObject({ now: isoUtcTimestamp, timeScale: z.number().positive() });

export const triggerRequest = z.object({
  type: z.enum(EVENT_TYPES),
  positionId: z.string().min(1).optional(),
  userId: z.string().min(1).optional(),
});
export const triggerResponse = z.looseObject({ eventId: z.string().min(1), type: z.enum(EVENT_TYPES) });

export const deliveryAttempt = z.looseObject({
  attempt: z.number().int().min(1),
  webhookId: z.string(),
  scheduledAt: isoUtcTimestamp,
  sentAt: isoUtcTimestamp.optional(),
  status: z.number().int().nullable(),
  outcome: z.enum(['pending', 'succeeded', 'failed']),
  error: z.string().optional(),
  /** Real ms from sending to the answer (or the error). */
  latencyMs: z.number().nonnegative().optional(),
  /** The first bytes of the receiver's answer. */
  response: z.string().optional(),
  /** The x-service-signature value the attempt carried. */
  signature: z.string().optional(),
});
export const attemptsResponse = z.looseObject({
  eventId: z.string(),
  type: z.enum(EVENT_TYPES),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(deliveryAttempt),
});

// For the console (sandbox/console/): the caller's users with their funds, the delivery log,
// and the delivery actions (resend, pause, resume). Every console action is one of these
// controls or a spec endpoint; the console has no code path of its own.
export const usersResponse = z.looseObject({
  partnerId: z.string(),
  users: z.array(z.looseObject({ userId: z.string(), createdAt: isoUtcTimestamp, balances: z.array(balance) })),
});
export const subscriptionState = z.looseObject({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  createdAt: isoUtcTimestamp,
  paused: z.boolean(),
  disabled: z.boolean(),
});
export const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).optional() });
export const loggedEvent = z.looseObject({
  eventId: z.string(),
  type: z.enum(EVENT_TYPES),
  createdAt: isoUtcTimestamp,
  data: z.record(z.string(), z.unknown()),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(deliveryAttempt),
});
export const deliveriesResponse = z.looseObject({ subscriptions: z.array(subscriptionState), events: z.array(loggedEvent) });
export const resendRequest = z.object({ webhookId: z.string().min(1).optional() });
export const pauseResponse = z.looseObject({ webhookId: z.string(), paused: z.boolean() });

export function controlEndpoints(): Endpoint[] {
  return [
    { id: 'sandbox.fund', method: 'POST', path: '/sandbox/fund', access: 'sandbox', summary: 'Add test funds to a user', body: fundRequest, response: balancesResponse, responseSource: 'profile', requirements: [], owns: { object: 'user', param: 'userId', verb: 'change' } },
    { id: 'sandbox.balances', method: 'GET', path: '/sandbox/users/{userId}/balances', access: 'sandbox', summary: "A user's balances", params: z.object({ userId: z.string().min(1) }), response: balancesResponse, responseSource: 'profile', requirements: [], owns: { object: 'user', param: 'userId', verb: 'read' } },
    { id: 'sandbox.oracle', method: 'POST', path: '/sandbox/oracle', access: 'sandbox', summary: 'Set an oracle price', body: oracleRequest, response: oracleResponse, responseSource: 'profile', requirements: [], owns: false },
    { id: 'sandbox.clock', method: 'GET', path: '/sandbox/clock', access: 'sandbox', summary: 'Read the test clock', response: clockResponse, responseSource: 'profile', requirements: [], owns: false },
    { id: 'sandbox.clock.advance', method: 'POST', path: '/sandbox/clock/advance', access: 'sandbox', summary: 'Move the test clock forward', body: clockAdvanceRequest, response: clockResponse, responseSource: 'profile', requirements: [], owns: false },
    { id: 'sandbox.trigger', method: 'POST', path: '/sandbox/trigger', access: 'sandbox', summary: 'Emit an event', body: triggerRequest, response: triggerResponse, responseSource: 'profile', requirements: [], owns: { object: 'position', param: 'positionId', verb: 'read' } },
    { id: 'sandbox.attempts', method: 'GET', path: '/sandbox/events/{eventId}/attempts', access: 'sandbox', summary: 'Delivery attempts of an event', params: z.object({ eventId: z.string().min(1) }), response: attemptsResponse, responseSource: 'profile', requirements: [], owns: { object: 'event', param: 'eventId', verb: 'read' } },
    { id: 'sandbox.users', method: 'GET', path: '/sandbox/users', access: 'sandbox', summary: "The caller's users with their funds per asset", response: usersResponse, responseSource: 'profile', requirements: [], owns: { object: 'user', verb: 'list' } },
    { id: 'sandbox.deliveries', method: 'GET', path: '/sandbox/deliveries', access: 'sandbox', summary: 'The delivery log: subscriptions, and the newest events with every attempt', query: deliveriesQuery, response: deliveriesResponse, responseSource: 'profile', requirements: [], owns: { object: 'event', verb: 'list' } },
    { id: 'sandbox.resend', method: 'POST', path: '/sandbox/events/{eventId}/resend', access: 'sandbox', summary: 'Send an event again now (to every subscription it went to, or one)', params: z.object({ eventId: z.string().min(1) }), body: resendRequest, response: attemptsResponse, responseSource: 'profile', requirements: [], owns: { object: 'event', param: 'eventId', verb: 'change' } },
    { id: 'sandbox.webhook.pause', method: 'POST', path: '/sandbox/webhooks/{webhookId}/pause', access: 'sandbox', summary: 'Hold deliveries to a subscription (they queue)', params: z.object({ webhookId: z.string().min(1) }), response: pauseResponse, responseSource: 'profile', requirements: [], owns: { object: 'webhook', param: 'webhookId', verb: 'change' } },
    { id: 'sandbox.webhook.resume', method: 'POST', path: '/sandbox/webhooks/{webhookId}/resume', access: 'sandbox', summary: 'Send the queued deliveries of a paused subscription', params: z.object({ webhookId: z.string().min(1) }), response: pauseResponse, responseSource: 'profile', requirements: [], owns: { object: 'webhook', param: 'webhookId', verb: 'change' } },
  ];
}
