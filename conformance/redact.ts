import { KEY_PREFIX, WEBHOOK_SECRET_PREFIX } from '../contract/index.ts';

// Keys and webhook secrets must never reach a report. Everything recorded passes through
// here: the Authorization header keeps its scheme and key prefix (so a reader sees which
// environment was used), the rest is replaced.

const KEY_RE = new RegExp(`(${KEY_PREFIX.sandbox}|${KEY_PREFIX.production})[A-Za-z0-9_\\-]+`, 'g');
const SECRET_RE = new RegExp(`${WEBHOOK_SECRET_PREFIX}[A-Za-z0-9_\\-+/=]+`, 'g');

export function redactText(s: string, extraSecrets: readonly string[] = []): string {
  let out = s;
  for (const secret of extraSecrets) if (secret && secret.length >= 6) out = out.split(secret).join('<redacted>');
  return out.replace(KEY_RE, '$1…<redacted>').replace(SECRET_RE, `${WEBHOOK_SECRET_PREFIX}…<redacted>`);
}

export function redactAuthorization(value: string, extraSecrets: readonly string[] = []): string {
  const m = /^(\S+)(\s+)(.*)$/.exec(value);
  if (!m) return value.length > 0 ? '<redacted>' : value;
  const [, scheme, sp, cred] = m;
  const prefix = [KEY_PREFIX.sandbox, KEY_PREFIX.production].find((p) => cred.startsWith(p));
  if (prefix) return `${scheme}${sp}${prefix}…<redacted>`;
  return cred.length === 0 ? value : `${scheme}${sp}${redactText(cred, extraSecrets) === cred ? '<redacted>' : redactText(cred, extraSecrets)}`;
}

export function redactHeaders(h: Record<string, string>, extraSecrets: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    out[k] = k.toLowerCase() === 'authorization' ? redactAuthorization(v, extraSecrets) : redactText(v, extraSecrets);
  }
  return out;
}
