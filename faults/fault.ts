import type { z } from 'zod';

// One fault interface for the whole house, in the manner of Toxiproxy's `Toxic` plus
// `Register`: every deliberate bug (the chaos receiver's, the sandbox engine's, its webhook
// sender's and limiter's, the mutants' HTTP proxy) is one small module that registers itself
// here by name, with a zod config whose every field has a default, and names the seam it
// installs through. Each host (the receiver, the sandbox, the mutants' proxy) takes from the
// registry only the faults of its own seams and calls their `install` with what its seam holds.
// This room imports nothing of the house, so every host may import it.

/** The named seams, one per host place a fault can sit. */
export type Seam = 'engine' | 'limiter' | 'webhook-sender' | 'receiver' | 'http-proxy';

/**
 * A fault: `install` receives its validated config and whatever its seam hands over (the
 * resolvers, the stated rate rule, the receiver's request …) and returns what the seam takes.
 */
export interface Fault<S extends z.ZodType = z.ZodType, A extends unknown[] = any[], R = unknown> {
  /** The registry key: `--fault <name>`, a plan rule's `fault`, a mutant's id. */
  readonly name: string;
  readonly seam: Seam;
  /** One sentence: the bug, as a reviewer would describe it. */
  readonly description: string;
  /** The promise of the interface the fault breaks (what should catch it), where one is named. */
  readonly breaks?: string;
  readonly config: S;
  install(config: z.infer<S>, ...seam: A): R;
}

/** A fault as a caller names it: the name and its (unvalidated) config. */
export interface FaultSetting {
  name: string;
  config?: Record<string, unknown>;
}

/** A setting checked against its fault: the module and the config it accepted. */
export interface Installed<F extends Fault = Fault> {
  fault: F;
  config: unknown;
}

const registry = new Map<string, Fault>();

/** Registers a fault by name (a module calls it at import); a name is taken once. */
export function registerFault<F extends Fault>(fault: F): F {
  if (registry.has(fault.name)) throw new Error(`fault "${fault.name}" is already registered`);
  registry.set(fault.name, fault as Fault);
  return fault;
}

/** The fault of that name, if it sits at one of the seams given (all seams when none are). */
export function getFault(name: string, seams?: readonly Seam[]): Fault | undefined {
  const f = registry.get(name);
  return f && (!seams || seams.includes(f.seam)) ? f : undefined;
}

/** The names registered at the given seams (all when none are), in registration order. */
export function faultNames(seams?: readonly Seam[]): string[] {
  return [...registry.values()].filter((f) => !seams || seams.includes(f.seam)).map((f) => f.name);
}

/** The registered faults at the given seams, in registration order. */
export function faultsAt<F extends Fault = Fault>(seams: readonly Seam[]): F[] {
  return [...registry.values()].filter((f) => seams.includes(f.seam)) as F[];
}

/** Why a config does not fit its fault, in one line. */
export function configProblem(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}

/**
 * Validates each setting against the faults of a host's seams (a known name, a config its
 * module accepts) before anything starts; the errors are one line each.
 */
export function validateFaults(settings: readonly FaultSetting[], seams: readonly Seam[]): Installed[] {
  return settings.map((s) => {
    const fault = getFault(s.name, seams);
    if (!fault) throw new Error(`unknown fault ${JSON.stringify(s.name)}; faults are ${faultNames(seams).join(', ')}`);
    const parsed = fault.config.safeParse(s.config ?? {});
    if (!parsed.success) throw new Error(`fault ${s.name}: bad config: ${configProblem(parsed.error.issues)}`);
    return { fault, config: parsed.data };
  });
}

/** The validated settings whose fault sits at `seam`, typed as that seam's faults. */
export function atSeam<F extends Fault>(installed: readonly Installed[], seam: Seam): Array<Installed<F>> {
  return installed.filter((i) => i.fault.seam === seam) as Array<Installed<F>>;
}
