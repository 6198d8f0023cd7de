import { createSandbox, type Sandbox, type SandboxOptions } from './app.ts';
import { DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';
import type { Clock } from './engine/clock.ts';
import { consolePlugin } from './console/plugin.ts';
import type { FaultSetting } from './faults/index.ts';
import type { RateLimitOptions } from './limiter/plugin.ts';
import { metricsPlugin } from './metrics/plugin.ts';
import { defaultPlugins } from './plugins.ts';
import type { PartnerReportOptions } from './partner-report/plugin.ts';
import { startSandboxServer } from './server.ts';
import { delayPlugin, parseDelays } from './test-delay/plugin.ts';
import { shapeMutatorPlugin } from './mutate/plugin.ts';
import type { WebhooksPluginOptions } from './webhooks/plugin.ts';
import type { StartSandboxOptions as PublicOptions, StartedSandbox as PublicStarted } from './public-types.ts';

// One mapping from the sandbox's user-level options (what `lendcheck sandbox`'s flags name)
// to a SandboxOptions with its plugins: the CLI, startSandbox (a vitest globalSetup) and the
// msw door (sandbox/msw/) all go through `sandboxOptions`, so the three are the same sandbox.

/** The public options (public-types.ts), and what the in-repo callers may add. */
export interface StartSandboxOptions extends Omit<PublicOptions, 'rateLimits' | 'faults'> {
  /** false turns the rate limiter off; an object tunes it (which keys and tiers, its time source). */
  rateLimits?: boolean | RateLimitOptions;
  /** Test only: deliberate bugs (sandbox/faults/). */
  faults?: FaultSetting[];
  /** The webhook dispatcher's options (its sender, retry delays); false sends nothing. */
  webhooks?: boolean | WebhooksPluginOptions;
  /** A clock of the caller's (the msw door's frozen test clock). */
  clock?: Clock;
  /** Real ms between background lifecycle runs; 0 leaves due work to clock advances. */
  tickMs?: number;
  startingFunds?: Record<string, string>;
  validateResponses?: boolean;
  /** The partner report (sandbox/partner-report/): on by default for partners' tests; the CLI
   *  turns it on with --partner-report. An object tunes it (checks to skip, the probe's sender). */
  partnerReport?: boolean | PartnerReportOptions;
  /** The shape mutator's seed (`--choices mutate --seed N`, sandbox/mutate/plugin.ts): success bodies
   *  shaped as that seed's implementation would; give it with the same seed's profile (choices/mutate-profile.ts). */
  mutateShapes?: number;
}

/** The SandboxOptions (plugins included) the user-level options mean. */
export function sandboxOptions(o: StartSandboxOptions): SandboxOptions {
  return {
    dbPath: o.db ?? ':memory:',
    ...(o.keys ? { keys: o.keys } : {}),
    ...(o.timeScale !== undefined ? { timeScale: o.timeScale } : {}),
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.tickMs !== undefined ? { tickMs: o.tickMs } : {}),
    ...(o.startingFunds ? { startingFunds: o.startingFunds } : {}),
    ...(o.validateResponses !== undefined ? { validateResponses: o.validateResponses } : {}),
    // The metrics plugin goes first so that its timing wraps the others (429s counted too).
    plugins: [
      ...(o.metrics ? [metricsPlugin()] : []),
      ...defaultPlugins({ rateLimits: o.rateLimits ?? true, webhooks: o.webhooks ?? true }),
      ...(o.console ? [consolePlugin()] : []),
      ...(o.testDelay ? [delayPlugin(parseDelays(o.testDelay))] : []),
      // Last, so innermost: it reshapes only what the route answered.
      ...(o.mutateShapes !== undefined ? [shapeMutatorPlugin(o.mutateShapes)] : []),
    ],
    ...(o.liquidity === false ? { liquidity: { enabled: false, delaySeconds: 0 } } : {}),
    controls: o.controls !== false,
    ...(o.faults?.length ? { faults: o.faults } : {}),
    ...(o.partnerReport !== false ? { partnerReport: o.partnerReport ?? true } : {}),
  };
}

/** The public StartedSandbox with the whole engine underneath (in-repo callers). */
export interface StartedSandbox extends PublicStarted {
  keys: KeyEntry[];
  sandbox: Sandbox;
}

/** The sandbox on a port, in this process: the CLI's `lendcheck sandbox` without the CLI. */
export async function startSandbox(o: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const s = await startSandboxServer({ port: o.port ?? 0, host: o.host ?? '127.0.0.1', ...sandboxOptions(o) });
  return { url: s.url, port: s.port, keys: o.keys ?? DEFAULT_KEYS, sandbox: s.sandbox, partnerReport: (p) => s.sandbox.partnerReport(p), close: () => s.close() };
}

/** A sandbox with no listener (the msw door, in-process tests): the same options, no port. */
export const createConfiguredSandbox = (o: StartSandboxOptions = {}): Sandbox => createSandbox(sandboxOptions(o));

// The package declares startSandbox with the self-contained public types (index.ts): these fit them.
startSandbox satisfies (o?: PublicOptions) => Promise<PublicStarted>;
