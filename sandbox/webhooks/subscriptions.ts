import { randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { EVENT_TYPES, internalKind, webhookSubscription, webhookSubscriptionFor, type Profile } from '../../contract/index.ts';
import { generateWebhookSecret, secretFitsScheme } from '../../signing/signature.ts';
import { invalid } from '../answer/errors.ts';
import { migrateWebhooks } from '../store/webhook-schema.ts';

// Subscriptions of one partner: validation of POST /webhooks, the stored rows, and the
// public view (the secret is shown once, only when the server generated it).

export interface Registration {
  webhookId: string;
  url: string;
  events: string[];
  createdAt: string;
  secret?: string;
}

/** whsec_ + base64 of 24 random bytes: the Standard Webhooks form, valid under every scheme. */
export const generateSecret = generateWebhookSecret;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function checkUrl(profile: Profile, raw: string): void {
  const u = new URL(raw);
  const inside = internalKind(raw);
  // Loopback stays open to local receivers while allowLoopbackHttp says so (profile webhooks.*).
  if (profile.webhooks.refuseInternalAddresses && inside && !(inside === 'loopback' && profile.webhooks.allowLoopbackHttp)) {
    throw invalid('url', `must not point into the service's own network (${inside} address)`);
  }
  if (u.protocol === 'https:') return;
  if (u.protocol === 'http:' && profile.webhooks.allowLoopbackHttp && LOOPBACK.test(u.hostname)) return;
  throw invalid(
    'url',
    profile.webhooks.allowLoopbackHttp ? 'must be an https URL (http is accepted only for loopback addresses)' : 'must be an https URL',
  );
}

function firstIssue(err: z.ZodError): never {
  const i = err.issues[0];
  const [field, index] = i.path;
  if (field === 'events' && typeof index === 'number') {
    throw invalid('events', `unknown event type at index ${index}; expected one of ${EVENT_TYPES.join(', ')}`);
  }
  throw invalid(i.path.length ? i.path.join('.') : 'body', i.code === 'invalid_type' && i.input === undefined ? 'is required' : i.message);
}

/** Parses a POST /webhooks body; throws ApiError invalid_request naming the field. */
export function parseSubscription(profile: Profile, body: unknown): z.infer<typeof webhookSubscription> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  const r = webhookSubscriptionFor(profile.webhooks.secretMinLength).safeParse(body);
  if (!r.success) firstIssue(r.error);
  checkUrl(profile, r.data.url);
  if (profile.webhooks.secretRequired && r.data.secret === undefined) throw invalid('secret', 'is required');
  if (r.data.secret !== undefined && !secretFitsScheme(r.data.secret, profile.signature.scheme ?? 't-v1-hmac-sha256')) {
    throw invalid('secret', 'must be whsec_ followed by base64 (the signature scheme is standard-webhooks, whose key is the decoded base64)');
  }
  return r.data;
}

interface Row {
  id: string;
  url: string;
  events: string;
  created_at_ms: number;
}

const view = (r: Row): Registration => ({
  webhookId: r.id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  createdAt: new Date(r.created_at_ms).toISOString(),
});

export class SubscriptionStore {
  constructor(private readonly db: BetterSqlite3.Database) {
    migrateWebhooks(db);
  }

  /** `echo`: profile webhooks.registrationSecret; a generated secret is always shown (the partner has no other way to learn it). */
  create(partnerId: string, sub: z.infer<typeof webhookSubscription>, nowMs: number, echo: Profile['webhooks']['registrationSecret'] = 'when-generated'): Registration {
    const id = `wh_${randomBytes(12).toString('hex')}`;
    const secret = sub.secret ?? generateSecret();
    const events = [...new Set(sub.events)];
    // Only events after this point go to the new subscription, never older ones still in the outbox.
    this.db
      .prepare(
        `INSERT INTO webhook_subscriptions (id, partner_id, url, events, secret, after_seq, created_at_ms)
         VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) FROM outbox_events), ?)`,
      )
      .run(id, partnerId, sub.url, JSON.stringify(events), secret, nowMs);
    const reg = view({ id, url: sub.url, events: JSON.stringify(events), created_at_ms: nowMs });
    return sub.secret === undefined || echo === 'always' ? { ...reg, secret } : reg;
  }

  list(partnerId: string): Registration[] {
    const rows = this.db
      .prepare('SELECT id, url, events, created_at_ms FROM webhook_subscriptions WHERE partner_id = ? AND deleted_at_ms IS NULL ORDER BY created_at_ms, id')
      .all(partnerId) as Row[];
    return rows.map(view);
  }

  /** Deletes and cancels its pending deliveries; false when the partner has no such subscription. */
  delete(partnerId: string, webhookId: string, nowMs: number): boolean {
    return this.db.transaction(() => {
      const r = this.db
        .prepare('UPDATE webhook_subscriptions SET deleted_at_ms = ? WHERE id = ? AND partner_id = ? AND deleted_at_ms IS NULL')
        .run(nowMs, webhookId, partnerId);
      if (r.changes === 0) return false;
      this.db.prepare("UPDATE webhook_deliveries SET state = 'cancelled' WHERE webhook_id = ? AND state = 'pending'").run(webhookId);
      return true;
    })();
  }
}
