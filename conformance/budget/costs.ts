import { MEASURED } from './costs-table.ts';

// What each check costs in requests, measured: `requests` per check in a conformance.json of a
// whole default run against a target without controls and with rate limits on (the case the
// budget is for), written into costs-table.ts by `node --import tsx bench/conformance-costs.ts <conformance.json>`.
// A check the table does not know counts as the table's median. costs.test.ts fails when a
// registered check is missing, so the table cannot silently fall behind the registry.

export const COSTS: Readonly<Record<string, number>> = MEASURED;

const median = (() => {
  const xs = Object.values(COSTS).sort((a, b) => a - b);
  return xs.length ? xs[Math.floor(xs.length / 2)]! : 10;
})();

/** Requests a run of these checks is expected to make. */
export function expectedRequests(ids: readonly string[]): number {
  return ids.reduce((n, id) => n + (COSTS[id] ?? median), 0);
}
