import { ApiError } from '../answer/errors.ts';
import { KEY_PREFIX } from '../../contract/index.ts';
import type { KeyKind, SandboxRequest } from '../pipeline/request.ts';
import type { FrontStage } from '../pipeline/stage.ts';
import type { KeyStore } from './keys.ts';

// Bearer auth, as the caller stage: the first stage of every /v1 request reads the
// Authorization header once and keeps what it found on the request (Hono's c.set): the key's
// partner and tier, or the 401 that refuses the header. The limiter picks its bucket from it,
// a keyed route's auth check throws its refusal (pipeline/table.ts) and the read cache keys
// on its partner; none of them parses the header again. Every refusal is the same 401
// authentication_failed; the message says what was wrong but never echoes the key.

/** Sets `req.partner`, or `req.authRefusal` when a header is there and refused (or absent). */
export function identify(keys: KeyStore, req: SandboxRequest): void {
  const header = req.header('authorization');
  if (header === undefined) {
    req.authRefusal = MISSING;
    req.keyKind = 'none';
    return;
  }
  const key = bearerKey(header);
  // A header without the Bearer scheme is classed by its whole value: a live key sent bare is still a live key sent.
  req.keyKind = keyKindOf(key ?? header);
  const info = key === undefined ? undefined : keys.lookup(key);
  if (info) req.partner = info;
  else req.authRefusal = key === undefined ? NOT_BEARER : key.startsWith(KEY_PREFIX.production) ? LIVE : INVALID;
}

/** The caller stage: `identify` before every other stage. */
export const callerStage =
  (keys: KeyStore): FrontStage =>
  (req) => {
    identify(keys, req);
    return undefined;
  };

const keyKindOf = (raw: string): KeyKind => (raw.startsWith(KEY_PREFIX.production) ? 'live' : raw.startsWith(KEY_PREFIX.sandbox) ? 'test' : 'other');

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
