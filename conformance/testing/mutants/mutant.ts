import { z } from 'zod';
import type { Direction, HttpFault, Toxic } from '../../../faults/index.ts';

// A mutant is a fault of the one fault interface (faults/) at the 'http-proxy' seam: a toxic,
// `(request, next) => response` around the sandbox's fetch handler (faults/http.ts), that breaks
// exactly one rule on the requests it matches. Its id is its name in the mutants' typed registry
// (index.ts); it takes no settings (an empty, strict config), and `install` builds it fresh per
// run, since some mutants keep state across requests.

const config = z.object({}).strict();

/** A mutant as the catalogue writes it. */
export interface MutantDef<I extends string = string> {
  /** Stable id, e.g. `status.not-found-400`: the fault's registered name. */
  id: I;
  /** The one rule it breaks, as a sentence. */
  breaks: string;
  /** The requirement id (contract/requirements.ts) or profile option it violates. */
  rule: string;
  /** Checks expected to catch it; run first so a kill is found early (all others run too if they do not). */
  killers: string[];
  /** True when the rule is a profile choice: such a mutant must be caught under --strict only. */
  strictOnly?: boolean;
  /** What its killer waits out before it can fail (a bounded wait for something the mutant never
   *  does): killAll starts such mutants first, so their waits overlap the others' work. */
  waits?: string;
  /**
   * Which way of the exchange it changes (Toxiproxy's stream): 'upstream' for a mutant that
   * changes the request before the sandbox sees it (kit's `alterRequest`), 'downstream' (the
   * default) for one that changes or replaces the answer.
   */
  direction?: Direction;
  /** The toxic, built fresh per run. */
  install(): Toxic;
}

/** A registered mutant: its definition as a fault at the 'http-proxy' seam. */
export type Mutant<I extends string = string> = Omit<MutantDef<I>, 'install' | 'direction'> & HttpFault<typeof config, void, I> & { readonly seam: 'http-proxy' };

/** The catalogue's mutants as faults, their ids kept as literal types for the registry (index.ts). */
export const registerMutants = <I extends string>(defs: Array<MutantDef<I>>): Array<Mutant<I>> =>
  defs.map(({ install, direction, ...d }) => ({ ...d, name: d.id, seam: 'http-proxy', direction: direction ?? 'downstream', description: d.breaks, config, install: () => install() }));
