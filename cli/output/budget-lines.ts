// Where a run's request budget went, on the console (issue 48): the requests it sent, the
// checks that sent the most, the time spent waiting for rate-limit room, and for a plan that
// runs a part of the suite, what it left out. A Starter partner pays a second per request, so
// the line says which checks cost it.

interface CostedCheck {
  id: string;
  requests?: number;
}

const TOP = 5;

/** The checks left out, as their families (the id up to its first dot) with counts. */
function families(ids: readonly string[]): string {
  const by = new Map<string, number>();
  for (const id of ids) by.set(id.split('.')[0]!, (by.get(id.split('.')[0]!) ?? 0) + 1);
  return [...by.entries()].map(([f, n]) => `${f} (${n})`).join(', ');
}

export function budgetLines(part: { checks?: CostedCheck[]; figures: Record<string, string | number> }, plan: { name: string; requestCap?: number }, leftOut: readonly string[] = []): string[] {
  const f = part.figures;
  const costly = (part.checks ?? []).filter((c) => (c.requests ?? 0) > 0).sort((a, b) => (b.requests ?? 0) - (a.requests ?? 0));
  const lines: string[] = [];
  if (costly.length) {
    const top = costly.slice(0, TOP).map((c) => `${c.id} ${c.requests}`).join(', ');
    lines.push(`requests: ${f.requests} sent by ${costly.length} checks (most: ${top}); ${Number(f.rateLimitWaitS ?? 0)} s waiting for rate-limit room`);
  }
  if (leftOut.length) {
    lines.push(`plan ${plan.name}: ${(part.checks ?? []).length} checks${plan.requestCap ? ` within ${plan.requestCap} requests` : ''}; left out ${leftOut.length}: ${families(leftOut)}. Run without --plan for every check`);
  }
  return lines;
}
