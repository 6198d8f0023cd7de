import { createHmac, timingSafeEqual } from 'node:crypto';

// The two webhook signature schemes the profile can select (spec part 6 leaves the
// algorithm and encoding open). Shared by the sandbox's dispatcher, the chaos receiver,
// the certifier and partners (re-exported as signWebhook/verifyWebhook from chaos/).
//
//  t-v1-hmac-sha256: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
//                    (Stripe's form; several v1= entries are allowed during secret rotation)
//  hmac-sha256-hex:  `<hex HMAC-SHA256(secret, raw body)>`
// The HMAC key is the whole secret string, prefix included, as UTF-8.

export type SignatureScheme = 't-v1-hmac-sha256' | 'hmac-sha256-hex';
export const SIGNATURE_SCHEMES: SignatureScheme[] = ['t-v1-hmac-sha256', 'hmac-sha256-hex'];

export interface SignOptions {
  scheme?: SignatureScheme;
  /** Unix seconds; defaults to now. Only the timestamped scheme uses it. */
  timestamp?: number;
}

const hmacHex = (secret: string, data: string | Buffer) => createHmac('sha256', secret).update(data).digest('hex');

function asBuffer(body: string | Buffer | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

export function signWebhook(rawBody: string | Buffer | Uint8Array, secret: string, opts: SignOptions = {}): string {
  const scheme = opts.scheme ?? 't-v1-hmac-sha256';
  const body = asBuffer(rawBody);
  if (scheme === 'hmac-sha256-hex') return hmacHex(secret, body);
  const t = opts.timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${t},v1=${hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), body]))}`;
}

export interface VerifyOptions {
  scheme?: SignatureScheme;
  /** Allowed distance between the signed timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in unix seconds, for tests and test clocks. */
  now?: number;
}

export type VerifyResult =
  | { ok: true; timestamp?: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'stale' | 'future' };

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Lengths are public (always 64 hex digits for SHA-256); contents are compared in constant time.
  return x.length === y.length && timingSafeEqual(x, y);
}

export function verifyWebhook(
  rawBody: string | Buffer | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  opts: VerifyOptions = {},
): VerifyResult {
  if (!signatureHeader) return { ok: false, reason: 'missing' };
  const scheme = opts.scheme ?? 't-v1-hmac-sha256';
  const body = asBuffer(rawBody);
  if (scheme === 'hmac-sha256-hex') {
    const given = signatureHeader.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(given)) return { ok: false, reason: 'malformed' };
    return equalHex(given, hmacHex(secret, body)) ? { ok: true } : { ok: false, reason: 'mismatch' };
  }
  const parts = signatureHeader.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const sigs = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!.toLowerCase());
  if (!t || !/^\d{1,12}$/.test(t) || sigs.length === 0) return { ok: false, reason: 'malformed' };
  const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), body]));
  let match = false;
  for (const s of sigs) match = equalHex(s, expected) || match;
  if (!match) return { ok: false, reason: 'mismatch' };
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const tol = opts.toleranceSeconds ?? 300;
  const ts = Number(t);
  if (ts < now - tol) return { ok: false, reason: 'stale' };
  if (ts > now + tol) return { ok: false, reason: 'future' };
  return { ok: true, timestamp: ts };
}
