import type { z } from 'zod';
import type { Fault } from '../../faults/index.ts';
import type { Profile } from '../../contract/index.ts';
import type { Engine } from '../engine/engine.ts';
import type { Input, Resolver } from '../endpoints/resolvers.ts';

// The engine's seam of the one fault interface (faults/): a deliberate bug the sandbox can be
// told to have, so the suites can be shown to catch it. Engine faults only wrap endpoint
// resolvers: the clean path keeps its own code and its synchronous speed, and a resolver a
// fault wraps may return a promise (the async gap a race needs; the engine over
// better-sqlite3 is otherwise race-free).
//
// Why not the HTTP seams' `(request, next) => response` shape (faults/http.ts): an engine bug
// lives between the parsed request and the ledger, where no HTTP message exists. A race needs
// its `await` between the check and the act inside one operation (a toxic around the whole
// exchange can only delay before or after it, never split it), and an authorization bug acts
// as another partner on the resolved caller, which the request no longer shows. So an engine
// fault replaces resolvers (and body parsers), keyed by endpoint id, and registers in the
// sandbox's one registry (index.ts) like every other fault.

/** A resolver that may wait: the only kind a fault installs. */
export type FaultResolver = (engine: Engine, input: Input) => unknown;

/** The resolvers as they stand when a fault installs (the core's, or another fault's wrappers). */
export type Resolvers = Readonly<Record<string, Resolver | FaultResolver>>;

/**
 * An engine fault: `install` receives the resolvers as they stand and returns the ones it
 * replaces, keyed by endpoint id.
 */
export interface EngineFault<S extends z.ZodType = z.ZodType, N extends string = string> extends Fault<S, [Resolvers], Record<string, FaultResolver>, N> {
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

/** Defines an engine fault (listed in index.ts): a module gives the rest; its name's literal and its config's type are kept. */
export const engineFault = <const N extends string, S extends z.ZodType>(fault: Omit<EngineFault<S, N>, 'seam'>): EngineFault<S, N> => ({ ...fault, seam: 'engine' });

/** The real wait of a race: the other requests of a storm run during it. */
export const gap = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
