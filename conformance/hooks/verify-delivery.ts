import { UNKNOWN_SCHEME_REASON } from '../../contract/index.ts';
import { SIGNATURE_SCHEMES, verifyWebhook, type SignatureScheme } from '../../signing/signature.ts';
import { CheckSkip, type CheckContext } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';

// Part 6: "The signing algorithm and the encoding of the signature: not shown". A delivery's
// signature is verified as a receiver would, over the raw body with the subscription secret,
// under the profile's scheme. A profile that does not know the scheme (null: detection saw no
// delivery within its budget, or none it could verify) is never a guess: the delivery verifies
// under one of the variants lendcheck knows (noted), or the check skips naming the option.

export interface Delivered {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  secret: string;
  /** Seconds since the epoch at which the receiver verifies (its arrival), else now. */
  now?: number;
}

/** `{ ok: true }` when the signature verifies; otherwise why not (throws CheckSkip when the scheme is unknown and no known variant verifies). */
export function verifyDelivery(ctx: CheckContext, d: Delivered, scheme: SignatureScheme | null, dx?: Exchange): { ok: true } | { ok: false; reason: string } {
  const opts = { toleranceSeconds: ctx.profile.signature.toleranceSeconds, ...(d.now !== undefined ? { now: d.now } : {}) };
  const under = (s: SignatureScheme) => verifyWebhook(d.raw, d.headers as Record<string, string>, d.secret, { ...opts, scheme: s });
  if (scheme === null) {
    const found = SIGNATURE_SCHEMES.find((s) => under(s).ok);
    if (!found) throw new CheckSkip(`${UNKNOWN_SCHEME_REASON}; the delivery verifies under none of them`);
    if (!noted.has(ctx)) ctx.note(`profile signature.scheme is unknown: the deliveries were verified under ${found}, the known variant their signature matches (name it with --signature-scheme to hold the target to one)`);
    noted.add(ctx);
    return { ok: true };
  }
  const v = under(scheme);
  if (v.ok) return { ok: true };
  // Another known scheme verifying it is the profile's miss (the scheme is not shown), a failure only under --strict.
  const other = SIGNATURE_SCHEMES.find((s) => s !== scheme && under(s).ok);
  if (other) {
    ctx.profileChoice({ option: 'signature.scheme', expected: scheme, followed: false, received: other }, dx);
    if (!ctx.strict) return { ok: true };
  }
  return { ok: false, reason: v.reason ?? 'mismatch' };
}

const noted = new WeakSet<CheckContext>();
