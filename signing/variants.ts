// The signature schemes as data (issue 47): part 6 leaves "the signing algorithm and the
// encoding of the signature" open, so a correct service may sign with any common variant of an
// HMAC over the raw body. One row per variant; signature.ts signs and verifies every row with
// the same code, so a new variant is a new row, never new code.
//
// The names the profile took before stay as they were: t-v1-hmac-sha256 (Stripe's form, hex),
// hmac-sha256-hex (bare hex) and standard-webhooks. The others read as their header does:
//   hmac-<alg>-<enc>            <enc HMAC(secret, raw body)>
//   hmac-<alg>-<enc>-prefixed   <alg>=<…>          (GitHub's sha256=<hex>, and its base64 kin)
//   hmac-<alg>-<enc>-v1         v1=<…>
//   hmac-<alg>-<enc>-v1-comma   v1,<…>             (Standard Webhooks' look, without its id and timestamp)
//   t-v1-hmac-<alg>[-base64]    t=<unix>,v1=<enc HMAC(secret, "<t>.<raw body>")>
// The contract keeps the same list of names for the profile's zod enum (contract/ imports
// nothing of the house); variants.test.ts holds the two equal.

export type Algorithm = 'sha256' | 'sha512' | 'sha1';
export type Encoding = 'hex' | 'base64';
type PrefixTag = '' | '-prefixed' | '-v1' | '-v1-comma';

export type SignatureScheme = `hmac-${Algorithm}-${Encoding}${PrefixTag}` | `t-v1-hmac-${Algorithm}` | `t-v1-hmac-${Algorithm}-base64` | 'standard-webhooks';

/**
 * bare: prefix + the encoded HMAC of the raw body, keyed by the whole secret (UTF-8).
 * stripe: `t=<unix>,v1=<encoded HMAC of "<t>.<raw body>">`, several v1 entries allowed.
 * standard: Standard Webhooks (id and timestamp headers, key = base64 after `whsec_`).
 */
export type Form = 'bare' | 'stripe' | 'standard';

export interface SignatureVariant {
  name: SignatureScheme;
  algorithm: Algorithm;
  encoding: Encoding;
  form: Form;
  /** Text before the encoded digest (bare form only). */
  prefix: string;
}

export const ALGORITHMS: Algorithm[] = ['sha256', 'sha512', 'sha1'];
export const ENCODINGS: Encoding[] = ['hex', 'base64'];
const PREFIXES: { tag: PrefixTag; text: (a: Algorithm) => string }[] = [
  { tag: '', text: () => '' },
  { tag: '-prefixed', text: (a) => `${a}=` },
  { tag: '-v1', text: () => 'v1=' },
  { tag: '-v1-comma', text: () => 'v1,' },
];

function table(): SignatureVariant[] {
  // The three older names first: detection tries rows in order and the profile's default is the first.
  const rows: SignatureVariant[] = [
    { name: 't-v1-hmac-sha256', algorithm: 'sha256', encoding: 'hex', form: 'stripe', prefix: '' },
    { name: 'hmac-sha256-hex', algorithm: 'sha256', encoding: 'hex', form: 'bare', prefix: '' },
    { name: 'standard-webhooks', algorithm: 'sha256', encoding: 'base64', form: 'standard', prefix: 'v1,' },
  ];
  for (const algorithm of ALGORITHMS) {
    for (const encoding of ENCODINGS) {
      for (const p of PREFIXES) rows.push({ name: `hmac-${algorithm}-${encoding}${p.tag}`, algorithm, encoding, form: 'bare', prefix: p.text(algorithm) });
      const name: SignatureScheme = encoding === 'hex' ? `t-v1-hmac-${algorithm}` : `t-v1-hmac-${algorithm}-base64`;
      rows.push({ name, algorithm, encoding, form: 'stripe', prefix: '' });
    }
  }
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.name) && seen.add(r.name));
}

/** Every variant, the three older names first. Exported for the sandbox's choices and mutator. */
export const SIGNATURE_VARIANTS: readonly SignatureVariant[] = Object.freeze(table());
export const SIGNATURE_SCHEMES: SignatureScheme[] = SIGNATURE_VARIANTS.map((v) => v.name);

export function variantOf(scheme: SignatureScheme): SignatureVariant {
  const v = SIGNATURE_VARIANTS.find((x) => x.name === scheme);
  if (!v) throw new Error(`unknown signature scheme ${String(scheme)}: one of ${SIGNATURE_SCHEMES.join(', ')}`);
  return v;
}

/** What the header looks like under the scheme, for messages and docs. */
export function describeScheme(scheme: SignatureScheme): string {
  const v = variantOf(scheme);
  const mac = `${v.encoding} HMAC-${v.algorithm.toUpperCase()}`;
  if (v.form === 'standard') return 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">, key = base64 after whsec_';
  if (v.form === 'stripe') return `t=<unix>,v1=<${mac} of "<t>.<raw body>">`;
  return `${v.prefix}<${mac} of the raw body>`;
}
