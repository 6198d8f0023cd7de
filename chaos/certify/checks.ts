import { ackExpectation, isAcknowledged, type Profile } from '../../contract/index.ts';
import * as results from '../../kernel/results.ts';
import { failed, failure, pass, type Check, type Outcome } from '../../kernel/check-kernel.ts';
import type { SignatureScheme } from '../../signing/signature.ts';

// Certification probes as checks of the one kernel (kernel/check-kernel.ts): small named
// functions (ctx) => Promise<Outcome> in a registry (run.ts builds it from the lists the probe
// files export); failures read "expected … / received …".

export interface Delivery {
  status: number | null;
  ms: number;
  error?: string;
  responseBody?: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
}

export interface SendOptions {
  /** The signature headers to send (x-service-signature, and webhook-* under standard-webhooks); null sends none. Defaults to valid ones over the raw body. */
  signature?: Record<string, string> | null;
}

export interface CertifyContext {
  url: string;
  secret: string;
  scheme: SignatureScheme;
  profile: Profile;
  deadlineMs: number;
  burst: number;
  sources: string[];
  /** POSTs a raw body and times the answer against the deadline. */
  send(rawBody: string, opts?: SendOptions): Promise<Delivery>;
  /** Valid signature headers for a body (optionally at another timestamp or with another secret). */
  sign(rawBody: string, opts?: { timestamp?: number; secret?: string }): Record<string, string>;
  figure(name: string, value: number | string): void;
}

export interface CertifyCheck extends Check<CertifyContext> {
  /** Checks marked exclusive run alone (the burst measures latency). */
  readonly exclusive?: boolean;
}

/** A delivery as the results record it (runCertify passes the result through the one redactor). */
export function exchangeOf(ctx: Pick<CertifyContext, 'url'>, d: Delivery): results.Exchange {
  const requestHeaders = { ...d.requestHeaders };
  return {
    method: 'POST',
    url: ctx.url,
    status: d.status,
    requestHeaders,
    requestBody: d.requestBody.slice(0, 2000),
    responseHeaders: {},
    responseBody: d.responseBody,
    durationMs: Math.round(d.ms),
    ...(d.error ? { error: d.error } : {}),
  };
}

export const passedWith = (ctx: CertifyContext, d?: Delivery, notes?: string[]): Outcome => pass({ exchange: d && exchangeOf(ctx, d), notes });
export const failedWith = (ctx: CertifyContext, title: string, expected: string, received: string, d?: Delivery): Outcome => failed(failure(title, expected, received, d && exchangeOf(ctx, d)));

export function describeAnswer(d: Delivery, deadlineMs: number): string {
  if (d.status === null) return d.error === 'TimeoutError' ? `no answer within ${deadlineMs} ms` : `no answer (${d.error ?? 'connection failed'}) after ${Math.round(d.ms)} ms`;
  return `${d.status} after ${Math.round(d.ms)} ms`;
}

/** The acknowledgement rule of contract/webhook-ack.ts, at this run's deadline. */
export const acknowledged = (ctx: CertifyContext, d: Delivery): boolean => isAcknowledged(ctx.profile, d, ctx.deadlineMs);
export const ackWanted = (ctx: CertifyContext): string => ackExpectation(ctx.profile, ctx.deadlineMs);
