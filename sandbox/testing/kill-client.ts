import { DEFAULT_KEYS } from '../auth/keys.ts';
import { KEY_A, KEY_B } from './helpers.ts';

// Who the kill drill's clients are and how they call the spawned sandbox. Its own call rather
// than test-helpers' caller: a body that is not JSON must throw, so the load counts the
// request as cut by the kill.

export const PARTNERS = [KEY_A, KEY_B].map((key) => ({ key, partnerId: DEFAULT_KEYS.find((k) => k.key === key)!.partnerId }));
export const USERS = ['kd-u1', 'kd-u2', 'kd-u3'];

export type Call = (key: string, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** `url()` is read per request: every restart listens on a new port. */
export function sandboxCaller(url: () => string): Call {
  return async (key, method, path, body) => {
    const r = await fetch(`${url()}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
}
