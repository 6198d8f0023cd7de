import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';
import type { SandboxEnv } from '../plugins.ts';
import type { KeyStore } from './keys.ts';

// Bearer auth. Every refusal is the same 401 authentication_failed; the message says what
// was wrong with the header but never echoes the key.
export function authMiddleware(keys: KeyStore): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) throw fail('Authorization: missing; send "Authorization: Bearer <API_KEY>"');
    const m = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!m) throw fail('Authorization: must use the Bearer scheme');
    const info = keys.lookup(m[1]);
    if (!info) {
      const live = m[1].startsWith('ck_live_');
      throw fail(live ? 'Authorization: production keys are refused by the sandbox' : 'Authorization: invalid API key');
    }
    c.set('partner', info);
    await next();
  };
}

const fail = (message: string) => new ApiError('authentication_failed', message, 401);
