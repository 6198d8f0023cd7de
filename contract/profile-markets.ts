import { z } from 'zod';
import { doc } from './profile-doc.ts';

// The markets the spec names only by example: their maturities, the form of a market id and the
// analytics periods (part 2, part 4).
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
    periods: doc(z.array(z.string()).default(['1d', '7d', '30d', '90d', '1y']), {
      spec: 'Part 4: "Allowed values of period: not shown" (example form 30d).',
      reason: 'The example form, from a day to a year.',
    }),
    defaultPeriod: doc(z.string().default('30d'), {
      spec: 'Part 4: period is optional; the default: not shown.',
      reason: 'The spec\'s own example.',
    }),
  })
  .prefault({});
