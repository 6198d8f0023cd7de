import { defaultProfile, SIGNATURE_HEADER, WEBHOOK_RESPONSE_DEADLINE_MS, type Profile, type results } from '../../contract/index.ts';
import { signWebhook, type SignatureScheme } from '../sign.ts';
import { CERTIFY_CHECKS, type CertifyCheck, type CertifyContext, type CheckOutcome, type Delivery } from './checks.ts';
import './delivery-checks.ts';
import './signature-checks.ts';
import './idempotency-checks.ts';
import './burst-checks.ts';
import './source-checks.ts';

type PartResult = results.PartResult;
type CheckResult = results.CheckResult;

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

/** The signature header is shown shortened in reports: it is not the secret, but it is replayable. */
function redactedHeaders(h: Record<string, string>): Record<string, string> {
  const out = { ...h };
  if (out[SIGNATURE_HEADER]) out[SIGNATURE_HEADER] = out[SIGNATURE_HEADER].replace(/([0-9a-f]{8})[0-9a-f]{56}/g, '$1…');
  return out;
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

export async function runCertify(opts: CertifyOptions): Promise<PartResult> {
  const started = Date.now();
  const profile = opts.profile ?? defaultProfile;
  const scheme = opts.scheme ?? profile.signature.scheme;
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
    sign: (raw, o = {}) => signWebhook(raw, o.secret ?? opts.secret, { scheme, timestamp: o.timestamp }),
    send(raw, o = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'lendcheck-certify' };
      const sig = o.signature === undefined ? signWebhook(raw, opts.secret, { scheme }) : o.signature;
      if (sig !== null) headers[SIGNATURE_HEADER] = sig;
      return post(opts.url, raw, headers, deadlineMs);
    },
    figure: (k, v) => void (figures[k] = v),
  };

  const selected = [...CERTIFY_CHECKS.values()].filter((c) => !opts.only || opts.only.includes(c.id));
  if (opts.only) for (const id of opts.only) if (!CERTIFY_CHECKS.has(id)) throw new Error(`unknown certify check "${id}"; known: ${[...CERTIFY_CHECKS.keys()].join(', ')}`);

  const runOne = async (c: CertifyCheck): Promise<CheckResult> => {
    const t0 = performance.now();
    let out: CheckOutcome;
    try {
      out = await c.run(ctx);
    } catch (e) {
      out = { status: 'failed', expected: 'the probe to complete', received: `probe error: ${(e as Error).message}` };
    }
    const base = { id: c.id, title: c.title, requirements: c.requirements, durationMs: Math.round(performance.now() - t0), notes: [] as string[] };
    if (out.status === 'skipped') return { ...base, status: 'skipped', message: out.reason };
    const d = out.delivery;
    const exchange = d && {
      method: 'POST',
      url: opts.url,
      status: d.status,
      requestHeaders: redactedHeaders(d.requestHeaders),
      requestBody: d.requestBody.slice(0, 2000),
      responseHeaders: {},
      responseBody: d.responseBody,
      durationMs: Math.round(d.ms),
      error: d.error,
    };
    if (out.status === 'passed') return { ...base, status: 'passed', notes: out.notes ?? [], exchange };
    return { ...base, status: 'failed', message: `expected ${out.expected} / received ${out.received}`, exchange };
  };

  // Independent probes run together (each uses its own event ids); the burst runs alone
  // afterwards so its latencies are its own.
  const shared = selected.filter((c) => !c.exclusive);
  const checks = await Promise.all(shared.map(runOne));
  for (const c of selected.filter((x) => x.exclusive)) checks.push(await runOne(c));
  const order = new Map(selected.map((c, i) => [c.id, i]));
  checks.sort((a, b) => order.get(a.id)! - order.get(b.id)!);

  const failedN = checks.filter((c) => c.status === 'failed').length;
  return {
    part: 'certify',
    name: 'partner webhook receiver certification',
    status: failedN ? 'failed' : 'passed',
    target: opts.url,
    profile: profile.name,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    checks,
    figures: { ...figures, scheme, checks: checks.length, failed: failedN, skipped: checks.filter((c) => c.status === 'skipped').length, certified: failedN ? 'no' : 'yes' },
  };
}

export { CERTIFY_CHECKS };
