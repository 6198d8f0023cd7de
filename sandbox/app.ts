import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { API_VERSION_PREFIX, defaultProfile, endpoints, type Endpoint, type Profile } from '../contract/index.ts';
import { KeyStore, DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';
import { authMiddleware, bearerKey } from './auth/bearer.ts';
import { TestClock, type Clock } from './engine/clock.ts';
import { defaultConfig, type LiquidityConfig, type SandboxConfig } from './engine/config.ts';
import { Engine } from './engine/engine.ts';
import { runDueWork } from './engine/lifecycle.ts';
import { recordSnapshot } from './engine/market-data.ts';
import { ApiError, errorResponse, internalErrorResponse, payloadTooLarge } from './pipeline/errors.ts';
import { endpointRoute } from './endpoints/route.ts';
import { RESOLVERS } from './endpoints/resolvers.ts';
import { ReadCache, type CachedAnswer } from './http/read-cache.ts';
import { toResponse } from './pipeline/answer.ts';
import { createLane, type Lane, type LaneRoute } from './pipeline/dispatch.ts';
import { FetchLaneRequest } from './pipeline/request.ts';
import { compileRouter, type RouteEntry } from './pipeline/router.ts';
import { stageMiddleware } from './pipeline/stage.ts';
import { hookFaults, installFaults, type FaultSetting } from './faults/index.ts';
import { defaultPlugins, type SandboxContext, type SandboxEnv, type SandboxPlugin } from './plugins.ts';
import { startCheckpointer } from './store/checkpointer.ts';
import { getMeta, openDb, type Db } from './store/db.ts';

export interface SandboxOptions {
  profile?: Profile;
  /** SQLite file; ':memory:' (the default) for tests. */
  dbPath?: string;
  keys?: KeyEntry[];
  timeScale?: number;
  clock?: Clock;
  startingFunds?: Record<string, string>;
  plugins?: SandboxPlugin[];
  /** Checks every success body against the contract; on by default under tests and LENDCHECK_DEV=1. */
  validateResponses?: boolean;
  liquidity?: LiquidityConfig;
  withdrawalDelaySeconds?: number;
  /** Real milliseconds between background lifecycle runs; 0 turns the timer off. */
  tickMs?: number;
  /** Commits the writes of one event-loop turn together (default on); responses still wait for their commit. */
  groupCommit?: boolean;
  /** WAL checkpoints on a worker thread instead of inside commits (default on for a file). */
  backgroundCheckpoints?: boolean;
  /**
   * false: no `/v1/sandbox/*` controls at all (they answer like any unknown route), as a
   * real partner sandbox has none; users stay pre-funded and crossing orders still match.
   */
  controls?: boolean;
  /**
   * Deliberate bugs (sandbox/faults/), for proving the suites catch them. Never on by
   * default; only tests and an explicit `lendcheck sandbox --fault` set them.
   */
  faults?: FaultSetting[];
}

export interface Sandbox {
  /** The whole sandbox, fetch-style: the lane for the contract's routes, Hono for the rest.
   *  `env` is what the node listener passes (the socket); in-process callers may omit it. */
  fetch(req: Request, env?: unknown): Promise<Response>;
  /** The contract's routes without Hono (lane/lane.ts); undefined: not a lane route, ask `app`. */
  lane: Lane;
  /**
   * The node:http listener's shortcut for a repeated read (see http/read-cache.ts): the
   * answer the core gave to the same partner for the same target, while nothing changed;
   * undefined sends the request through `fetch`. Absent when a plugin has a stage.
   */
  cachedRead?(target: string, authorization: string | undefined): CachedAnswer | undefined;
  /** Hono, for the routes outside the lane (plugins' routes, controls, 404 and 405). */
  app: Hono<SandboxEnv>;
  engine: Engine;
  db: Db;
  clock: Clock;
  profile: Profile;
  close(): Promise<void>;
}

const honoPath = (p: string) => API_VERSION_PREFIX + p.replace(/\{(\w+)\}/g, ':$1');

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const profile = opts.profile ?? defaultProfile;
  const db = openDb(opts.dbPath ?? ':memory:');
  const onFile = opts.dbPath !== undefined && opts.dbPath !== ':memory:';
  const checkpointer = onFile && opts.backgroundCheckpoints !== false ? startCheckpointer(db, opts.dbPath!) : undefined;
  const clock = opts.clock ?? restoreClock(db, opts.timeScale);
  const base = defaultConfig(profile);
  const config: SandboxConfig = {
    ...base,
    // Without controls nothing fills an order but a crossing one, so organic matching is what is tested.
    liquidity: opts.liquidity ?? (opts.controls === false ? { ...base.liquidity, enabled: false } : base.liquidity),
    startingFunds: opts.startingFunds ?? base.startingFunds,
    withdrawalDelaySeconds: opts.withdrawalDelaySeconds ?? base.withdrawalDelaySeconds,
  };
  const engine = new Engine(db, profile, clock, config);
  const keys = new KeyStore(opts.keys ?? DEFAULT_KEYS, profile);
  const validate = opts.validateResponses ?? (process.env.NODE_ENV === 'test' || process.env.LENDCHECK_DEV === '1');
  const plugins = opts.plugins ?? defaultPlugins();
  const controls = opts.controls !== false;
  // fetch is bound late: the lane it goes through is built from the plugins this context starts.
  // The webhook sender's faults go to the dispatcher through the context (validated here, at start).
  const senderFaults = opts.faults?.length ? hookFaults(opts.faults) : [];
  const ctx: SandboxContext = { db, clock, profile, lookupKey: (raw) => keys.lookup(raw), engine, controls, fetch: (req, env) => sandboxFetch(req, env), ...(senderFaults.length ? { hookFaults: senderFaults } : {}) };

  engine.groupCommit = opts.groupCommit ?? true;
  // A plugin's stage must see every request, so with any there is no shortcut.
  const stages = plugins.flatMap((p) => (p.stage ? [p.stage(ctx)] : []));
  const readCache = stages.length ? undefined : new ReadCache(db, clock);

  const app = new Hono<SandboxEnv>();
  // Outermost: no response leaves before the writes behind it are committed (group commit).
  app.use('*', async (_c, next) => {
    await next();
    await engine.settled();
  });
  app.onError((err) => {
    if (err instanceof ApiError) return errorResponse(err);
    console.error(`sandbox: internal error: ${err instanceof Error ? err.stack : String(err)}`);
    return internalErrorResponse();
  });

  // Validated here, so a bad fault name or config fails the start, not a request.
  const resolvers = opts.faults?.length ? installFaults(opts.faults, RESOLVERS) : RESOLVERS;
  const all = endpoints(profile).filter((e) => controls || e.access !== 'sandbox');
  const patterns = all.map((e) => ({ e, re: new RegExp(`^${API_VERSION_PREFIX}${e.path.replace(/\{\w+\}/g, '[^/]+')}/?$`) }));
  app.notFound((c) => {
    // A set: the shared order-book path is two endpoints with one method.
    const methods = [...new Set(patterns.filter((p) => p.re.test(c.req.path)).map((p) => p.e.method))];
    if (methods.length) {
      const e = profile.errors.methodNotAllowed;
      return errorResponse(new ApiError(e.code, `method: ${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(', ')}`, e.status, undefined, { allow: methods.join(', ') }));
    }
    const e = profile.errors.unknownRoute;
    return errorResponse(new ApiError(e.code, `path: no route ${c.req.method} ${c.req.path}`, e.status));
  });

  for (const st of stages) app.use(`${API_VERSION_PREFIX}/*`, stageMiddleware(st));

  const limitBody = bodyLimit({
    maxSize: profile.limits.maxBodyBytes,
    onError: () => {
      throw payloadTooLarge(profile);
    },
  });
  // After the plugins' middleware, so a 413 still passes through them (it carries the
  // rate-limit headers like every other answer); before auth and any parsing.
  // Hono's bodyLimit reads `c.req.raw.body` first, which makes the node adapter build a
  // full Request and a web stream for every call — more than the rest of an order costs.
  // So a declared Content-Length is checked here and the body is read with the same cap in
  // readJsonBody; only bodies of unknown length (chunked) go through bodyLimit.
  app.use(`${API_VERSION_PREFIX}/*`, (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limitBody(c, next);
    if (Number(declared) > profile.limits.maxBodyBytes) throw payloadTooLarge(profile);
    return next();
  });

  if (!controls) {
    app.use(`${API_VERSION_PREFIX}/sandbox/*`, (c) => {
      const e = profile.errors.unknownRoute;
      throw new ApiError(e.code, `path: no route ${c.req.method} ${c.req.path}`, e.status);
    });
  }

  // The authenticated and public order books share a path: a request that presents a
  // key gets the authenticated variant (profile.orderbookPath 'shared-by-auth').
  const sharedPaths = sharedKeyAndPublicPaths(all);
  const auth = authMiddleware(keys);
  const optionalAuth: MiddlewareHandler<SandboxEnv> = (c, next) => (c.req.header('authorization') !== undefined ? auth(c, next) : next());
  // Only for what Hono serves: the lane authenticates its own routes (http/endpoint-route.ts).
  // An endpoint whose plugin is absent still refuses a missing key, as before its 404/405.
  const pluginOwned = new Set(plugins.flatMap((p) => p.endpoints ?? []));
  const laneServes = (e: Endpoint) => !pluginOwned.has(e.id) && e.id in RESOLVERS;
  for (const e of all) {
    if (e.access === 'public' || laneServes(e)) continue;
    app.on(e.method, honoPath(e.path), sharedPaths.has(`${e.method} ${e.path}`) ? optionalAuth : auth);
  }

  for (const p of plugins) p.routes?.(app, ctx);

  // Endpoints a plugin declares are its own (Hono serves them); the lane serves those the
  // core has a resolver for. Without the plugin that declares them (tests run with none)
  // such endpoints stay unrouted.
  const deps = { engine, profile, keys, resolvers, validate, readCache };
  const entries: RouteEntry<LaneRoute>[] = [];
  const registered = new Set<string>();
  for (const e of all) {
    if (!laneServes(e)) continue;
    const key = shape(e);
    if (registered.has(key)) continue;
    registered.add(key);
    const twin = all.find((o) => o !== e && shape(o) === key);
    const pair = [e, twin].filter((x): x is Endpoint => x !== undefined);
    const keyed = pair.find((x) => x.access !== 'public');
    const pub = pair.find((x) => x.access === 'public');
    entries.push({ method: e.method, path: `${API_VERSION_PREFIX}${e.path}`, value: endpointRoute(deps, keyed, pub) });
  }
  const lane = createLane({
    route: compileRouter(entries),
    stages,
    profile,
    pendingCommit: () => engine.pendingCommit(),
    onInternalError: (err) => console.error(`sandbox: internal error: ${err instanceof Error ? err.stack : String(err)}`),
  });

  // Lifecycle: clock advances run due work at once; a timer covers time passing on its own.
  const offAdvance = clock.onAdvance((now) => runDueWork(engine, now));
  const tickMs = opts.tickMs ?? 250;
  const timer = tickMs > 0 ? setInterval(() => safeTick(engine, tickMs), tickMs) : undefined;
  timer?.unref();
  recordSnapshot(engine, clock.now(), true);
  engine.persistClock();
  // A plugin whose start rejects is reported at once; dropping the rejection would leave a sandbox
  // that looks healthy but never dispatches.
  for (const p of plugins) {
    Promise.resolve()
      .then(() => p.start?.(ctx))
      .catch((e: unknown) => console.error(`sandbox: plugin ${p.name} failed to start: ${e instanceof Error ? e.message : String(e)}`));
  }

  function sandboxFetch(req: Request, env?: unknown): Promise<Response> {
    const a = lane(new FetchLaneRequest(req, env));
    return a === undefined ? Promise.resolve(app.fetch(req, env as never)) : Promise.resolve(a).then(toResponse);
  }

  let closed = false;
  return {
    fetch: sandboxFetch,
    lane,
    ...(readCache
      ? {
          cachedRead(target: string, authorization: string | undefined) {
            if (authorization === undefined || !readCache.size) return undefined;
            const key = bearerKey(authorization);
            const partner = key === undefined ? undefined : keys.lookup(key);
            return partner && readCache.get(partner.partnerId, target);
          },
        }
      : {}),
    app,
    engine,
    db,
    clock,
    profile,
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      offAdvance();
      for (const p of plugins) await p.stop?.();
      try {
        engine.persistClock();
        engine.commitNow();
      } finally {
        await checkpointer?.stop();
        db.close();
      }
    },
  };
}

