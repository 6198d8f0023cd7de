import type { z } from 'zod';

// One fault interface for the whole house, in the manner of Toxiproxy's `Toxic`: every
// deliberate bug (the chaos receiver's, the sandbox engine's, its webhook sender's and
// limiter's, the mutants' HTTP proxy) is one small module that defines a `Fault` with a name,
// a zod config whose every field has a default, and the seam it installs through. Defining a
// fault registers nothing: each host lists its faults in one typed registry (registry.ts), so
// the set of names is a type and a misspelt name fails at compile time, not at import.
// The HTTP seams share one shape (http.ts). This room imports nothing of the house, so every
// host may import it.

/**
 * The named seams, one per host place a fault can sit. The three HTTP seams ('receiver',
 * 'http-proxy', 'webhook-sender') take a `Toxic` (http.ts); the engine's, the limiter's and the
 * webhook sender's logic ('webhook-logic') sit inside the sandbox where no HTTP exchange exists
 * to wrap (README.md of this room says why, seam by seam).
 */
export type Seam = 'engine' | 'limiter' | 'webhook-logic' | HttpSeam;

/** The seams that carry one HTTP exchange and install a `(request, next) => response` toxic. */
export type HttpSeam = 'receiver' | 'http-proxy' | 'webhook-sender';

/**
 * A fault: `install` receives its validated config and whatever its seam hands over (the
 * resolvers, the stated rate rule, the receiver's request …) and returns what the seam takes.
 */
export interface Fault<S extends z.ZodType = z.ZodType, A extends unknown[] = any[], R = unknown, N extends string = string> {
  /** The registry key: `--fault <name>`, a plan rule's `fault`, a mutant's id. */
  readonly name: N;
  readonly seam: Seam;
  /** One sentence: the bug, as a reviewer would describe it. */
  readonly description: string;
  /** The promise of the interface the fault breaks (what should catch it), where one is named. */
  readonly breaks?: string;
  readonly config: S;
  install(config: z.infer<S>, ...seam: A): R;
}

/** A fault as a caller names it: the name, its (unvalidated) config, and for an HTTP fault its toxicity. */
export interface FaultSetting<N extends string = string> {
  name: N;
  config?: Record<string, unknown>;
  /** HTTP seams: the share of requests the fault touches, 0..1 (default 1), drawn from `seed` so a run replays. */
  toxicity?: number;
  /** The seed of the toxicity draw (default 1). */
  seed?: number;
}

/** A setting checked against its fault: the module, the config it accepted, its toxicity and seed. */
export interface Installed<F extends Fault = Fault> {
  fault: F;
  config: unknown;
  toxicity: number;
  seed: number;
}

/** Defines a fault, keeping its name as a literal type (the registry's keys); registers nothing. */
export const defineFault = <const F extends Fault>(fault: F): F => fault;

/** Why a config does not fit its fault, in one line. */
export function configProblem(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** The validated settings whose fault sits at `seam`, typed as that seam's faults. */
export function atSeam<F extends Fault>(installed: readonly Installed[], seam: Seam): Array<Installed<F>> {
  return installed.filter((i) => i.fault.seam === seam) as Array<Installed<F>>;
}
