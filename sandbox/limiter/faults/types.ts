import type { z } from 'zod';
import type { Fault, Installed } from '../../../faults/index.ts';
import type { LimitRule } from '../gcra.ts';

// The limiter's seam of the one fault interface (faults/): a deliberate bug of the rate limiter
// (sandbox/limiter/plugin.ts), never on unless a test or an explicit `lendcheck sandbox --fault
// NAME` asks for it. A limiter fault wraps no resolver: its `install` turns the rule the
// headers state into the rule actually enforced. Not an HTTP toxic: the bug is in the bucket's
// arithmetic, which lets a request through or not; no step around one exchange can refill a
// bucket slower while the headers keep stating the tier's rate.

export interface LimitFault<S extends z.ZodType = z.ZodType, N extends string = string> extends Fault<S, [stated: LimitRule], LimitRule, N> {
  readonly seam: 'limiter';
  readonly breaks: string;
}

/** A validated setting: the fault and the config it accepted. */
export type LimitFaultSetting = Installed<LimitFault>;

/** Defines a limiter fault (listed in sandbox/faults/index.ts): its name's literal and its config's type are kept. */
export const limitFault = <const N extends string, S extends z.ZodType>(fault: Omit<LimitFault<S, N>, 'seam'>): LimitFault<S, N> => ({ ...fault, seam: 'limiter' });
