import { controls, renameFields, successStatus, webhookDeletable, webhookSubscription, type EventType, type FieldNames, type Profile } from '../../contract/index.ts';
import { ApiError } from '../answer/errors.ts';
import { parseWith, readJsonBody, refuseUnknownFields } from '../pipeline/validate.ts';
import { json } from '../answer/answer.ts';
import type { PluginRoute, SandboxContext } from '../pipeline/plugin.ts';
import { resendEvent, setPaused } from './actions.ts';
import { deliveryLog, eventAttempts } from './attempts.ts';
import { parseSubscription, SubscriptionStore } from './subscriptions.ts';
import { positionData, syntheticData } from './trigger.ts';
import { hookFaultEffects, senderFaults } from './faults/index.ts';

// Handlers of webhooks.create/list/delete and of the sandbox.trigger / sandbox.attempts
// controls, declared by endpoint id (the contract's table gives their paths and auth).
// They run after auth, so `partner` is the caller; every lookup is
// scoped to its partnerId, and another partner's ids read as not found.

function notFound(profile: Profile, field: string, what: string): ApiError {
  const e = profile.errors.unknownRoute;
  return new ApiError(e.code, `${field}: ${what}`, e.status);
}

/** What the routes tell the dispatcher (absent when dispatch is off). */
export interface DispatchHooks {
  kick(): void;
  forgetSubscription(webhookId: string): void;
}

export function webhookRoutes(ctx: SandboxContext, dispatch: () => DispatchHooks | undefined): PluginRoute[] {
  const { profile, clock, engine } = ctx;
  const subs = new SubscriptionStore(ctx.db);
  // The authorization faults' seams (sandbox/webhooks/faults/webhook-owner.ts); none without --fault.
  const given = senderFaults(ctx.faults);
  const faults = given.length ? hookFaultEffects(given, { db: ctx.db }) : {};
  const routes: PluginRoute[] = [];
  // The profile's names for these bodies the spec does not show (contract/profile-bodies.ts).
  const named = (key: keyof FieldNames, body: unknown) => renameFields(body, (profile.bodies.fieldNames as FieldNames)[key]);

  routes.push({
    endpoint: 'webhooks.create',
    handle: async ({ req, partner }) => {
      const raw = await readJsonBody(req, profile, true);
      refuseUnknownFields(profile, webhookSubscription, raw);
      const body = parseSubscription(profile, raw);
      const reg = subs.create(partner!.partnerId, body, clock.now(), profile.webhooks.registrationSecret);
      return json(named('POST /webhooks', reg), successStatus(profile, 'POST /webhooks'));
    },
  });

  if (profile.webhooks.listAndDelete) {
    routes.push({ endpoint: 'webhooks.list', handle: ({ partner }) => json(named('GET /webhooks', { webhooks: faults.listed ? faults.listed(partner!.partnerId, (p) => subs.list(p)) : subs.list(partner!.partnerId) }), successStatus(profile, 'GET /webhooks')) });
  }
  if (webhookDeletable(profile)) {
    routes.push({
      endpoint: 'webhooks.delete',
      handle: ({ params: { webhookId }, partner }) => {
        if (!subs.delete(faults.deleteAs?.(partner!.partnerId, webhookId!) ?? partner!.partnerId, webhookId!, clock.now())) throw notFound(profile, 'webhookId', `no subscription ${webhookId}`);
        dispatch()?.forgetSubscription(webhookId!);
        return json(named('DELETE /webhooks/{webhookId}', { webhookId, deleted: true }), successStatus(profile, 'DELETE /webhooks/{webhookId}'));
      },
    });
  }

  routes.push({
    endpoint: 'sandbox.trigger',
    handle: async ({ req: http, partner }) => {
      const raw = await readJsonBody(http, profile, true);
      refuseUnknownFields(profile, controls.triggerRequest, raw);
      const req = parseWith(controls.triggerRequest, raw, 'body');
      const partnerId = partner!.partnerId;
      const type = req.type as EventType;
      const now = clock.now();
      const data =
        req.positionId !== undefined
          ? positionData(profile, type, engine.positionForEvent(partnerId, req.positionId))
          : syntheticData(profile, type, req.userId, now);
      const ev = engine.emit(partnerId, type, data, now);
      dispatch()?.kick();
      return json({ eventId: ev.id, type }, successStatus(profile, 'POST /sandbox/trigger'));
    },
  });

  routes.push({
    endpoint: 'sandbox.deliveries',
    handle: ({ req, partner }) => {
      const q = parseWith(controls.deliveriesQuery, req.query(), 'query');
      return json(deliveryLog(ctx.db, partner!.partnerId, q.limit ?? 100));
    },
  });

  routes.push({
    endpoint: 'sandbox.resend',
    handle: async ({ req, params: { eventId }, partner }) => {
      const raw = (await readJsonBody(req, profile, false)) ?? {};
      refuseUnknownFields(profile, controls.resendRequest, raw);
      const body = parseWith(controls.resendRequest, raw, 'body');
      const partnerId = partner!.partnerId;
      const r = resendEvent(ctx.db, partnerId, eventId!, body.webhookId, clock.now());
      if (r === 'no-event') throw notFound(profile, 'eventId', `no event ${eventId}`);
      if (r === 'no-subscription') throw notFound(profile, 'webhookId', body.webhookId ? `no live subscription ${body.webhookId}` : `event ${eventId} went to no live subscription`);
      dispatch()?.kick();
      return json(eventAttempts(ctx.db, partnerId, eventId!)!);
    },
  });

  for (const [action, paused] of [['pause', true], ['resume', false]] as const) {
    routes.push({
      endpoint: `sandbox.webhook.${action}`,
      handle: ({ params: { webhookId }, partner }) => {
        if (!setPaused(ctx.db, partner!.partnerId, webhookId!, paused, clock.now())) throw notFound(profile, 'webhookId', `no subscription ${webhookId}`);
        dispatch()?.kick();
        return json({ webhookId, paused });
      },
    });
  }

  routes.push({
    endpoint: 'sandbox.attempts',
    handle: ({ params: { eventId }, partner }) => {
      const out = eventAttempts(ctx.db, partner!.partnerId, eventId!);
      if (!out) throw notFound(profile, 'eventId', `no event ${eventId}`);
      return json(out);
    },
  });
  return routes;
}
