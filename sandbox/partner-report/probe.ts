import { randomBytes } from 'node:crypto';
import { WEBHOOK_RESPONSE_DEADLINE_MS, type Profile } from '../../contract/index.ts';
import { signWebhookHeaders } from '../../signing/signature.ts';
import type { Clock } from '../engine/clock.ts';
import type { Sender } from '../webhooks/sender.ts';
import type { DeliveryObservation } from './types.ts';

// The mis-signed probe: once per new subscription, the report sends the subscribed URL one
// delivery signed with a secret that is not the subscription's, and notes the answer. Part 6
// says the receiver verifies the signature before processing and answers 401 when it is
// invalid; a receiver that answers 200 would act on a forged event in production. The probe
// looks like a real event (the subscribed type, a well-formed envelope) so only the signature
// tells it apart, and its id starts `evt_probe_` so a log shows what it was.

/** fetch-based by default: msw intercepts global fetch, so in-process tests reach their handler the same way. */
export const fetchSender: Sender = async (url, body, headers, signal) => {
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), ac.abort()), WEBHOOK_RESPONSE_DEADLINE_MS);
  const stop = () => ac.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const res = await fetch(url, { method: 'POST', body, headers, signal: ac.signal });
    const text = await res.text();
    return { status: res.status, response: text.slice(0, 256) };
  } catch (e) {
    if (timedOut) return { status: null, error: `no answer within ${WEBHOOK_RESPONSE_DEADLINE_MS} ms` };
    return { status: null, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
};

export interface ProbeTarget {
  url: string;
  events: string[];
  partner: string;
}

export async function sendProbe(target: ProbeTarget, o: { send: Sender; profile: Profile; clock: Clock; signal: AbortSignal }): Promise<DeliveryObservation> {
  const eventId = `evt_probe_${randomBytes(8).toString('hex')}`;
  const type = target.events[0] ?? 'position.created';
  const now = new Date(o.clock.now()).toISOString();
  const body = JSON.stringify({
    id: eventId,
    type,
    timestamp: now,
    data: { positionId: `pos_probe_${randomBytes(4).toString('hex')}`, userId: 'probe_user', rate: 0.05, amount: '1.00', maturity: now },
  });
  // A secret of the right form that no subscription has: the signature is well formed and wrong.
  const wrongSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'lendcheck-sandbox-webhooks/1 (partner-report probe)',
    ...signWebhookHeaders(body, wrongSecret, { scheme: o.profile.signature.scheme ?? undefined, timestamp: Math.floor(Date.now() / 1000), id: eventId }),
  };
  const t0 = performance.now();
  const r = await o.send(target.url, body, headers, o.signal);
  const latency = performance.now() - t0;
  return {
    eventId,
    type,
    url: target.url,
    partner: target.partner,
    latencyMs: r.status === null ? null : Math.round(latency),
    status: r.status,
    ...(r.error ? { error: r.error } : {}),
    probe: true,
  };
}
