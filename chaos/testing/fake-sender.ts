import { randomUUID } from 'node:crypto';
import { defaultProfile, isAckStatus, WEBHOOK_MAX_RETRIES, WEBHOOK_RESPONSE_DEADLINE_MS, WEBHOOK_RETRY_DELAYS_MS } from '../../contract/index.ts';
import { signWebhookHeaders, type SignatureScheme } from '../../signing/signature.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// A test double of the lending service's webhook sender. Correct by default; each option
// makes it wrong in one way, so tests can prove the validator catches that way.

export interface FakeSenderOptions {
  url: string;
  secret: string;
  scheme?: SignatureScheme;
  timeScale: number;
  /** Business-time delays before the 1st, 2nd, … retry; defaults to the spec's. */
  delaysMs?: readonly number[];
  /** Retries after the first attempt; the spec says 5. */
  maxRetries?: number;
  /** Send each retry under a fresh event id (a classic sender bug). */
  changeIdOnRetry?: boolean;
  /** Re-serialize the body differently on retries (another one). */
  changeBodyOnRetry?: boolean;
  deadlineMs?: number;
}

export interface SentAttempt {
  eventId: string;
  status: number | null;
  sentAt: number;
  error?: string;
}

export interface Envelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export function envelope(type: string, data: Record<string, unknown>, id = `evt_${randomUUID()}`): Envelope {
  return { id, type, timestamp: new Date().toISOString(), data };
}


/** Delivers one event through the whole retry schedule; resolves when it is acknowledged or given up. */
export async function sendWithRetries(event: Envelope, o: FakeSenderOptions): Promise<SentAttempt[]> {
  const delays = o.delaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const maxRetries = o.maxRetries ?? WEBHOOK_MAX_RETRIES;
  const deadline = o.deadlineMs ?? WEBHOOK_RESPONSE_DEADLINE_MS;
  const log: SentAttempt[] = [];
  for (let k = 0; k <= maxRetries; k++) {
    const ev = o.changeIdOnRetry && k > 0 ? { ...event, id: `evt_${randomUUID()}` } : event;
    const body = o.changeBodyOnRetry && k > 0 ? JSON.stringify(ev, null, 1) : JSON.stringify(ev);
    const sentAt = Date.now();
    let status: number | null = null;
    let error: string | undefined;
    try {
      const res = await fetch(o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signWebhookHeaders(body, o.secret, { scheme: o.scheme, id: ev.id }) },
        body,
        signal: AbortSignal.timeout(deadline),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = (e as Error).name;
    }
    log.push({ eventId: ev.id, status, sentAt, error });
    // The fetch above times out at the deadline, so the status alone decides (contract/webhook-ack.ts).
    if (isAckStatus(defaultProfile, status)) break;
    if (k < maxRetries) await sleep((delays[k] ?? delays.at(-1)!) / o.timeScale);
  }
  return log;
}
