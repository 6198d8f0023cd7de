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
// The package's declarations are types.ts (self-contained); these implementations must fit them.
import type * as Declared from './types.ts';
import { lendcheckHandlers as handlers } from './handlers.ts';
import { createMswSandbox as create, DEFAULT_MSW_BASE_URL as BASE } from './sandbox.ts';

export const createMswSandbox = create satisfies typeof Declared.createMswSandbox;
export const lendcheckHandlers = handlers satisfies typeof Declared.lendcheckHandlers;
export const DEFAULT_MSW_BASE_URL: string = BASE;
export type { LocalMswSandbox } from './sandbox.ts';
export type { FetchCore, MswClock, MswEvents, MswSandbox, MswSandboxOptions, SandboxHandle, SandboxKey, WebhookHandler } from './types.ts';
