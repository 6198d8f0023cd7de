import type { Endpoint } from '../contract/endpoints.ts';
import { REQUIREMENTS, type Requirement } from '../contract/requirements.ts';
import { EVERY, EVERY_KEY, EVERY_PUBLIC, type EndpointRef } from '../contract/requirement-binds.ts';
import type { Exchange } from '../kernel/results.ts';
import { scopeOf, type CheckScope } from './check-scope.ts';

// "A check fails a target only through a requirement that binds what it judges" (issue 47), as
// a function a test runs over the whole registry: each requirement a check cites and may fail
// on must bind an endpoint (or delivery, or the ledger) the check judges, and each thing the
// check judges must be bound by a requirement it cites. What it returns is every breach, in
// words; an empty list is the rule kept.

/** What a check must show for the rule: its id, the requirements it cites, what it judges. */
export interface CitingCheck {
  id: string;
  requirements: readonly string[];
  scope?: CheckScope;
}

/** The endpoint ids a reference stands for, among `all` (lendcheck's sandbox controls are no target's). */
export function expand(ref: EndpointRef, all: readonly Endpoint[]): string[] {
  const served = all.filter((e) => e.access !== 'sandbox');
  if (ref === EVERY) return served.map((e) => e.id);
  if (ref === EVERY_KEY) return served.filter((e) => e.access === 'key').map((e) => e.id);
  if (ref === EVERY_PUBLIC) return served.filter((e) => e.access === 'public').map((e) => e.id);
  return served.some((e) => e.id === ref) ? [ref] : [];
}

/** Everything a requirement binds, as endpoint ids and beyond-tokens. */
export function boundBy(q: Requirement, all: readonly Endpoint[]): Set<string> {
  const b = q.binds;
  if (!b) return new Set();
  return new Set([...[...(b.response ?? []), ...(b.request ?? [])].flatMap((r) => expand(r, all)), ...(b.beyond ?? [])]);
}

/** Everything a check judges, as endpoint ids and beyond-tokens. */
function judgedBy(s: CheckScope, all: readonly Endpoint[]): Set<string> {
  return new Set([...s.endpoints.flatMap((r) => expand(r, all)), ...(s.beyond ?? [])]);
}

const list = (xs: Iterable<string>) => [...xs].join(', ') || 'nothing';

/** Every breach of the rule by `checks`, against the endpoint table `all`; [] when each check keeps it. */
export function bindingViolations(checks: readonly CitingCheck[], all: readonly Endpoint[], requirements: readonly Requirement[] = REQUIREMENTS): string[] {
  const byId = new Map(requirements.map((q) => [q.id, q]));
  const out: string[] = [];
  for (const q of requirements) {
    if (!q.binds) out.push(`requirement ${q.id} says nothing of what it binds (contract/requirement-binds.ts)`);
    else for (const r of [...(q.binds.response ?? []), ...(q.binds.request ?? [])]) if (!expand(r, all).length) out.push(`requirement ${q.id} binds ${r}, which is no endpoint of contract/endpoints.ts`);
  }
  for (const c of checks) {
    const scope = scopeOf(c);
    if (!scope) {
      out.push(`${c.id}: says not what it judges (give it a scope, or a row in conformance/check-scope.ts)`);
      continue;
    }
    const judged = judgedBy(scope, all);
    const failing = c.requirements.map((id) => byId.get(id)).filter((q): q is Requirement => !!q?.binds && q.binds.enforce === 'fail');
    for (const id of c.requirements) if (!byId.has(id)) out.push(`${c.id}: cites ${id}, which is no requirement`);
    if (!failing.length) out.push(`${c.id}: cites no requirement that may fail a target (${list(c.requirements)}), so it may only advise`);
    for (const q of failing) {
      const bound = boundBy(q, all);
      if (![...bound].some((x) => judged.has(x))) out.push(`${c.id}: cites ${q.id}, which binds ${list(bound)}, none of what the check judges (${list(judged)})`);
    }
    for (const x of judged) {
      if (!failing.some((q) => boundBy(q, all).has(x))) out.push(`${c.id}: judges ${x}, but none of the requirements it cites (${list(c.requirements)}) binds ${x}`);
    }
  }
  return out;
}

/** The checks citing a requirement, for its page in docs/requirements.md. */
export const checksCiting = (id: string, checks: readonly CitingCheck[]) => checks.filter((c) => c.requirements.includes(id)).map((c) => c.id);

/**
 * At run time, beside a failure whose exchange is on an endpoint none of the check's failing
 * requirements binds (a step the check needed broke, e.g. the lend a pagination check places):
 * which endpoint, and that the cited sentences do not bind it. Undefined when they do, or when
 * the exchange is no endpoint's (a delivery).
 */
export function unboundFailureNote(check: CitingCheck, x: Pick<Exchange, 'endpoint'> | undefined, all: readonly Endpoint[], requirements: readonly Requirement[] = REQUIREMENTS): string | undefined {
  // The endpoint its caller named (ctx.call); a request to no endpoint of the table names none.
  const e = x?.endpoint ? all.find((y) => y.id === x.endpoint) : undefined;
  if (!e) return undefined;
  const cited = requirements.filter((q) => check.requirements.includes(q.id) && q.binds?.enforce === 'fail');
  if (cited.some((q) => boundBy(q, all).has(e.id))) return undefined;
  return `the failing answer is ${e.method} ${e.path} (${e.id}), which none of the requirements this check cites binds: a step the check needed broke there, and the rule it broke is ${e.id}'s own (endpoint.${e.id} judges it; docs/requirements.md)`;
}
