import { SPEC_EXAMPLE_PERIOD } from './profile-markets.ts';
import type { Profile } from './profile.ts';

// The `period` an analytics read sends (part 4: "Allowed values of period: not shown"). Only
// what the profile lists, or where the profile does not know the periods (null: detection could
// not read them), the one value the spec itself writes, its example `30d`; never the sandbox's
// list in its place (issue 47). A refusal of it is the profile's gap, a skip naming
// markets.periods (conformance/checks/endpoints.ts).

export function periodToSend(p: Profile): string {
  const { periods, defaultPeriod } = p.markets;
  if (periods === null) return defaultPeriod ?? SPEC_EXAMPLE_PERIOD;
  if (defaultPeriod !== null && periods.includes(defaultPeriod)) return defaultPeriod;
  return periods[0] ?? defaultPeriod ?? SPEC_EXAMPLE_PERIOD;
}
