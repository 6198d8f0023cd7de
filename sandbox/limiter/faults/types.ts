import type { z } from 'zod';
import { registerFault, type Fault, type Installed } from '../../../faults/index.ts';
import type { LimitRule } from '../gcra.ts';

// The limiter's seam of the one fault interface (faults/): a deliberate bug of the rate limiter
// (sandbox/limiter/plugin.ts), never on unless a test or an explicit `lendcheck sandbox --fault
// NAME` asks for it. A limiter fault wraps no resolver: its `install` turns the rule the
// headers state into the rule actually enforced.

export interface LimitFault<S extends z.ZodType = z.ZodType> extends Fault<S, [stated: LimitRule], LimitRule> {
  readonly seam: 'limiter';
  readonly breaks: string;
}

/** A validated setting: the fault and the config it accepted. */
export type LimitFaultSetting = Installed<LimitFault>;

/** Registers a limiter fault: a module gives the rest, and its config's type is read from the schema. */
export const limitFault = <S extends z.ZodType>(fault: Omit<LimitFault<S>, 'seam'>): LimitFault<S> => registerFault({ ...fault, seam: 'limiter' });
