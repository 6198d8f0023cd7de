import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { installPartnerMatchers, LendcheckSandboxContainer, type StartedLendcheckSandboxContainer } from 'lendcheck/testcontainers';
import { partnerScenarios } from './testing/scenarios.ts';
import { nodeReceiver } from './receiver.ts';

// The container way: the sandbox image through lendcheck/testcontainers, on the host's network
// so its webhook deliveries reach the app's receiver on loopback. It needs a container engine
// and the image (`docker build -t lendcheck-sandbox:local .`); CI's container step runs it
// (LENDCHECK_CONTAINERS=1, after cli/containers.test.ts builds the image).

installPartnerMatchers(expect);
const skip = process.env.LENDCHECK_CONTAINERS === '1' ? undefined : "CI's container step runs it (LENDCHECK_CONTAINERS=1, an engine and the lendcheck-sandbox:local image); npm test has no engine";
let c: StartedLendcheckSandboxContainer;
let hooks: Server;
let handler: (req: Request) => Promise<Response> = async () => new Response('no handler', { status: 503 });

describe.skipIf(!!skip)(`partner app, the container way${skip ? ` (skipped: ${skip})` : ''}`, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    // The host port the sandbox takes (host network); LENDCHECK_SANDBOX_PORT moves it off a taken one.
    c = await new LendcheckSandboxContainer().withHostNetwork(Number(process.env.LENDCHECK_SANDBOX_PORT ?? 5741)).withSandboxArgs('--no-liquidity').start();
    hooks = await nodeReceiver((req) => handler(req));
  }, 120_000);
  afterAll(async () => {
    hooks?.close();
    await c?.stop();
  });
  partnerScenarios(() => ({
    baseUrl: c.getBaseUrl(),
    key: (p, t) => c.key(p, t),
    advance: async (seconds) => void (await c.advanceClock(seconds)),
    hookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`,
    serve: (h) => void (handler = h),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    report: () => c.partnerReport(),
    resetReport: () => c.resetPartnerReport(),
  }));
});
