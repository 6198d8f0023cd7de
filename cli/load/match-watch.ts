// Time-to-match from webhooks: a load run starts lendcheck's receiver (chaos/receiver.ts, its
// SQLite store), subscribes every partner of the run to `position.matched`, and k6 reads each
// order's signed matched event back from the receiver (GET /observed, a long poll) instead of
// polling the target. A target that refuses the subscription, or that lendcheck's loopback
// receiver cannot be reached from, falls back to polling, and the run says why.
import { request } from 'undici';
import { resolveCall, UNKNOWN_SCHEME_REASON, type Profile } from '../../contract/index.ts';
import { generateWebhookSecret } from '../../signing/signature.ts';
import { startReceiver, type Receiver } from '../../chaos/receiver.ts';

export type MatchBy = 'auto' | 'webhooks' | 'polling';

export type MatchWatch =
  | { mode: 'webhooks'; receiverUrl: string; receiver: Receiver; secret: string; close(): Promise<void> }
  | { mode: 'polling'; reason: string; close(): Promise<void> };

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export interface WatchInput {
  baseUrl: string;
  /** One key per partner whose orders the run places. */
  partnerKeys: string[];
  profile: Profile;
  matchBy: MatchBy;
}

export async function watchMatches(i: WatchInput): Promise<MatchWatch> {
  const polling = (reason: string): MatchWatch => ({ mode: 'polling', reason, close: async () => {} });
  if (i.matchBy === 'polling') return polling('--match-by polling');
  // Time-to-match from webhooks counts only verified deliveries: an unknown scheme measures by polling instead, saying why.
  if (i.profile.signature.scheme === null) {
    if (i.matchBy === 'webhooks') throw new Error(`--match-by webhooks: ${UNKNOWN_SCHEME_REASON}`);
    return polling(UNKNOWN_SCHEME_REASON);
  }
  // The receiver listens on loopback: only a target on this machine can deliver to it.
  if (!LOOPBACK.test(new URL(i.baseUrl).hostname) && i.matchBy === 'auto') return polling('the target is not on loopback, so it cannot reach lendcheck\'s receiver (use --match-by webhooks on a shared host)');
  const secret = generateWebhookSecret();
  const receiver = await startReceiver({ secret, profile: i.profile });
  const registered: Array<{ key: string; webhookId?: string }> = [];
  const close = async () => {
    // Best effort: a target without DELETE keeps the subscription, which only points at a closed port.
    if (i.profile.webhooks.listAndDelete) {
      await Promise.allSettled(registered.filter((r) => r.webhookId).map((r) =>
        request(`${i.baseUrl}${resolveCall(i.profile, 'webhooks.delete', { webhookId: r.webhookId! }).path}`, { method: 'DELETE', headers: { authorization: `Bearer ${r.key}` } }).then((res) => res.body.dump())));
    }
    await receiver.close();
  };
  try {
    for (const key of i.partnerKeys) {
      const res = await request(`${i.baseUrl}${resolveCall(i.profile, 'webhooks.create').path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['position.matched'], secret }),
      });
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`POST /webhooks answered ${res.statusCode}`);
      let reg: { webhookId?: unknown; secret?: unknown } = {};
      try {
        reg = JSON.parse(text) as typeof reg;
      } catch {
        // The registration result is "not shown" in the spec: an unreadable body is allowed.
      }
      registered.push({ key, webhookId: typeof reg.webhookId === 'string' ? reg.webhookId : undefined });
      // A target may sign with a secret of its own choosing; the receiver knows only ours.
      if (typeof reg.secret === 'string' && reg.secret !== secret) throw new Error('the target returned a signing secret other than the one sent');
    }
  } catch (e) {
    await close();
    if (i.matchBy === 'webhooks') throw new Error(`--match-by webhooks: cannot subscribe to position.matched: ${(e as Error).message}`);
    return polling(`cannot subscribe to position.matched (${(e as Error).message})`);
  }
  return { mode: 'webhooks', receiverUrl: receiver.url, receiver, secret, close };
}
