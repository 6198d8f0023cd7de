import type { Profile } from '../contract/index.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.ts';
import { DEFAULT_KEYS, type KeyEntry } from './auth/keys.ts';
import type { Clock } from './engine/clock.ts';
import { consolePlugin } from './console/plugin.ts';
import type { FaultSetting } from './faults/index.ts';
import type { RateLimitOptions } from './limiter/plugin.ts';
import { metricsPlugin } from './metrics/plugin.ts';
import { defaultPlugins } from './plugins.ts';
import type { PartnerReportOptions } from './partner-report/plugin.ts';
import type { PartnerReport } from './partner-report/types.ts';
import { startSandboxServer } from './server.ts';
import { delayPlugin, parseDelays } from './test-delay/plugin.ts';
import type { WebhooksPluginOptions } from './webhooks/plugin.ts';

// One mapping from the sandbox's user-level options (what `lendcheck sandbox`'s flags name)
// to a SandboxOptions with its plugins: the CLI, startSandbox (a vitest globalSetup) and the
// msw door (sandbox/msw/) all go through `sandboxOptions`, so the three are the same sandbox.

export interface StartSandboxOptions {
  /** Port to listen on; 0 (the default) takes any free port. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** SQLite file, or ':memory:' (the default here; the CLI defaults to a file). */
  db?: string;
  /** The key store; default the public test keys (DEFAULT_KEYS). */
  keys?: KeyEntry[];
  /** Business seconds per real second (default 1). */
  timeScale?: number;
  profile?: Profile;
  /** false turns the rate limiter off; an object tunes it (which keys and tiers, its time source). */
  rateLimits?: boolean | RateLimitOptions;
  /** false turns the built-in liquidity provider off (orders wait for a crossing order). */
  liquidity?: boolean;
  /** false serves no /v1/sandbox/* controls, as a real partner sandbox. */
  controls?: boolean;
  /** Serve /metrics in Prometheus text format. */
  metrics?: boolean;
  /** Serve the web console at / and /console (the CLI's default; off here). */
  console?: boolean;
  /** Test only: answer these endpoints later, `endpoint=ms,…` as the CLI's --test-delay. */
  testDelay?: string;
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
    ],
    ...(o.liquidity === false ? { liquidity: { enabled: false, delaySeconds: 0 } } : {}),
    controls: o.controls !== false,
    ...(o.faults?.length ? { faults: o.faults } : {}),
    ...(o.partnerReport !== false ? { partnerReport: o.partnerReport ?? true } : {}),
  };
}

export interface StartedSandbox {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  keys: KeyEntry[];
  sandbox: Sandbox;
  /** What the partner's code did wrong so far (sandbox/partner-report/); `partner` narrows it. */
  partnerReport(partner?: string): Promise<PartnerReport>;
  close(): Promise<void>;
}

/** The sandbox on a port, in this process: the CLI's `lendcheck sandbox` without the CLI. */
export async function startSandbox(o: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const s = await startSandboxServer({ port: o.port ?? 0, host: o.host ?? '127.0.0.1', ...sandboxOptions(o) });
  return { url: s.url, port: s.port, keys: o.keys ?? DEFAULT_KEYS, sandbox: s.sandbox, partnerReport: (p) => s.sandbox.partnerReport(p), close: () => s.close() };
}

/** A sandbox with no listener (the msw door, in-process tests): the same options, no port. */
export const createConfiguredSandbox = (o: StartSandboxOptions = {}): Sandbox => createSandbox(sandboxOptions(o));
