import net from 'node:net';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { createMswSandbox } from 'lendcheck/msw';
import { installPartnerMatchers } from 'lendcheck/testcontainers';
import { partnerScenarios } from './testing/scenarios.ts';

// The msw way: the sandbox engine in this process behind msw's handlers; no port, no process.
// The app's webhook handler sits behind an msw route for its URL; the clock is the test's.

installPartnerMatchers(expect);
const listen = vi.spyOn(net.Server.prototype, 'listen');
const sandbox = createMswSandbox();
const HOOK = 'https://partner-app.test/hooks';
let handler: (req: Request) => Promise<Response> = async () => HttpResponse.text('no handler', { status: 503 });
const server = setupServer(...sandbox.handlers, http.post(HOOK, ({ request }) => handler(request)));
// The client cancels a 429's body before it waits; msw 2 would hang that cancel otherwise.
sandbox.attach(server);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await sandbox.close();
  expect(listen, 'no listening socket in the msw way').not.toHaveBeenCalled();
});

describe('partner app, the msw way', () => {
  partnerScenarios(() => ({
    baseUrl: sandbox.baseUrl,
    key: (p, t) => sandbox.key(p, t),
    advance: (s) => sandbox.clock.advance(s * 1000),
    hookUrl: HOOK,
    serve: (h) => void (handler = h),
    // The limiter runs on the test clock here: waiting is advancing it.
    // (the raw clock: MswClock.advance waits for webhook settling, which a limiter wait need not)
    sleep: async (ms) => sandbox.sandbox.clock.advance(ms),
    report: async () => (await sandbox.settle(), sandbox.partnerReport()),
    resetReport: async () => sandbox.sandbox.resetPartnerReport(),
  }));
});
