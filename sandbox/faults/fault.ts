import type { z } from 'zod';
import type { Engine } from '../engine/engine.ts';
import type { Input, Resolver } from '../endpoints/resolvers.ts';

// A fault is a deliberate bug the sandbox can be told to have, so the suites can be shown to
// catch it (Toxiproxy-style: one small module per fault, registered by name, with a typed
// config validated by zod). Faults only wrap endpoint resolvers: the clean path keeps its own
// code and its synchronous speed, and a resolver a fault wraps may return a promise (the
// async gap a race needs; the engine over better-sqlite3 is otherwise race-free).

/** A resolver that may wait: the only kind a fault installs. */
export type FaultResolver = (engine: Engine, input: Input) => unknown;

export interface FaultModule<S extends z.ZodTypeAny = z.ZodTypeAny> {
  /** The registry key: `--fault <name>`, `SandboxOptions.faults[].name`. */
  readonly name: string;
  /** One sentence: the bug, as a reviewer would describe it. */
  readonly description: string;
  /** The property of the interface the fault breaks (what should catch it). */
  readonly breaks: string;
  /** The fault's config; every field has a default, so `{}` is valid. */
  readonly config: S;
  /**
   * Wraps resolvers: receives the resolvers as they stand (the core's, or another fault's
   * wrappers) and returns the ones it replaces, keyed by endpoint id.
   */
  install(config: z.infer<S>, resolvers: Readonly<Record<string, Resolver | FaultResolver>>): Record<string, FaultResolver>;
}

/** A fault as a caller names it: the name and its (unvalidated) config. */
export interface FaultSetting {
  name: string;
  config?: Record<string, unknown>;
}

/** The real wait of a race: the other requests of a storm run during it. */
export const gap = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
