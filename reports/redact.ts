// The last line of defence: every report file and every gate log line passes through
// here at write time, so a key or secret that slipped into a result (an exchange, a
// message, a figure) is masked before it reaches disk or a terminal. The suites redact
// exchanges themselves too; this does not rely on it.

const MASK = '***';

// Patterns are anchored on the spec's prefixes (part 5: ck_live_/ck_test_; part 2:
// whsec_) and on the Authorization scheme, whatever the token looks like.
const PATTERNS: Array<[RegExp, string]> = [
  [/\b(ck_(?:live|test)_)[A-Za-z0-9_\-.~+/=]+/g, `$1${MASK}`],
  [/\b(whsec_)[A-Za-z0-9_\-.~+/=]+/g, `$1${MASK}`],
  // The key's environment prefix stays: "Bearer ck_test_***" tells which environment was used.
  // A shell variable in its place (`Bearer $LENDCHECK_API_KEY` in a reproduction) holds no key, nor
  // does an HTML-escaped placeholder (the spec's `Bearer <API_KEY>` in a page): both kept.
  [/\b(Bearer|Basic)(\s+|%20)(?!\$\{?[A-Za-z_][A-Za-z0-9_]*\b|&lt;)(ck_(?:live|test)_)?[^\s"'<>,;\\]+/gi, `$1$2$3${MASK}`],
  // A JSON "secret"/"apiKey" member whose value has no recognisable prefix.
  // Not when a reproduction's shell line splices a variable in there ('"$LENDCHECK_WEBHOOK_SECRET"').
  [/("(?:secret|apiKey|api_key|password|token)"\s*:\s*")(?!'"\$[A-Za-z_])((?:[^"\\]|\\.)*)(")/gi, `$1${MASK}$3`],
];

/** Header and property names whose values are credentials whatever their form. */
const SECRET_NAMES = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|secret|password|token|cookie|set-cookie)$/i;
/** The webhook signature headers: not secrets, but replayable, so only the first 8 digits of each signature show (hex, or base64 under Standard Webhooks). */
export const SIGNATURE_NAMES = /^(x-service-signature|webhook-signature)$/i;
export const shortenSignature = (x: string): string => x.replace(/([0-9a-f]{8})[0-9a-f]{56}/gi, '$1…').replace(/(v1,[A-Za-z0-9+/]{8})[A-Za-z0-9+/]{35}=/g, '$1…');

export interface Redactor {
  /** Masks keys and secrets inside a string. */
  text(s: string): string;
  /** Deep copy with every string masked and credential-named members replaced. */
  value<T>(v: T): T;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A redactor that also masks the given literal values: a key passed with --api-key need
 * not carry a known prefix, so the gate hands over every credential it was given.
 */
export function createRedactor(extraSecrets: Iterable<string> = []): Redactor {
  const literals = [...new Set([...extraSecrets].filter((s) => s && s.length >= 4))].sort((a, b) => b.length - a.length);
  const literalRe = literals.length ? new RegExp(literals.map(escapeRegExp).join('|'), 'g') : null;

  const text = (s: string): string => {
    let out = s;
    if (literalRe) out = out.replace(literalRe, (m) => (/^(ck_(?:live|test)_|whsec_)/.exec(m)?.[1] ?? '') + MASK);
    for (const [re, to] of PATTERNS) out = out.replace(re, to);
    return out;
  };

  const value = <T>(v: T): T => {
    if (typeof v === 'string') return text(v) as T;
    if (Array.isArray(v)) return v.map((x) => value(x)) as T;
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (typeof x === 'string' && SECRET_NAMES.test(k)) out[text(k)] = maskNamed(x);
        else if (typeof x === 'string' && SIGNATURE_NAMES.test(k)) out[text(k)] = text(shortenSignature(x));
        else out[text(k)] = value(x);
      }
      return out as T;
    }
    return v;
  };

  // Keep the scheme word of an Authorization value, and the key's environment prefix:
  // "Bearer ck_test_***" still tells a reader which scheme and environment were used, which
  // matters when a check is about authentication.
  const maskNamed = (x: string): string => {
    const m = /^(\w+)\s+(ck_(?:live|test)_)?\S/.exec(x);
    return m ? `${m[1]} ${m[2] ?? ''}${MASK}` : x === '' ? '' : MASK;
  };

  return { text, value };
}

/** The default redactor (prefix and header based). */
export const redact: Redactor = createRedactor();
