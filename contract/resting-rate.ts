// The rate lendcheck's lends ask when they must stay pending (issue 47). The spec says only that
// rates are fractions; their upper bound is not shown (profile bounds.rateBelow). A fixed rate
// such as 0.5 is refused by a correct target whose bound is 0.5, so the rate comes from the
// profile's bound when it is known and, either way, sits above every lend rate the market publishes
// (GET /markets lendRate: what a lender is offered now, so what the best resting borrow pays), so a
// resting lend crosses no borrow the market shows. borrowRate is left out: it is what a borrower
// pays, the lend side's price, which lendcheck's own resting lends set.

/** Round rates a lend may ask, highest first: few decimals, so any rate precision takes them. */
export const RESTING_LADDER = [0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.12, 0.1, 0.09, 0.08, 0.07, 0.06, 0.05, 0.04, 0.03, 0.025, 0.02, 0.015, 0.01, 0.005, 0.001];

/** With no bound known and no market read: a small fraction above the usual market rates. */
export const UNBOUNDED_REST = 0.2;

export interface RestingRate {
  /** The rate to ask, or undefined when none is both below the bound and above the market. */
  rate?: number;
  /** Why this rate (or why none): for notes and skips. */
  why: string;
}

/**
 * `bound`: the profile's bounds.rateBelow (null: none stated, or unknown). `published`: the
 * rates the market shows (may be empty). Known bound: the highest ladder rate strictly below
 * it (0.5 under the default bound 1). No bound: the lowest ladder rate at least twice the
 * highest published one and 0.05 above it (a target is likelier to take a rate near its
 * market's), else UNBOUNDED_REST. Either way strictly above every published rate.
 */
export function restingRate(bound: number | null, published: readonly number[] = []): RestingRate {
  const shown = published.filter((r) => typeof r === 'number' && Number.isFinite(r));
  const top = shown.length ? Math.max(...shown) : undefined;
  const market = top === undefined ? 'no market lend rates read' : `the market's lend rates up to ${top}`;
  if (bound !== null) {
    const rate = RESTING_LADDER.find((r) => r < bound);
    if (rate === undefined) return { why: `no rate of lendcheck's ladder lies below the profile's bound ${bound} (bounds.rateBelow)` };
    if (top !== undefined && rate <= top) return { why: `the highest rate below the profile's bound ${bound} (bounds.rateBelow), ${rate}, does not lie above ${market}, so a lend there may cross a resting borrow` };
    return { rate, why: `below the profile's rate bound ${bound} (bounds.rateBelow), above ${market}` };
  }
  if (top === undefined) return { rate: UNBOUNDED_REST, why: `no rate bound known (bounds.rateBelow) and ${market}: a small fraction` };
  const want = Math.max(2 * top, top + 0.05);
  const rate = [...RESTING_LADDER].reverse().find((r) => r >= want) ?? (top < 0.5 ? 0.5 : undefined);
  if (rate === undefined) return { why: `no rate bound known (bounds.rateBelow) and ${market}: no rate of lendcheck's ladder lies safely above them` };
  return { rate, why: `no rate bound known (bounds.rateBelow): above ${market}` };
}

/** Every finite lendRate of a GET /markets answer (bare or under `data`). */
export function publishedRates(body: unknown): number[] {
  const b = body as { markets?: unknown; data?: { markets?: unknown } | unknown[] } | undefined;
  const list = Array.isArray(b?.markets) ? b.markets : Array.isArray(b?.data) ? b.data : Array.isArray((b?.data as { markets?: unknown })?.markets) ? (b!.data as { markets: unknown[] }).markets : [];
  return (list as Array<Record<string, unknown>>).map((m) => m?.lendRate).filter((r): r is number => typeof r === 'number' && Number.isFinite(r));
}
