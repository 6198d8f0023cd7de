import type { Hono } from 'hono';
import { controls, successStatus, webhookDeletable, type EventType, type Profile } from '../../contract/index.ts';
import { ApiError } from '../pipeline/errors.ts';
import { contextBody, parseWith, readJsonBody } from '../endpoints/validate.ts';
import type { SandboxContext, SandboxEnv } from '../pipeline/plugin.ts';
import { resendEvent, setPaused } from './actions.ts';
import { deliveryLog, eventAttempts } from './attempts.ts';
import { parseSubscription, SubscriptionStore } from './subscriptions.ts';
import { positionData, syntheticData } from './trigger.ts';

// Handlers of webhooks.create/list/delete and of the sandbox.trigger / sandbox.attempts
// controls. They run after auth, so c.get('partner') is the caller; every lookup is
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

export function registerWebhookRoutes(app: Hono<SandboxEnv>, ctx: SandboxContext, dispatch: () => DispatchHooks | undefined): void {
  const { profile, clock, engine } = ctx;
  const subs = new SubscriptionStore(ctx.db);

  app.post('/v1/webhooks', async (c) => {
    const body = parseSubscription(profile, await readJsonBody(contextBody(c), profile, true));
    const reg = subs.create(c.get('partner').partnerId, body, clock.now(), profile.webhooks.registrationSecret);
    return c.json(reg, successStatus(profile, 'POST /webhooks') as 200);
  });

  if (profile.webhooks.listAndDelete) {
    app.get('/v1/webhooks', (c) => c.json({ webhooks: subs.list(c.get('partner').partnerId) }, successStatus(profile, 'GET /webhooks') as 200));
  }
  if (webhookDeletable(profile)) {
    app.delete('/v1/webhooks/:webhookId', (c) => {
      const webhookId = c.req.param('webhookId');
      if (!subs.delete(c.get('partner').partnerId, webhookId, clock.now())) throw notFound(profile, 'webhookId', `no subscription ${webhookId}`);
      dispatch()?.forgetSubscription(webhookId);
      return c.json({ webhookId, deleted: true }, successStatus(profile, 'DELETE /webhooks/{webhookId}') as 200);
    });
  }

  app.post('/v1/sandbox/trigger', async (c) => {
    const req = parseWith(controls.triggerRequest, await readJsonBody(contextBody(c), profile, true), 'body');
    const partnerId = c.get('partner').partnerId;
    const type = req.type as EventType;
    const now = clock.now();
    const data =
      req.positionId !== undefined
        ? positionData(profile, type, engine.positionForEvent(partnerId, req.positionId))
        : syntheticData(profile, type, req.userId, now);
    const ev = engine.emit(partnerId, type, data, now);
    dispatch()?.kick();
    return c.json({ eventId: ev.id, type }, successStatus(profile, 'POST /sandbox/trigger') as 200);
  });

  app.get('/v1/sandbox/deliveries', (c) => {
    const q = parseWith(controls.deliveriesQuery, c.req.query(), 'query');
    return c.json(deliveryLog(ctx.db, c.get('partner').partnerId, q.limit ?? 100), 200);
  });

  app.post('/v1/sandbox/events/:eventId/resend', async (c) => {
    const eventId = c.req.param('eventId');
    const body = parseWith(controls.resendRequest, (await readJsonBody(contextBody(c), profile, false)) ?? {}, 'body');
    const partnerId = c.get('partner').partnerId;
    const r = resendEvent(ctx.db, partnerId, eventId, body.webhookId, clock.now());
    if (r === 'no-event') throw notFound(profile, 'eventId', `no event ${eventId}`);
    if (r === 'no-subscription') throw notFound(profile, 'webhookId', body.webhookId ? `no live subscription ${body.webhookId}` : `event ${eventId} went to no live subscription`);
    dispatch()?.kick();
    return c.json(eventAttempts(ctx.db, partnerId, eventId)!, 200);
  });

  for (const [action, paused] of [['pause', true], ['resume', false]] as const) {
    app.post(`/v1/sandbox/webhooks/:webhookId/${action}`, (c) => {
      const webhookId = c.req.param('webhookId');
      if (!setPaused(ctx.db, c.get('partner').partnerId, webhookId, paused, clock.now())) throw notFound(profile, 'webhookId', `no subscription ${webhookId}`);
      dispatch()?.kick();
      return c.json({ webhookId, paused }, 200);
    });
  }

  app.get('/v1/sandbox/events/:eventId/attempts', (c) => {
    const eventId = c.req.param('eventId');
    const out = eventAttempts(ctx.db, c.get('partner').partnerId, eventId);
    if (!out) throw notFound(profile, 'eventId', `no event ${eventId}`);
    return c.json(out, 200);
  });
}
