import type { SandboxContext, SandboxPlugin } from '../pipeline/plugin.ts';
import { Dispatcher, type DispatcherOptions } from './dispatcher.ts';
import { webhookRoutes } from './routes.ts';
import { hookFaultEffects, senderFaults, wireSettings } from './faults/index.ts';
import { wireFaults } from './toxic-door.ts';

// Webhooks as a sandbox plugin: subscription routes and the trigger/attempts controls,
// plus the dispatcher that drains the outbox while the sandbox runs.

export type WebhooksPluginOptions = Partial<Omit<DispatcherOptions, 'db' | 'clock' | 'profile' | 'faults'>> & {
  /** false: subscriptions and controls only, nothing is sent (PluginOptions.webhooks = false). */
  dispatch?: boolean;
};

export interface WebhooksPlugin extends SandboxPlugin {
  /** The running dispatcher, once started. */
  dispatcher(): Dispatcher | undefined;
}

/** The contract endpoints whose routes webhookRoutes serves. */
export const WEBHOOK_ENDPOINTS = [
  'webhooks.create',
  'webhooks.list',
  'webhooks.delete',
  'sandbox.trigger',
  'sandbox.attempts',
  'sandbox.deliveries',
  'sandbox.resend',
  'sandbox.webhook.pause',
  'sandbox.webhook.resume',
] as const;

export function webhooksPlugin(opts: WebhooksPluginOptions = {}): WebhooksPlugin {
  let dispatcher: Dispatcher | undefined;
  let unsubscribe: (() => void) | undefined;
  const { dispatch = true, ...dispatcherOpts } = opts;
  return {
    name: 'webhooks',
    endpoints: WEBHOOK_ENDPOINTS,
    dispatcher: () => dispatcher,
    routes: (ctx) => webhookRoutes(ctx, () => dispatcher),
    start(ctx: SandboxContext) {
      if (!dispatch || dispatcher) return;
      const given = senderFaults(ctx.faults);
      const faults = given.length ? hookFaultEffects(given, { db: ctx.db }) : undefined;
      const wire = wireFaults(wireSettings(ctx.faults));
      dispatcher = new Dispatcher({ db: ctx.db, clock: ctx.clock, profile: ctx.profile, ...dispatcherOpts, ...(faults ? { faults } : {}), ...(wire ? { wire } : {}) });
      // Committed engine events wake the dispatcher at once instead of at its next poll.
      unsubscribe = ctx.engine.onEvents(() => dispatcher?.kick());
      dispatcher.start();
    },
    async stop() {
      unsubscribe?.();
      await dispatcher?.stop();
      dispatcher = undefined;
    },
  };
}
