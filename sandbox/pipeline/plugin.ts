import type { Hono } from 'hono';
import type BetterSqlite3 from 'better-sqlite3';
import type { Profile } from '../../contract/index.ts';
import type { Clock } from '../engine/clock.ts';
import type { Engine } from '../engine/engine.ts';
import type { Stage } from './stage.ts';
import type { HookFaultSetting } from '../webhooks/faults/index.ts';

// The seam between the sandbox core (engine, auth, routes) and the behaviours layered on
// it (rate limits, webhooks). A plugin's stage runs BEFORE auth on every /v1 request, so it
// sees every request including ones that end in 401 (lane/stage.ts: the lane runs it inline,
// Hono as middleware), and its routes run AFTER auth.

export interface KeyInfo {
  /** Stable, non-secret id of the key (never the key itself). */
  keyId: string;
  partnerId: string;
  tier: string;
}

export type SandboxEnv = {
  Variables: {
    /** Set by the auth middleware on authenticated routes. */
    partner: KeyInfo;
  };
};

/**
 * The env of a request the sandbox makes to itself (the console's snapshot, console/snapshot.ts):
 * it goes through the same routes and views as any API call but draws from no rate-limit
 * bucket. Only in-process callers can set a request's env; the network listener never does.
 */
export const INTERNAL_REQUEST_ENV = Object.freeze({ internal: true });
export const isInternalRequest = (env: unknown): boolean => (env as { internal?: unknown } | undefined)?.internal === true;

export interface SandboxContext {
  db: BetterSqlite3.Database;
  clock: Clock;
  profile: Profile;
  /** Constant-time lookup of a presented Bearer key; undefined when unknown or refused. */
  lookupKey(raw: string): KeyInfo | undefined;
  /** The core's engine: plugins append events (emit), hear committed ones (onEvents) and read positions. */
  engine: Engine;
  /** The whole sandbox, fetch-style (Sandbox.fetch): the console reads the API through it. */
  fetch(req: Request, env?: unknown): Promise<Response>;
  /** Whether the /v1/sandbox/* controls are served (false plays a partner sandbox without them). */
  controls: boolean;
  /** Deliberate webhook-sender bugs (webhooks/faults/), only when a test or `--fault` names them. */
  hookFaults?: readonly HookFaultSetting[];
}

export interface SandboxPlugin {
  name: string;
  /** Ids of the contract's endpoints (contract/endpoints.ts) whose routes this plugin registers
   *  in `routes`; the core registers no resolver for them. */
  endpoints?: readonly string[];
  /** Runs before auth on every /v1 request (rate limits, metrics): built once per sandbox. */
  stage?(ctx: SandboxContext): Stage;
  /** Runs after auth: registers routes; `c.get('partner')` is set on authenticated ones. */
  routes?(app: Hono<SandboxEnv>, ctx: SandboxContext): void;
  /** Starts background work (dispatcher loops) once the store is open. */
  start?(ctx: SandboxContext): void | Promise<void>;
  /** Stops background work; called before the database closes. */
  stop?(): void | Promise<void>;
}
