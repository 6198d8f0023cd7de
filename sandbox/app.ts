import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  API_VERSION_PREFIX,
  defaultProfile,
  endpointSuccess,
  endpoints,
  successSchema,
  type Endpoint,
  type Profile,
} from '../contract/index.ts';
import { KeyStore, DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';
import { authMiddleware, bearerKey } from './auth/middleware.ts';
import { TestClock, type Clock } from './clock.ts';
import { defaultConfig, type LiquidityConfig, type SandboxConfig } from './config.ts';
import { Engine } from './engine/engine.ts';
import { runDueWork } from './engine/lifecycle.ts';
import { recordSnapshot } from './engine/market-data.ts';
import { viewTime } from './engine/views.ts';
import { iso } from './engine/rows.ts';
import { ApiError, errorResponse, internalErrorResponse } from './errors.ts';
import { RESOLVERS } from './http/handlers.ts';
import { RawJson } from './http/raw-json.ts';
import { ReadCache, type CachedAnswer } from './http/read-cache.ts';
import { parseWith, readJsonBody } from './http/validate.ts';
import { installFaults, type FaultSetting } from './faults/index.ts';
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
  fetch(req: Request): Promise<Response>;
  /**
   * The node:http listener's shortcut for a repeated read (see http/read-cache.ts): the
   * answer the core gave to the same partner for the same target, while nothing changed;
   * undefined sends the request through `fetch`. Absent when plugins install middleware.
   */
  cachedRead?(target: string, authorization: string | undefined): CachedAnswer | undefined;
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
  const ctx: SandboxContext = { db, clock, profile, lookupKey: (raw) => keys.lookup(raw), engine, controls };

  engine.groupCommit = opts.groupCommit ?? true;
  // Middleware of a plugin must see every request, so with any there is no shortcut.
  const readCache = plugins.some((p) => p.middleware) ? undefined : new ReadCache(db, clock);

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

  for (const p of plugins) p.middleware?.(app, ctx);

  const limitBody = bodyLimit({
    maxSize: profile.limits.maxBodyBytes,
    onError: () => {
      const e = profile.errors.payloadTooLarge;
      throw new ApiError(e.code, `body: larger than ${profile.limits.maxBodyBytes} bytes`, e.status);
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
    if (Number(declared) > profile.limits.maxBodyBytes) {
      const e = profile.errors.payloadTooLarge;
      throw new ApiError(e.code, `body: larger than ${profile.limits.maxBodyBytes} bytes`, e.status);
    }
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
  for (const e of all) {
    if (e.access === 'public') continue;
    app.on(e.method, honoPath(e.path), sharedPaths.has(`${e.method} ${e.path}`) ? optionalAuth : auth);
  }

  for (const p of plugins) p.routes?.(app, ctx);

  // Endpoints a plugin declares are its own; the core serves those it has a resolver for.
  // Without the plugin that declares them (tests run with none) such endpoints stay unrouted.
  const pluginOwned = new Set(plugins.flatMap((p) => p.endpoints ?? []));
  const registered = new Set<string>();
  for (const e of all) {
    if (pluginOwned.has(e.id) || !(e.id in RESOLVERS)) continue;
    const key = shape(e);
    if (registered.has(key)) continue;
    registered.add(key);
    const twin = all.find((o) => o !== e && shape(o) === key);
    if (twin) {
      const [keyed, pub] = e.access === 'public' ? [twin, e] : [e, twin];
      const hk = handler(keyed);
      const hp = handler(pub);
      app.on(e.method, honoPath(e.path), (c) => (c.get('partner') ? hk(c) : hp(c)));
    } else {
      app.on(e.method, honoPath(e.path), handler(e));
    }
  }

  function handler(e: Endpoint) {
    const resolve = resolvers[e.id];
    if (!resolve) throw new Error(`sandbox: no resolver for endpoint ${e.id}`);
    const status = endpointSuccess(profile, e);
    const schema = successSchema(profile, e);
    const envelope = e.access === 'public' && schema !== e.response;
    const bodyRequired = e.body !== undefined && e.id !== 'position.repay';
    // Params come from the first path segment names, whatever the twin route called them.
    const paramNames = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const cacheable = readCache && !envelope && (e.id === 'position.get' || e.id === 'positions.list') ? readCache : undefined;
    return async (c: Context<SandboxEnv>) => {
      const raw = c.req.param() as Record<string, string>;
      const values = Object.values(raw);
      const named: Record<string, string> = {};
      paramNames.forEach((n, i) => (named[n] = raw[n] ?? values[i]));
      const params = e.params ? (parseWith(e.params, named, 'params') as Record<string, string>) : named;
      const query = e.query ? (parseWith(e.query, c.req.query(), 'query') as Record<string, unknown>) : {};
      let body: unknown;
      if (e.body) {
        const json = await readJsonBody(c, profile, bodyRequired);
        // An asset outside the lists gets the profile's unsupported-asset error, not a schema one.
        if (e.id === 'lend.create') {
          const a = (json as { asset?: unknown } | undefined)?.asset;
          if (typeof a === 'string' && !engine.marketAssets().includes(a)) throw engine.unsupportedAsset('asset', a);
        }
        body = json === undefined && !bodyRequired ? undefined : parseWith(e.body, json ?? {}, 'body');
      }
      let out = resolve(engine, { partner: c.get('partner'), params, query, body });
      // Only a fault's resolver answers with a promise; the clean path stays synchronous.
      if (out instanceof Promise) out = await out;
      if (out instanceof RawJson && !envelope) {
        if (validate) {
          const r = schema.safeParse(JSON.parse(out.text));
          if (!r.success) throw new Error(`response of ${e.id} breaks its schema: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
        }
        remember(c, out.text, undefined);
        return c.body(out.text, status as 200, { 'Content-Type': 'application/json' });
      }
      const payload = envelope ? { data: out instanceof RawJson ? JSON.parse(out.text) : out, timestamp: iso(engine.now()) } : out;
      if (validate) {
        const r = schema.safeParse(payload);
        if (!r.success) throw new Error(`response of ${e.id} breaks its schema: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
      }
      if (cacheable) {
        const text = JSON.stringify(payload);
        remember(c, text, viewTime(out));
        return c.body(text, status as 200, { 'Content-Type': 'application/json' });
      }
      return c.json(payload as object, status as 200);
    };

    /** Keeps an answer for the listener's shortcut; only requests that came through it have a target. */
    function remember(c: Context<SandboxEnv>, body: string, at: number | undefined): void {
      const target = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
      const partner = c.get('partner');
      if (!cacheable || target === undefined || !partner) return;
      cacheable.put(partner.partnerId, target, { status, body, length: Buffer.byteLength(body), ...(at !== undefined ? { at } : {}) });
    }
  }

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

  let closed = false;
  return {
    fetch: (req) => Promise.resolve(app.fetch(req)),
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
