import { z } from 'zod';
import { doc } from './profile-doc.ts';

// The markets the spec names only by example: their maturities, the form of a market id and the
// analytics periods (part 2, part 4).

/** Part 4: `period` "(example form `30d`)": the one period the spec itself states. */
export const SPEC_EXAMPLE_PERIOD = '30d';

/** The sandbox's periods: what a profile that says nothing of them takes. */
export const DEFAULT_PERIODS: readonly string[] = ['1d', '7d', '30d', '90d', '1y'];

export const marketsOptions = z
  .object({
    maturities: doc(z.array(z.string().regex(/^[1-9]\d*d$/)).default(['30d', '90d', '180d']), {
      spec: 'Part 2: rate maturities are durations "such as 30d, 90d"; the full list: not shown.',
      reason: 'The spec\'s two examples plus half a year.',
    }),
    idSeparator: doc(z.string().min(1).default('-'), {
      spec: 'Part 2: market id "composed of asset and maturity"; the form: not shown.',
      reason: 'USDC-30d reads well in a path.',
    }),
    periods: doc(z.array(z.string()).nullable().default([...DEFAULT_PERIODS]), {
      spec: 'Part 4: "Allowed values of period: not shown" (example form 30d).',
      reason: 'The example form, from a day to a year. null: unknown (a detected profile that could not read them); the analytics reads then send the spec\'s example 30d, and a refusal of it is a skip naming this option.',
    }),
    defaultPeriod: doc(z.string().nullable().default(SPEC_EXAMPLE_PERIOD), {
      spec: 'Part 4: period is optional; the default: not shown.',
      reason: 'The spec\'s own example. null: unknown; the exported document then states no default.',
    }),
  })
  .prefault({});
