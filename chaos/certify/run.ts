import { randomBytes } from 'node:crypto';
import { defaultProfile, UNKNOWN_SCHEME_REASON, WEBHOOK_RESPONSE_DEADLINE_MS, type Profile } from '../../contract/index.ts';
import * as results from '../../kernel/results.ts';
import { signWebhookHeaders, type SignatureScheme } from '../../signing/signature.ts';
import { CheckRegistry, runCheck } from '../../kernel/check-kernel.ts';
import { createRedactor } from '../../reports/redact.ts';
import { skipReasonFor } from '../../kernel/needs.ts';
import type { CertifyCheck, CertifyContext, Delivery } from './checks.ts';
import { burstChecks } from './burst-checks.ts';
import { deliveryChecks } from './delivery-checks.ts';
import { idempotencyChecks } from './idempotency-checks.ts';
import { signatureChecks } from './signature-checks.ts';
import { sourceChecks } from './source-checks.ts';

/** Every certify probe, keyed by id (the kernel refuses a duplicate). */
export const CERTIFY_CHECKS = new CheckRegistry<CertifyCheck>([...deliveryChecks, ...signatureChecks, ...idempotencyChecks, ...burstChecks, ...sourceChecks]);

type PartResult = results.PartResult;

export interface CertifyOptions {
  url: string;
  secret: string;
  /** Defaults to the profile's scheme. */
  scheme?: SignatureScheme;
  profile?: Profile;
  /** Deliveries in the burst probe (default 50). */
  burst?: number;
  /** Receiver source files for the constant-time-compare inspection. */
  sources?: string[];
  /** Run only these check ids (all by default). */
  only?: string[];
  /** The spec's 5 s; tests may not shorten it, but a profile of another service might. */
  deadlineMs?: number;
}

async function post(url: string, rawBody: string, headers: Record<string, string>, deadlineMs: number): Promise<Delivery> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { method: 'POST', headers, body: rawBody, redirect: 'manual', signal: AbortSignal.timeout(deadlineMs) });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - t0, responseBody: text.slice(0, 500), requestHeaders: headers, requestBody: rawBody };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return { status: null, ms: performance.now() - t0, error: err.name === 'TimeoutError' ? 'TimeoutError' : (err.cause?.code ?? err.message), requestHeaders: headers, requestBody: rawBody };
  }
}

/** The message id a signature binds (standard-webhooks' webhook-id): the event's own id, as a sender would use. */
function messageId(raw: string): string {
  try {
    const id = (JSON.parse(raw) as { id?: unknown }).id;
    if (typeof id === 'string' && id) return id;
  } catch {
    // not JSON: a made-up id still lets the signature verify
  }
  return `msg_${randomBytes(8).toString('hex')}`;
}

export async function runCertify(opts: CertifyOptions): Promise<PartResult> {
  const started = Date.now();
  const profile = opts.profile ?? defaultProfile;
  const found = opts.scheme ?? profile.signature.scheme;
  // The receiver verifies the service's scheme: unknown (null) is a skip with the option that names it, never a guess.
  if (found === null) return { part: 'certify', name: 'partner webhook receiver certification', status: 'skipped', skipReason: UNKNOWN_SCHEME_REASON, target: opts.url, profile: profile.name, startedAt: new Date(started).toISOString(), durationMs: 0, checks: [], figures: {} };
  const scheme: SignatureScheme = found;
  const deadlineMs = opts.deadlineMs ?? WEBHOOK_RESPONSE_DEADLINE_MS;
  const figures: Record<string, number | string> = {};
  const ctx: CertifyContext = {
    url: opts.url,
    secret: opts.secret,
    scheme,
    profile,
    deadlineMs,
    burst: opts.burst ?? 50,
    sources: opts.sources ?? [],
    sign: (raw, o = {}) => signWebhookHeaders(raw, o.secret ?? opts.secret, { scheme, timestamp: o.timestamp, id: messageId(raw) }),
    send(raw, o = {}) {
      const sig = o.signature === undefined ? signWebhookHeaders(raw, opts.secret, { scheme, id: messageId(raw) }) : o.signature;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'lendcheck-certify', ...sig };
      return post(opts.url, raw, headers, deadlineMs);
    },
    figure: (k, v) => void (figures[k] = v),
  };

  if (opts.only) {
    const unknown = CERTIFY_CHECKS.unknown(opts.only);
    if (unknown.length) throw new Error(`unknown certify check "${unknown[0]}"; known: ${CERTIFY_CHECKS.ids().join(', ')}`);
  }
  const selected = CERTIFY_CHECKS.select(opts.only);
  const runOne = (c: CertifyCheck) => runCheck(c, ctx, { skip: skipReasonFor(c.needs ?? [], { receiverSource: ctx.sources.length > 0 }) });

  // Independent probes run together (each uses its own event ids); the burst runs alone
  // afterwards so its latencies are its own.
  const shared = selected.filter((c) => !c.exclusive);
  const checks = await Promise.all(shared.map(runOne));
  for (const c of selected.filter((x) => x.exclusive)) checks.push(await runOne(c));
  const order = new Map(selected.map((c, i) => [c.id, i]));
  checks.sort((a, b) => order.get(a.id)! - order.get(b.id)!);

  const failedN = checks.filter((c) => c.status === 'failed').length;
  // Through the one redactor: the secret never, and signatures only shortened (they are replayable).
  return createRedactor([opts.secret]).value<PartResult>({
    part: 'certify',
    name: 'partner webhook receiver certification',
    status: failedN ? 'failed' : 'passed',
    target: opts.url,
    profile: profile.name,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    checks,
    figures: { ...figures, scheme, checks: checks.length, failed: failedN, skipped: checks.filter((c) => c.status === 'skipped').length, certified: failedN ? 'no' : 'yes' },
  });
}

