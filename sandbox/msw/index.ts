// `lendcheck/msw`: the reference sandbox as msw request handlers, for a partner's own tests.
//
//   import { setupServer } from 'msw/node';
//   import { createMswSandbox } from 'lendcheck/msw';
//   const sandbox = createMswSandbox({ profile });
//   const server = setupServer(...sandbox.handlers);
//
// msw reaches global fetch, node:http/https and the clients built on them (axios, got,
// node-fetch, ky, openapi-fetch). It cannot reach undici's own request()/Client/Pool with
// its own Agent (they bypass the globals msw patches): for those, start the sandbox on a
// port (startSandbox from 'lendcheck') or run its container.
export { createMswSandbox, DEFAULT_MSW_BASE_URL, type MswClock, type MswSandbox, type MswSandboxOptions } from './sandbox.ts';
export { lendcheckHandlers, type FetchCore } from './handlers.ts';
export type { WebhookHandler } from './webhooks.ts';
export type { KeyEntry } from '../auth/keys.ts';
