import type { z } from 'zod';
import { registerFault, type Fault } from '../../faults/index.ts';
import type { Profile } from '../../contract/index.ts';
import type { Engine } from '../engine/engine.ts';
import type { Input, Resolver } from '../endpoints/resolvers.ts';

// The engine's seam of the one fault interface (faults/): a deliberate bug the sandbox can be
// told to have, so the suites can be shown to catch it. Engine faults only wrap endpoint
// resolvers: the clean path keeps its own code and its synchronous speed, and a resolver a
// fault wraps may return a promise (the async gap a race needs; the engine over
// better-sqlite3 is otherwise race-free).

/** A resolver that may wait: the only kind a fault installs. */
export type FaultResolver = (engine: Engine, input: Input) => unknown;

/** The resolvers as they stand when a fault installs (the core's, or another fault's wrappers). */
export type Resolvers = Readonly<Record<string, Resolver | FaultResolver>>;

/**
 * An engine fault: `install` receives the resolvers as they stand and returns the ones it
 * replaces, keyed by endpoint id.
 */
export interface EngineFault<S extends z.ZodType = z.ZodType> extends Fault<S, [Resolvers], Record<string, FaultResolver>> {
  readonly seam: 'engine';
  readonly breaks: string;
  /**
   * Whether the fault is a bug at all under a profile's choices (absent: under every profile).
   * A fault that behaves like a correct implementation under some choices cannot be caught
   * there, and a proof that runs it under seeded choices (bench/neutrality/faults.ts) picks a
   * profile where it is one.
   */
  readonly bugUnder?: (profile: Profile) => boolean;
  /**
   * Request parsing the fault changes, by endpoint id (absent: none). A body is parsed before
   * any resolver runs, so a fault that lets a refused value through (a lend asset from the
   * collateral list) wraps the parse: `parse` is the sandbox's own.
   */
  readonly parsers?: (config: z.infer<S>, profile: Profile) => Record<string, BodyParser>;
}

/** A fault's wrapper of one endpoint's body parse (sandbox/endpoints/route.ts). */
export type BodyParser = (json: unknown, parse: (json: unknown) => unknown) => unknown;

/** Registers an engine fault: a module gives the rest, and its config's type is read from the schema. */
export const engineFault = <S extends z.ZodType>(fault: Omit<EngineFault<S>, 'seam'>): EngineFault<S> => registerFault({ ...fault, seam: 'engine' });

/** The real wait of a race: the other requests of a storm run during it. */
export const gap = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
