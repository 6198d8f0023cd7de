import type BetterSqlite3 from 'better-sqlite3';
import type { Profile } from '../../contract/index.ts';
import type { Clock } from '../engine/clock.ts';
import type { Engine } from '../engine/engine.ts';
import type { Installed } from '../../faults/index.ts';
import type { Answer } from '../answer/answer.ts';
import type { KeyInfo, RequestEnv, SandboxRequest } from './request.ts';
import type { Stage } from './stage.ts';

// The seam between the sandbox core (engine, auth, the contract's routes) and the behaviours
// layered on it (rate limits, webhooks, metrics, the console). A plugin's stage runs BEFORE
// auth on every /v1 request, so it sees every request including ones that end in 401; its
// routes go into the one route table (table.ts) beside the core's and run after auth.

export type { KeyInfo };

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
  // No key lookup here: the caller stage (auth/bearer.ts) looks the key up once per request and
  // keeps the caller on it (req.partner, req.keyKind); plugins read the request, never the header.
  /** The core's engine: plugins append events (emit), hear committed ones (onEvents) and read positions. */
  engine: Engine;
  /** The whole sandbox, fetch-style (Sandbox.fetch): the console reads the API through it. */
  fetch(req: Request, env?: RequestEnv): Promise<Response>;
  /** Whether the /v1/sandbox/* controls are served (false plays a partner sandbox without them). */
  controls: boolean;
  /**
   * Deliberate bugs at the plugins' seams (the webhook sender's, the limiter's), validated at
   * start; only when a test or `--fault` names them. Each plugin takes those at its own seam
   * (faults/ atSeam), so the pipeline names no plugin's fault types.
   */
  faults?: readonly Installed[];
}

/** What a plugin route's handler gets: the request, its path parameters by name and, on a
 *  keyed contract endpoint, the partner auth found. */
export interface RouteCall {
  req: SandboxRequest;
  params: Record<string, string>;
  partner?: KeyInfo;
}

export type RouteHandler = (call: RouteCall) => Answer | Promise<Answer>;

/**
 * A route a plugin declares. A contract endpoint is named by its id: its method, path and
 * access (auth) come from the contract's table, and it is left out when the profile or
 * `controls: false` leaves the endpoint out. Any other route gives its method and full path
 * (`{name}` parameters), under /v1 or not (the console's pages), and gets no auth.
 */
export type PluginRoute = ({ endpoint: string } | { method: string; path: string }) & { handle: RouteHandler };

export interface SandboxPlugin {
  name: string;
  /** Ids of the contract's endpoints (contract/endpoints.ts) this plugin serves in `routes`;
   *  the core serves none of them, even when the plugin's routes leave one out. */
  endpoints?: readonly string[];
  /** Runs before auth on every /v1 request (rate limits, metrics): built once per sandbox. */
  stage?(ctx: SandboxContext): Stage;
  /** The routes this plugin serves, read once when the sandbox compiles its route table. */
  routes?(ctx: SandboxContext): PluginRoute[];
  /** Starts background work (dispatcher loops) once the store is open. */
  start?(ctx: SandboxContext): void | Promise<void>;
  /** Stops background work; called before the database closes. */
  stop?(): void | Promise<void>;
}
