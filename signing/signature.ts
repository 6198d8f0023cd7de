import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_SCHEMES, variantOf, type SignatureScheme, type SignatureVariant } from './variants.ts';

// The webhook signature schemes the profile can select (spec part 6 leaves the
// algorithm and encoding open). Shared by the sandbox's dispatcher, the chaos receiver,
// the certifier and partners (re-exported as signWebhook/verifyWebhook from chaos/).
//
//  t-v1-hmac-sha256:  `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
//                     (Stripe's form; several v1= entries are allowed during secret rotation).
//                     The HMAC key is the whole secret string, prefix included, as UTF-8.
//  hmac-sha256-hex:   `<hex HMAC-SHA256(secret, raw body)>`, same key.
//  standard-webhooks: Standard Webhooks (standardwebhooks.com): headers `webhook-id`,
//                     `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64
//                     HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>` (several space-separated
//                     entries allowed), where the key is the base64 text after `whsec_`.
//                     The same `v1,<base64>` value also goes in the spec's x-service-signature.
//
// Hand-written rather than wrapping the `standardwebhooks` and `stripe` packages: both are
// devDependencies only (the package root must load no extra module), and their verifiers
// check timestamps against the wall clock, which the sandbox's test clock and the receiver's
// `now` option must be able to replace. Interop with both is tested (signature-interop.test.ts).

// Besides these three, the common variants of an HMAC over the raw body (algorithm, encoding,
// prefix, timestamp) are rows of one table (variants.ts); every row signs and verifies here.
export { SIGNATURE_SCHEMES, SIGNATURE_VARIANTS, describeScheme, type SignatureScheme, type SignatureVariant } from './variants.ts';

/** The spec's header (part 6). Every scheme puts its signature there. */
const SPEC_HEADER = 'x-service-signature';
/** Standard Webhooks' own headers. */
export const STANDARD_WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

export interface SignOptions {
  scheme?: SignatureScheme;
  /** Unix seconds; defaults to now. The hex scheme ignores it. */
  timestamp?: number;
  /** The message id (standard-webhooks: `webhook-id`, signed with the body); the event id by convention. */
  id?: string;
}

function mac(v: SignatureVariant, key: string | Buffer, ...parts: (string | Buffer)[]): Buffer {
  const h = createHmac(v.algorithm, key);
  for (const x of parts) h.update(x);
  return h.digest();
}
const encode = (v: SignatureVariant, digest: Buffer) => digest.toString(v.encoding);

/** The digest bytes an encoded signature stands for, or null when it is not of the variant's encoding. */
function decode(v: SignatureVariant, text: string): Buffer | null {
  const t = text.trim();
  const ok = v.encoding === 'hex' ? /^(?:[0-9a-fA-F]{2})+$/.test(t) : /^[A-Za-z0-9+/]+={0,2}$/.test(t);
  const bytes = ok ? Buffer.from(t, v.encoding) : null;
  // A digest of another length is another algorithm's (or no digest): malformed, not a mismatch.
  return bytes && bytes.length === DIGEST_BYTES[v.algorithm] ? bytes : null;
}
const DIGEST_BYTES = { sha256: 32, sha512: 64, sha1: 20 } as const;

function asBuffer(body: string | Buffer | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/** The HMAC key of a Standard Webhooks secret (base64 after `whsec_`), or null when it is not base64. */
export function standardWebhooksKey(secret: string): Buffer | null {
  const b64 = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  const key = Buffer.from(b64, 'base64');
  return key.length > 0 ? key : null;
}

/** whsec_ + base64 of 24 random bytes (32 characters, no padding): valid under every scheme. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Whether a secret can sign under the scheme (standard-webhooks needs base64 after the prefix). */
export function secretFitsScheme(secret: string, scheme: SignatureScheme): boolean {
  return scheme !== 'standard-webhooks' || standardWebhooksKey(secret) !== null;
}

function standardSignature(key: Buffer, id: string, t: number, body: Buffer): string {
  return createHmac('sha256', key).update(`${id}.${t}.`).update(body).digest('base64');
}

/**
 * The value of x-service-signature. Under standard-webhooks it needs opts.id, and the receiver
 * also needs the id and timestamp headers: send signWebhookHeaders() instead.
 */
export function signWebhook(rawBody: string | Buffer | Uint8Array, secret: string, opts: SignOptions = {}): string {
  const v = variantOf(opts.scheme ?? 't-v1-hmac-sha256');
  const body = asBuffer(rawBody);
  if (v.form === 'bare') return v.prefix + encode(v, mac(v, secret, body));
  const t = opts.timestamp ?? Math.floor(Date.now() / 1000);
  if (v.form === 'standard') {
    if (!opts.id) throw new Error('standard-webhooks signs the message id with the body: pass opts.id (the event id)');
    const key = standardWebhooksKey(secret);
    if (!key) throw new Error('standard-webhooks needs a secret of the form whsec_<base64>');
    return `v1,${standardSignature(key, opts.id, t, body)}`;
  }
  return `t=${t},v1=${encode(v, mac(v, secret, `${t}.`, body))}`;
}

/** Every header a delivery signed under the scheme carries (x-service-signature, plus webhook-* for standard-webhooks). */
export function signWebhookHeaders(rawBody: string | Buffer | Uint8Array, secret: string, opts: SignOptions = {}): Record<string, string> {
  const scheme = opts.scheme ?? 't-v1-hmac-sha256';
  if (scheme !== 'standard-webhooks') return { [SPEC_HEADER]: signWebhook(rawBody, secret, opts) };
  const t = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const sig = signWebhook(rawBody, secret, { ...opts, timestamp: t });
  return {
    [SPEC_HEADER]: sig,
    [STANDARD_WEBHOOK_HEADERS.id]: opts.id!,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(t),
    [STANDARD_WEBHOOK_HEADERS.signature]: sig,
  };
}

/** Request headers in any of the forms receivers hold them: a fetch Headers, Node's IncomingHttpHeaders, a plain record. */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(bag: HeaderBag, name: string): string | undefined {
  if (typeof (bag as Headers).get === 'function') return (bag as Headers).get(name) ?? undefined;
  const rec = bag as Record<string, string | string[] | undefined>;
  let v = rec[name];
  if (v === undefined) {
    const k = Object.keys(rec).find((x) => x.toLowerCase() === name);
    v = k === undefined ? undefined : rec[k];
  }
  return Array.isArray(v) ? v.join(', ') : v;
}

export interface VerifyOptions {
  scheme?: SignatureScheme;
  /** Allowed distance between the signed timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in unix seconds, for tests and test clocks. */
  now?: number;
  /** standard-webhooks, when the second argument is the signature alone: the `webhook-id` value. */
  id?: string;
  /** standard-webhooks, when the second argument is the signature alone: the `webhook-timestamp` value. */
  timestamp?: string | number;
}

export type VerifyResult =
  | { ok: true; timestamp?: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'stale' | 'future' };

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Lengths are public (fixed for SHA-256 in each encoding); contents are compared in constant time.
  return x.length === y.length && timingSafeEqual(x, y);
}

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkWindow(ts: number, opts: VerifyOptions): VerifyResult {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const tol = opts.toleranceSeconds ?? 300;
  if (ts < now - tol) return { ok: false, reason: 'stale' };
  if (ts > now + tol) return { ok: false, reason: 'future' };
  return { ok: true, timestamp: ts };
}

