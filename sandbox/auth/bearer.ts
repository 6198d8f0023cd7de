import { ApiError } from '../pipeline/errors.ts';
import type { KeyInfo } from '../pipeline/plugin.ts';
import type { KeyStore } from './keys.ts';

// Bearer auth. Every refusal is the same 401 authentication_failed; the message says what
// was wrong with the header but never echoes the key.

/** The key an Authorization header presents, or the 401 that refuses it. */
export function authenticate(keys: KeyStore, header: string | undefined): KeyInfo {
  if (header === undefined) throw MISSING;
  const key = bearerKey(header);
  if (key === undefined) throw NOT_BEARER;
  const info = keys.lookup(key);
  if (!info) throw key.startsWith('ck_live_') ? LIVE : INVALID;
  return info;
}

const BEARER = /^Bearer +(\S+)\s*$/i;

/** The key an Authorization header presents, as auth reads it (undefined: not Bearer). */
export function bearerKey(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}

// The four refusals, made once: an ApiError carries no stack or per-request state, and a
// 401 is an answer a flood of bad keys asks for again and again.
const fail = (message: string) => new ApiError('authentication_failed', message, 401);
const MISSING = fail('Authorization: missing; send "Authorization: Bearer <API_KEY>"');
const NOT_BEARER = fail('Authorization: must use the Bearer scheme');
const LIVE = fail('Authorization: production keys are refused by the sandbox');
const INVALID = fail('Authorization: invalid API key');
