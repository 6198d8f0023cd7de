import type { RequestHandler } from 'msw';
import type { ProfileInput } from '../../contract/profile.ts';
import type { PartnerClient } from '../../contract/client.ts';
import type { SandboxHandle, SandboxKey } from '../public-types.ts';
import type { PartnerReport } from '../partner-report/types.ts';

// lendcheck/msw as the package declares it (its .d.ts; package.json "./msw" types). Self-
// contained like ../public-types.ts; index.ts's implementations are checked against it.

export type { SandboxHandle, SandboxKey } from '../public-types.ts';

export type WebhookHandler = (req: Request) => Response | Promise<Response>;

export interface MswSandboxOptions {
  /** The profile the sandbox plays: whole, or partial (merged over the defaults field by field,
   *  as `--profile FILE` is; defineProfile from 'lendcheck/profile' builds one). */
  profile?: ProfileInput;
  /** The key store; default the public test keys (ck_test_partner_a_starter/_growth/_scale, ck_test_partner_b_growth). */
  keys?: SandboxKey[];
  /** The base URL msw intercepts, ending in /v1; default https://sandbox.lendcheck.test/v1. */
  baseUrl?: string;
  /**
   * Rate limits: true (the default) on every key and the public rate on keyless calls; false
   * off; or only for some tiers and keys (and keyless calls when `public` is true). They run
   * on the test clock: advance it to refill a bucket.
   */
  rateLimits?: boolean | { tiers?: string[]; keys?: string[]; public?: boolean };
  /** The /v1/sandbox/* controls (default true). */
  controls?: boolean;
  /** The built-in liquidity provider (default false: only crossing orders match). */
  liquidity?: boolean;
  startingFunds?: Record<string, string>;
  /** Business time the test clock starts at (default: now). */
  startAt?: Date | number;
  /** Check every success body against the contract (default: on under NODE_ENV=test). */
  validateResponses?: boolean;
  /** Business ms before each webhook retry; default the spec's schedule. */
  retryDelaysMs?: readonly number[];
}

/** The part of msw's setupServer()/setupWorker() `attach` needs (msw's LifecycleEventEmitter). */
export interface MswEvents {
  events: {
    on(event: 'response:mocked', listener: (args: { request: Request; response: Response }) => void): unknown;
    removeListener(event: 'response:mocked', listener: (args: { request: Request; response: Response }) => void): unknown;
  };
}

export interface MswClock {
  now(): Date;
  /** Moves business time on ('30d', '12h', '90s', '500ms' or ms), runs what falls due
   *  (matching, maturity, rollover, liquidation, webhook retries) and waits for deliveries. */
  advance(by: string | number): Promise<void>;
}

export interface MswSandbox {
  /** For setupServer(...sandbox.handlers) or server.use(...sandbox.handlers). */
  handlers: RequestHandler[];
  /** Ends in /v1. */
  baseUrl: string;
  keys: SandboxKey[];
  /** A key of a partner (default any) and tier (default: growth where there is one, else any). */
  key(partnerId?: string, tier?: string): string;
  /**
   * A typed client of the interface (lendcheck/client) on this sandbox's base URL with `key`
   * (default `key()`). It calls the global fetch, so it reaches the sandbox only while your msw
   * server listens, like your own code.
   */
  client(key?: string): PartnerClient;
  clock: MswClock;
  /**
   * Call once with your msw server (setupServer or setupWorker): lets your client cancel a
   * response body (`res.body.cancel()`, as clients do before a retry). msw 2 keeps an unread
   * clone of each mocked response, and cancelling the body then never settles otherwise
   * (mswjs/interceptors#712). Returns the undo.
   */
  attach(server: MswEvents): () => void;
  /** Webhook attempts go to `handler` instead of fetch(url) until the returned function is called. */
  onWebhook(handler: WebhookHandler): () => void;
  /** Waits until every due webhook delivery has been attempted and recorded. */
  settle(): Promise<void>;
  /** The core without msw. */
  fetch(req: Request): Promise<Response>;
  /** What the partner's code did wrong so far (sandbox/partner-report/); `partner` narrows it. */
  partnerReport(partner?: string): Promise<PartnerReport>;
  sandbox: SandboxHandle;
  close(): Promise<void>;
}

export interface FetchCore {
  /** The sandbox's fetch. */
  fetch(req: Request): Promise<Response>;
  /** The base URL to intercept, ending in /v1. */
  baseUrl: string;
}

export declare const DEFAULT_MSW_BASE_URL: string;
/** A sandbox for msw: the engine in memory, no port, its own state. */
export declare function createMswSandbox(opts?: MswSandboxOptions): MswSandbox;
/** msw request handlers for any fetch core under a base URL. */
export declare function lendcheckHandlers(core: FetchCore): RequestHandler[];
