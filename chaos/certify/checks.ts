import type { Profile } from '../../contract/index.ts';
import type { SignatureScheme } from '../sign.ts';

// Certification probes in the style of Schemathesis checks: small named functions in a
// registry, each returning a typed outcome; failures read "expected … / received …".

export interface Delivery {
  status: number | null;
  ms: number;
  error?: string;
  responseBody?: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
}

export interface SendOptions {
  /** The signature header to send; null sends none. Defaults to a valid one over the raw body. */
  signature?: string | null;
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
  /** A valid signature header for a body (optionally at another timestamp or with another secret). */
  sign(rawBody: string, opts?: { timestamp?: number; secret?: string }): string;
  figure(name: string, value: number | string): void;
}

export type CheckOutcome =
  | { status: 'passed'; notes?: string[]; delivery?: Delivery }
  | { status: 'failed'; expected: string; received: string; delivery?: Delivery; notes?: string[] }
  | { status: 'skipped'; reason: string };

export interface CertifyCheck {
  id: string;
  title: string;
  requirements: string[];
  /** Checks marked exclusive run alone (the burst measures latency). */
  exclusive?: boolean;
  run(ctx: CertifyContext): Promise<CheckOutcome>;
}

export const CERTIFY_CHECKS = new Map<string, CertifyCheck>();

export function registerCheck(c: CertifyCheck): void {
  if (CERTIFY_CHECKS.has(c.id)) throw new Error(`certify check "${c.id}" is already registered`);
  CERTIFY_CHECKS.set(c.id, c);
}

export const passed = (delivery?: Delivery, notes?: string[]): CheckOutcome => ({ status: 'passed', delivery, notes });
export const failed = (expected: string, received: string, delivery?: Delivery): CheckOutcome => ({ status: 'failed', expected, received, delivery });
export const skipped = (reason: string): CheckOutcome => ({ status: 'skipped', reason });

export function describeAnswer(d: Delivery, deadlineMs: number): string {
  if (d.status === null) return d.error === 'TimeoutError' ? `no answer within ${deadlineMs} ms` : `no answer (${d.error ?? 'connection failed'}) after ${Math.round(d.ms)} ms`;
  return `${d.status} after ${Math.round(d.ms)} ms`;
}

export function isAck(profile: Profile, status: number | null): boolean {
  if (status === null) return false;
  return profile.webhooks.successStatuses === '200' ? status === 200 : status >= 200 && status < 300;
}
