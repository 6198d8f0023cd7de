// Which webhook URLs point into the service's own network (server-side request forgery, OWASP
// API7): loopback, link-local (169.254.169.254 is the cloud metadata address) and the private
// ranges of RFC 1918 / RFC 4193. The sandbox refuses them when the profile requires it
// (webhooks.refuseInternalAddresses); the authorization matrix registers one of each and
// judges the answer by the same rule. Hand-written: a hostname test on literal addresses,
// no resolver lookups (a name resolving inside is the target's to catch, not a probe's).

export type InternalKind = 'loopback' | 'link-local' | 'private';

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The internal range a URL's host lies in, or undefined for a public (or unparsable) one. */
export function internalKind(url: string): InternalKind | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return 'loopback';
  const m = V4.exec(host);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return 'link-local';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a === 0) return 'private';
    return undefined;
  }
  if (/^\[fe[89ab]/.test(host)) return 'link-local';
  if (/^\[f[cd]/.test(host)) return 'private';
  return undefined;
}

/** The addresses the matrix registers, one per internal kind, and one plain-http public one. */
export const PROBE_URLS: Readonly<Record<InternalKind | 'http', string>> = {
  http: 'http://receiver.example.com/lendcheck-hook',
  loopback: 'https://127.0.0.1:9/lendcheck-hook',
  'link-local': 'https://169.254.169.254/latest/meta-data/',
  private: 'https://10.0.0.1/lendcheck-hook',
};
