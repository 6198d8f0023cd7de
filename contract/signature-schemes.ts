// The names of the webhook signature schemes the profile may select (part 6: "The signing
// algorithm and the encoding of the signature: not shown"). The variants themselves (what each
// signs, and how) are a table in signing/variants.ts; contract/ imports nothing of the house, so
// the names are built here the same way, and signing/variants.test.ts holds the two lists equal.

const ALGORITHMS = ['sha256', 'sha512', 'sha1'] as const;
const ENCODINGS = ['hex', 'base64'] as const;
const PREFIX_TAGS = ['', '-prefixed', '-v1', '-v1-comma'] as const;
type A = (typeof ALGORITHMS)[number];
type E = (typeof ENCODINGS)[number];
/** The same union as signing's SignatureScheme (structurally equal, so either passes for the other). */
export type SignatureSchemeName = `hmac-${A}-${E}${(typeof PREFIX_TAGS)[number]}` | `t-v1-hmac-${A}` | `t-v1-hmac-${A}-base64` | 'standard-webhooks';

function names(): SignatureSchemeName[] {
  const out: SignatureSchemeName[] = ['t-v1-hmac-sha256', 'hmac-sha256-hex', 'standard-webhooks'];
  for (const a of ALGORITHMS) {
    for (const e of ENCODINGS) {
      for (const p of PREFIX_TAGS) out.push(`hmac-${a}-${e}${p}`);
      out.push(e === 'hex' ? `t-v1-hmac-${a}` : `t-v1-hmac-${a}-base64`);
    }
  }
  return [...new Set(out)];
}

export const SIGNATURE_SCHEME_NAMES = names() as [SignatureSchemeName, ...SignatureSchemeName[]];

/** The closest known name to a bad one (edit distance), for "did you mean". */
export function closestSchemeName(bad: string): SignatureSchemeName {
  const dist = (a: string, b: string) => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0]![j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length]![b.length]!;
  };
  return SIGNATURE_SCHEME_NAMES.reduce((best, n) => (dist(bad, n) < dist(bad, best) ? n : best));
}

/**
 * Why a check that verifies signatures skips when the profile's scheme is unknown (null), and
 * how the user supplies it (issue 47: never a failure, never a guess).
 */
export const UNKNOWN_SCHEME_REASON = `the profile's signature.scheme is unknown (null: detection verified a delivery under none of the ${SIGNATURE_SCHEME_NAMES.length} variants lendcheck knows, or saw none), so no signature can be verified: name it with --signature-scheme NAME or signature.scheme in the profile (--help lists the names)`;

const HEX_CHARS = { sha256: 64, sha512: 128, sha1: 40 } as const;

/**
 * The form of x-service-signature under a scheme, as a regular expression for the exported
 * document; undefined when the scheme is unknown (null), where the document promises no form.
 */
export function signaturePattern(scheme: SignatureSchemeName | null): string | undefined {
  if (scheme === null) return undefined;
  const b64 = '[A-Za-z0-9+/]+={0,2}';
  if (scheme === 'standard-webhooks') return `^v1,${b64}( v1,${b64})*$`;
  const m = /^(t-v1-)?hmac-(sha256|sha512|sha1)(?:-(hex|base64))?(-prefixed|-v1-comma|-v1)?$/.exec(scheme);
  if (!m) return undefined;
  const [, stripe, alg, enc = 'hex', tag = ''] = m as unknown as [string, string | undefined, keyof typeof HEX_CHARS, string | undefined, string | undefined];
  const digest = enc === 'hex' ? `[0-9a-f]{${HEX_CHARS[alg]}}` : b64;
  if (stripe) return `^t=[0-9]+(,v1=${digest})+$`;
  const prefix = { '': '', '-prefixed': `${alg}=`, '-v1': 'v1=', '-v1-comma': 'v1,' }[tag] ?? '';
  return `^${prefix}${digest}$`;
}