/**
 * Verifies a delivery. The second argument is either the signature header's value or the
 * request's whole header bag (needed by standard-webhooks, whose id and timestamp travel in
 * their own headers; the signature is read from x-service-signature, else webhook-signature).
 */
export function verifyWebhook(
  rawBody: string | Buffer | Uint8Array,
  signatureOrHeaders: string | HeaderBag | null | undefined,
  secret: string,
  opts: VerifyOptions = {},
): VerifyResult {
  const scheme = opts.scheme ?? 't-v1-hmac-sha256';
  const bag = signatureOrHeaders && typeof signatureOrHeaders === 'object' ? signatureOrHeaders : undefined;
  const signatureHeader = bag
    ? (header(bag, SPEC_HEADER) ?? (scheme === 'standard-webhooks' ? header(bag, STANDARD_WEBHOOK_HEADERS.signature) : undefined))
    : (signatureOrHeaders as string | null | undefined);
  if (!signatureHeader) return { ok: false, reason: 'missing' };
  const body = asBuffer(rawBody);
  const v = variantOf(scheme);
  if (v.form === 'bare') {
    const text = signatureHeader.trim();
    const head = text.slice(0, v.prefix.length);
    const given = head.toLowerCase() === v.prefix.toLowerCase() ? decode(v, text.slice(v.prefix.length)) : null;
    if (!given) return { ok: false, reason: 'malformed' };
    return equalBytes(given, mac(v, secret, body)) ? { ok: true } : { ok: false, reason: 'mismatch' };
  }
  if (v.form === 'standard') {
    const id = bag ? header(bag, STANDARD_WEBHOOK_HEADERS.id) : opts.id;
    const t = String((bag ? header(bag, STANDARD_WEBHOOK_HEADERS.timestamp) : opts.timestamp) ?? '');
    if (!id) return { ok: false, reason: 'missing' };
    const key = standardWebhooksKey(secret);
    const sigs = signatureHeader
      .trim()
      .split(/\s+/)
      .map((e) => e.split(','))
      .filter(([tag, s]) => tag === 'v1' && s)
      .map(([, s]) => s!);
    if (!key || !/^\d{1,12}$/.test(t) || sigs.length === 0) return { ok: false, reason: 'malformed' };
    const expected = standardSignature(key, id, Number(t), body);
    let match = false;
    for (const s of sigs) match = equalText(s, expected) || match;
    return match ? checkWindow(Number(t), opts) : { ok: false, reason: 'mismatch' };
  }
  const parts = signatureHeader.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  // Base64 may end in '=': the entry's value is everything after its first '='.
  const sigs = parts
    .filter(([k, x]) => k === 'v1' && x)
    .map((p) => decode(v, p.slice(1).join('=')))
    .filter((x): x is Buffer => x !== null);
  if (!t || !/^\d{1,12}$/.test(t) || sigs.length === 0) return { ok: false, reason: 'malformed' };
  const expected = mac(v, secret, `${t}.`, body);
  let match = false;
  for (const s of sigs) match = equalBytes(s, expected) || match;
  if (!match) return { ok: false, reason: 'mismatch' };
  return checkWindow(Number(t), opts);
}

/**
 * Which scheme a delivery verifies under, trying every variant in the table's order (issue 47:
 * detection records the one that matches, and null when none does; never a guess).
 */
export function matchSignatureScheme(
  rawBody: string | Buffer | Uint8Array,
  headers: HeaderBag,
  secret: string,
  opts: Omit<VerifyOptions, 'scheme'> = {},
): { scheme: SignatureScheme; timestamp?: number } | null {
  for (const scheme of SIGNATURE_SCHEMES) {
    const r = verifyWebhook(rawBody, headers, secret, { ...opts, scheme });
    if (r.ok) return { scheme, timestamp: r.timestamp };
  }
  return null;
}
