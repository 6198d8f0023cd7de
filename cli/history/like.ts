import type { Extracted } from '../../reports/history/extract.ts';
import type { History, RunRow } from '../../reports/history/store.ts';

// `compare` compares like with like: the same step, scenario and tier. A figure's scope names
// them (e.g. "rate-limit (growth) smoke", "conformance"), so a load smoke is compared only with
// earlier runs that measured the same scope, and only on the scopes both have; a whole gate run
// as the baseline of one load smoke would otherwise be ~190 rows of "gone".

export const scopesOf = (x: Extracted): Set<string> => new Set(x.figures.map((f) => f.scope));

/** The newest passing run against the same target before `current` that shares a scope with it. */
export function likeBaseline(h: History, current: RunRow, currentScopes: Set<string>): { row: RunRow; data: Extracted } | { none: string } {
  const candidates = h.runs({ target: current.target, before: current.seq, verdict: 'passed', limit: 200 });
  if (!candidates.length) return { none: `no passing run against ${current.target} before ${current.runId}` };
  for (const row of candidates) {
    const data = h.load(row);
    if ([...scopesOf(data)].some((s) => currentScopes.has(s))) return { row, data };
  }
  const newest = candidates[0]!;
  return { none: `nothing to compare like with like: no passing run against ${current.target} before ${current.runId} measured the same step, scenario and tier (this run: ${[...currentScopes].join(', ') || 'no figures'}; the last passing run, ${newest.runId}, a ${newest.kind} run: ${[...scopesOf(h.load(newest))].slice(0, 6).join(', ') || 'no figures'})` };
}

/** Only the scopes both runs measured; says which were left out. */
export function sharedOnly(current: Extracted, baseline: Extracted): { current: Extracted; baseline: Extracted; leftOut: string[] } {
  const cur = scopesOf(current);
  const base = scopesOf(baseline);
  const both = (s: string) => cur.has(s) && base.has(s);
  const keep = (x: Extracted): Extracted => ({ figures: x.figures.filter((f) => both(f.scope)), samples: x.samples.filter((s) => both(s.scope)), checks: x.checks });
  const leftOut = [...new Set([...cur, ...base])].filter((s) => !both(s)).map((s) => `${s} (only in the ${cur.has(s) ? 'current run' : 'baseline'})`);
  return { current: keep(current), baseline: keep(baseline), leftOut };
}
