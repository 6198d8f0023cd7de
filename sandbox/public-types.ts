import type { Profile } from '../contract/profile.ts';
import type { PartnerReport } from './partner-report/types.ts';

// The sandbox's public types, as the package declares them (index.ts startSandbox,
// lendcheck/msw): self-contained, so the package's .d.ts never reaches the engine's internals
// (better-sqlite3's types are not a dependency of a user's project). The implementations
// (start.ts, msw/) are checked against these by the compiler.

/** One API key of the sandbox's key store. */
export interface SandboxKey {
  key: string;
  partnerId: string;
  /** starter, growth, scale or enterprise; the profile's default tier when absent. */
  tier?: string;
}

/** A deliberate sandbox bug by name (test only, never on by default). */
export interface SandboxFault {
  name: string;
  config?: Record<string, unknown>;
}

/** What a test reaches of a running sandbox beside HTTP. */
export interface SandboxHandle {
  /** The sandbox's fetch core (no socket): every route, error and limit. */
  fetch(req: Request): Promise<Response>;
  profile: Profile;
  clock: {
    /** Business time, epoch ms. */
    now(): number;
    /** Moves business time forward by ms; due work (matching, maturity, …) runs at once. */
    advance(ms: number): void;
  };
  /** Forgets what the partner report has seen so far (sandbox/partner-report/). */
  resetPartnerReport(): void;
}

/** The options of `lendcheck sandbox`, as startSandbox takes them. */
export interface StartSandboxOptions {
  /** Port to listen on; 0 (the default) takes any free port. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** SQLite file, or ':memory:' (the default here; the CLI defaults to a file). */
  db?: string;
  /** The key store; default the public test keys. */
  keys?: SandboxKey[];
  /** Business seconds per real second (default 1). */
  timeScale?: number;
  profile?: Profile;
  /** false turns the rate limiter off. */
  rateLimits?: boolean;
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
  /** Test only: deliberate bugs. */
  faults?: SandboxFault[];
}

export interface StartedSandbox {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  keys: SandboxKey[];
  sandbox: SandboxHandle;
  /** What the partner's code did wrong so far (sandbox/partner-report/); `partner` narrows it. */
  partnerReport(partner?: string): Promise<PartnerReport>;
  close(): Promise<void>;
}
