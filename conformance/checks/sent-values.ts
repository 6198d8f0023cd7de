import type { BodyCase } from '../cases.ts';
import type { CheckContext } from '../check.ts';

// One malformed value earns its request once a run. The generated cases give every decimal
// field the same six near misses (`1e3`, `-1`, letters, zero, two points, empty), every rate the
// same bound and bad values, every maturity the same six formats: on POST /borrow alone that was
// 17 requests repeating what POST /lend had just been refused for (issue 48), and the order book's
// maturity filter was sent the maturity near misses again. A field (or query parameter) still gets
// its own missing and wrong-type cases, its enum's edges, and the first of its format, bound and
// value cases whatever was sent before; only a further one whose value an earlier field of the
// run was already given is left out, and the check's note counts them.

/** The kinds whose values repeat from field to field (the same rule on another field). */
const SHARED_KINDS = new Set<BodyCase['kind']>(['format', 'bound', 'value']);

const KEY = 'errors:sent-values';

function valueAt(body: unknown, field: string): unknown {
  return field.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), body);
}

/** What the record needs of a case: which field it breaks, how, with what value, and for a neighbour the value sets it comes from. */
interface Sendable {
  field: string;
  kind?: BodyCase['kind'];
  sets?: string[];
}

/**
 * One enum neighbour per value set it comes from, per field (issue 48): a service that takes a
 * value of another list takes it by testing membership of that list (or of a union with it), so
 * the list's other values go the same way. The first neighbour of a set is sent (ETH covers both
 * the collateral examples and the profile's collateral list for a lend asset; `active` the
 * statuses for a type filter); a later one whose every set is covered is left out. So is the
 * unknown value (`USDC-unknown`) of a field a neighbour was sent for: a service that takes a
 * value of no list checks no list, and takes the neighbour too. An enum without neighbours (a
 * mode, the event types) keeps its unknown value.
 */
export function neighbourPerSet<C extends Sendable>(cases: C[]): { send: C[]; left: C[] } {
  const covered = new Set<string>();
  const withNeighbour = new Set<string>();
  const send: C[] = [];
  const left: C[] = [];
  for (const c of cases) {
    const keys = c.kind === 'neighbour' ? (c.sets ?? []).map((s) => `${c.field}|${s}`) : [];
    if ((keys.length && keys.every((k) => covered.has(k))) || (c.kind === 'unknown' && withNeighbour.has(c.field))) {
      left.push(c);
      continue;
    }
    for (const k of keys) covered.add(k);
    if (c.kind === 'neighbour') withNeighbour.add(c.field);
    send.push(c);
  }
  return { send, left };
}

/**
 * The cases worth sending: `cases` less the format, bound and value cases whose value an earlier
 * field of the run (of this check or one before) was already sent, keeping the first such case of
 * every field. `seen` is the run's record (ctx.shared), updated with what is kept. `valueOf` reads
 * the malformed value (a body case's field, a query case's value).
 */
export function unsent<C extends Sendable>(seen: Set<string>, cases: C[], valueOf: (c: C) => unknown): { send: C[]; left: C[] } {
  const send: C[] = [];
  const left: C[] = [];
  const kept = new Set<string>();
  for (const c of cases) {
    if (!SHARED_KINDS.has(c.kind)) {
      send.push(c);
      continue;
    }
    // The kind with the value: an empty string as a decimal's format is not an empty userId.
    const v = `${c.kind}:${JSON.stringify(valueOf(c))}`;
    if (kept.has(c.field) && seen.has(v)) {
      left.push(c);
      continue;
    }
    kept.add(c.field);
    seen.add(v);
    send.push(c);
  }
  return { send, left };
}

/** unsent for generated bodies: the value is the one at the case's field. */
export const unsentCases = (seen: Set<string>, cases: BodyCase[]) => unsent(seen, cases, (c) => valueAt(c.body, c.field));

/** unsent over the run's record; the check notes what it left out and why. A body case's value is at its field. */
export function casesToSend<C extends Sendable & { what: string }>(ctx: Pick<CheckContext, 'shared' | 'note'>, cases: C[], valueOf: (c: C) => unknown = (c) => valueAt((c as unknown as BodyCase).body, c.field)): C[] {
  let seen = ctx.shared.get(KEY) as Set<string> | undefined;
  if (!seen) ctx.shared.set(KEY, (seen = new Set()));
  const per = neighbourPerSet(cases);
  if (per.left.length) ctx.note(`${per.left.length} enum edge(s) left out, the same field already sent a neighbour from the same value set (an unknown value: from any set): ${per.left.map((c) => c.what).join('; ')}`);
  const { send, left } = unsent(seen, per.send, valueOf);
  if (left.length) ctx.note(`${left.length} generated case(s) left out, their malformed values already refused on an earlier field of this run (each field keeps its first): ${left.map((c) => c.what).join('; ')}`);
  return send;
}