const LIQUIDATION_SCAN_EVERY_MS = 5_000;

function safeTick(engine: Engine, tickMs: number): void {
  try {
    // Interest erodes collateral slowly, so every open borrow is checked once every few
    // seconds, a slice of them per tick (a scan of all at once held the event loop for
    // 120–220 ms under a 500 orders/s matching load).
    runDueWork(engine, engine.now(), { liquidations: { tickMs, passMs: LIQUIDATION_SCAN_EVERY_MS } });
  } catch (e) {
    console.error(`sandbox: lifecycle run failed: ${(e as Error).message}`);
  }
}

/** Method and path with parameter names erased: /markets/{asset}/… and /markets/{id}/… are one route. */
const shape = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path.replace(/\{\w+\}/g, '{}')}`;

function sharedKeyAndPublicPaths(all: Endpoint[]): Set<string> {
  const pub = new Set(all.filter((e) => e.access === 'public').map(shape));
  const out = new Set<string>();
  for (const e of all) if (e.access !== 'public' && pub.has(shape(e))) out.add(`${e.method} ${e.path}`);
  return out;
}

/** Business time resumes where the database left it (and never before its last write). */
function restoreClock(db: Db, timeScale?: number): Clock {
  const saved = Number(getMeta(db, 'clock_ms') ?? Number.NaN);
  const lastWrite = db.prepare('SELECT MAX(created_at_ms) FROM outbox_events').pluck().get() as number | null;
  const start = Number.isFinite(saved) ? Math.max(saved, lastWrite ?? 0) : undefined;
  return new TestClock({ timeScale, startMs: start });
}
