import { defaultProfile, type Profile } from '../contract/index.ts';
import { KeyStore, DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';
import { callerStage } from './auth/bearer.ts';
import { TestClock, type Clock } from './engine/clock.ts';
import { defaultConfig, type LiquidityConfig, type SandboxConfig } from './engine/config.ts';
import { Engine } from './engine/engine.ts';
import { runDueWork } from './engine/lifecycle.ts';
import { recordSnapshot } from './engine/market-data.ts';
import { endpointHandler } from './endpoints/route.ts';
import { RESOLVERS } from './endpoints/resolvers.ts';
import { toResponse } from './answer/answer.ts';
import { createDispatch, type Dispatch } from './pipeline/dispatch.ts';
import { ReadCache, readCacheStage } from './pipeline/read-cache.ts';
import { FetchRequest, type RequestEnv } from './pipeline/request.ts';
import { compileTable } from './pipeline/table.ts';
import { faultParsers, installFaults, validateFaults, type FaultSetting } from './faults/index.ts';
import { defaultPlugins, type SandboxContext, type SandboxPlugin } from './plugins.ts';
import { partnerReportPlugin, type PartnerReportOptions, type PartnerReportPlugin } from './partner-report/plugin.ts';
import type { PartnerReport } from './partner-report/types.ts';
import { startCheckpointer } from './store/checkpointer.ts';
import { getMeta, openDb, type Db } from './store/db.ts';
import { openMemoryDb } from './store/memory-image.ts';

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
   * false: no sandbox controls (the `sandbox.*` endpoints) at all (they answer like any unknown route), as a
   * real partner sandbox has none; users stay pre-funded and crossing orders still match.
   */
  controls?: boolean;
  /**
   * Deliberate bugs (sandbox/faults/), for proving the suites catch them. Never on by
   * default; only tests and an explicit `lendcheck sandbox --fault` set them.
   */
  faults?: FaultSetting[];
  /** Records what the partner's code does and reports where it breaks the interface
   *  (partner-report/): true or its options. Off by default; the partner doors turn it on. */
  partnerReport?: boolean | PartnerReportOptions;
}

export interface Sandbox {
  /** The whole sandbox, fetch-style (Hono's app.fetch): the fetch door onto `dispatch`, for
   *  msw, the mutants' proxy, in-process callers and tests. `env` is what the door knows beside
   *  the request (the client's address). */
  fetch(req: Request, env?: RequestEnv): Promise<Response>;
  /** The one pipeline (pipeline/dispatch.ts): the caller, the plugins' stages, the read cache,
   *  every route, the 404/405, HEAD, the body cap and the error answer. Every door calls it. */
  dispatch: Dispatch;
  /** The read cache's store (pipeline/read-cache.ts), absent when a plugin has a stage; for tests. */
  readCache?: ReadCache;
  engine: Engine;
  db: Db;
  clock: Clock;
  profile: Profile;
  /** The partner report so far (partner-report/); refused when the sandbox was started without it. */
  partnerReport(partner?: string): Promise<PartnerReport>;
  /** Forgets what the report recorded, so the next test starts clean on a shared sandbox. */
  resetPartnerReport(): void;
  close(): Promise<void>;
}

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const profile = opts.profile ?? defaultProfile;
  // null is a target's path detection could not find; the sandbox serves its rates somewhere.
  if (profile.ratesPath === null) throw new Error('profile ratesPath: the sandbox serves GET rates at a path; null (unknown) describes a target, not the sandbox');
  const onFile = opts.dbPath !== undefined && opts.dbPath !== ':memory:';
  const db = onFile ? openDb(opts.dbPath!) : openMemoryDb();
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
  // The report's recorder goes first, outermost of the stages, so it sees the limiter's 429s.
  const given = opts.plugins ?? defaultPlugins();
  const reporter = given.find((p): p is PartnerReportPlugin => p.name === 'partner-report' && 'report' in p)
    ?? (opts.partnerReport ? partnerReportPlugin(opts.partnerReport === true ? {} : opts.partnerReport) : undefined);
  const plugins = reporter && !given.includes(reporter) ? [reporter, ...given] : given;
  const controls = opts.controls !== false;
  // fetch is bound late: the route table it goes through is built from the plugins this context starts.
  // The faults go to the plugins through the context (validated here, at start); each plugin
  // takes those at its own seam (the webhook sender's, the limiter's).
  const faults = opts.faults?.length ? validateFaults(opts.faults) : [];
  const ctx: SandboxContext = {
    db,
    clock,
    profile,
    engine,
    controls,
    fetch: (req, env) => sandboxFetch(req, env),
    ...(faults.length ? { faults } : {}),
  };

  engine.groupCommit = opts.groupCommit ?? true;
  // The caller is found once, first; the plugins' stages run around the matched route; the read
  // cache runs inside them, just before the route (so the limiter counts a cached read, and its
  // headers go on it), in every door. Off only under --fault: a planted bug may make a read
  // depend on more than the rows (pipeline/read-cache.ts says why the rest holds).
  const pluginStages = plugins.flatMap((p) => (p.stage ? [p.stage(ctx)] : []));
  const changes = db.prepare('SELECT total_changes()').pluck();
  const readCache = faults.length ? undefined : new ReadCache({ changes: () => changes.get() as number, inTransaction: () => db.inTransaction, now: () => clock.now() });
  const front = [callerStage(keys)];

  // Validated here, so a bad fault name or config fails the start, not a request.
  const resolvers = opts.faults?.length ? installFaults(opts.faults, RESOLVERS) : RESOLVERS;
  const parsers = opts.faults?.length ? faultParsers(opts.faults, profile) : undefined;
  const deps = { engine, profile, resolvers, validate, readCache, ...(parsers ? { parsers } : {}) };
  const router = compileTable({
    profile,
    controls,
    claimed: new Set(plugins.flatMap((p) => p.endpoints ?? [])),
    pluginRoutes: plugins.flatMap((p) => p.routes?.(ctx) ?? []),
    core: (e) => (e.id in resolvers ? endpointHandler(deps, e) : undefined),
  });
  const dispatch = createDispatch({
    router,
    front,
    ...(readCache ? { inner: [readCacheStage(readCache)] } : {}),
    stages: pluginStages,
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

  function sandboxFetch(req: Request, env?: RequestEnv): Promise<Response> {
    return Promise.resolve(dispatch(new FetchRequest(req, env))).then(toResponse);
  }

  let closed = false;
  return {
    fetch: sandboxFetch,
    dispatch,
    ...(readCache ? { readCache } : {}),
    engine,
    db,
    clock,
    profile,
    partnerReport: (partner) =>
      reporter ? reporter.report(partner) : Promise.reject(new Error('partner report: off in this sandbox; start it with partnerReport: true')),
    resetPartnerReport: () => reporter?.reset(),
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

/** Business time resumes where the database left it (and never before its last write). */
function restoreClock(db: Db, timeScale?: number): Clock {
  const saved = Number(getMeta(db, 'clock_ms') ?? Number.NaN);
  const lastWrite = db.prepare('SELECT MAX(created_at_ms) FROM outbox_events').pluck().get() as number | null;
  const start = Number.isFinite(saved) ? Math.max(saved, lastWrite ?? 0) : undefined;
  return new TestClock({ timeScale, startMs: start });
}
