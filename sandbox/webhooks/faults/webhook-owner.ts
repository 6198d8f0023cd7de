import { z } from 'zod';
import { hookFault } from './types.ts';

// Broken object-level authorization on subscriptions: the list selects every partner's live
// subscriptions (their URLs in another partner's hands), and the delete finds a subscription by
// its id alone (another partner's key stops a partner's deliveries).

const config = z.object({}).strict();

const partners = (db: import('better-sqlite3').Database): string[] =>
  (db.prepare('SELECT DISTINCT partner_id FROM webhook_subscriptions ORDER BY partner_id').all() as Array<{ partner_id: string }>).map((r) => r.partner_id);

export const webhookListIgnoresPartner = hookFault({
  name: 'webhook-list-ignores-partner',
  description: "GET /webhooks lists every partner's subscriptions, not only the caller's",
  breaks: "object-level authorization: a partner's subscription list holds only its own (URLs are the partner's data)",
  config,
  install: (_c, env) => ({ listed: (_caller, list) => partners(env.db).flatMap((p) => list(p)) }),
});

export const webhookDeleteUnchecked = hookFault({
  name: 'webhook-delete-unchecked',
  description: 'DELETE /webhooks/{webhookId} finds the subscription by id alone: another partner\'s key deletes it',
  breaks: "object-level authorization: a partner never reaches another partner's subscription",
  config,
  install: (_c, env) => ({
    deleteAs: (caller, webhookId) => (env.db.prepare('SELECT partner_id FROM webhook_subscriptions WHERE id = ?').get(webhookId) as { partner_id?: string } | undefined)?.partner_id ?? caller,
  }),
});
