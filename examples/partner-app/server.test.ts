import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startSandbox, type StartedSandbox } from 'lendcheck';
import { endpointRoute } from 'lendcheck/client';
import { installPartnerMatchers } from 'lendcheck/testcontainers';
import { partnerScenarios } from './testing/scenarios.ts';
import { nodeReceiver } from './receiver.ts';

// The startSandbox way: the same sandbox as `lendcheck sandbox`, on a port of this process,
// for any client; the app's webhook handler on a loopback port of its own.

installPartnerMatchers(expect);
let s: StartedSandbox;
let hooks: Server;
let handler: (req: Request) => Promise<Response> = async () => new Response('no handler', { status: 503 });
beforeAll(async () => {
  s = await startSandbox({ port: 0, liquidity: false });
  hooks = await nodeReceiver((req) => handler(req));
});
afterAll(async () => {
  hooks?.close();
  await s?.close();
});

describe('partner app, the startSandbox way', () => {
  const control = async (path: string, body: unknown) => {
    const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${s.keys[0].key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  };
  partnerScenarios(() => ({
    baseUrl: s.url,
    key: (p, t) => s.keys.find((k) => (p === undefined || k.partnerId === p) && (t === undefined || k.tier === t))!.key,
    advance: (seconds) => control(endpointRoute('sandbox.clock.advance').path, { seconds }),
    hookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`,
    serve: (h) => void (handler = h),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    report: () => s.partnerReport(),
    resetReport: async () => s.sandbox.resetPartnerReport(),
  }));
});

