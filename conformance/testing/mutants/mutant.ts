import { z } from 'zod';
import { registerFault, type Fault } from '../../../faults/index.ts';
import type { FetchWrapper } from '../../embedded.ts';

// A mutant is a fault of the one fault interface (faults/) at the 'http-proxy' seam: a
// Request → Response wrapper around the sandbox's fetch handler that breaks exactly one rule,
// on the requests it matches. It registers by its id; it takes no settings (an empty, strict
// config), and `install` builds it fresh per run, since some mutants keep state across requests.

const config = z.object({}).strict();

/** A mutant as the catalogue writes it. */
export interface MutantDef {
  /** Stable id, e.g. `status.not-found-400`: the fault's registered name. */
  id: string;
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
  /** The wrapper, built fresh per run. */
  install(): FetchWrapper;
}

/** A registered mutant: its definition as a fault at the 'http-proxy' seam. */
export type Mutant = MutantDef & Fault<typeof config, [], FetchWrapper> & { readonly seam: 'http-proxy' };

/** Registers each mutant of a catalogue by its id. */
export const registerMutants = (defs: MutantDef[]): Mutant[] =>
  defs.map((d) => registerFault<Mutant>({ ...d, name: d.id, seam: 'http-proxy', description: d.breaks, config }));
