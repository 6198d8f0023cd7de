import { TestClock } from '../engine/clock.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../app.ts';

// Shared by the sandbox's tests: a sandbox on a fixed business clock, no background timer,
// no built-in liquidity unless asked, and response validation on.

export const KEY_A = 'ck_test_partner_a_growth';
export const KEY_B = 'ck_test_partner_b_growth';
export const START_MS = Date.parse('2026-01-01T00:00:00Z');

export function testSandbox(opts: SandboxOptions = {}): Sandbox {
  return createSandbox({
    clock: new TestClock({ startMs: START_MS, realNow: () => 0 }),
    liquidity: { enabled: false, delaySeconds: 5 },
    tickMs: 0,
    validateResponses: true,
    plugins: [],
    ...opts,
  });
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export type Caller = (method: string, path: string, o?: CallOptions) => Promise<{ status: number; body: any; headers: Headers }>;

/** Calls the sandbox in-process, or over HTTP when `base` (ending in /v1) is given. */
export function caller(target: { fetch(req: Request): Promise<Response> } | string): Caller {
  return async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? KEY_A : o.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = typeof target === 'string' ? `${target}${path}` : `http://sandbox.test/v1${path}`;
    const req = new Request(url, { method, headers, body });
    const res = typeof target === 'string' ? await fetch(req) : await target.fetch(req);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // non-JSON bodies stay text so a test can show them
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}
