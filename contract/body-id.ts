// Where a target puts the id of what it created is its own choice (the spec shows no create
// answer's id field): the suites, profile detection, the load scenarios and `lendcheck listen`
// all look for it the same way, so the rule lives here, below all of them. No imports: k6
// bundles this file into the scenarios as it is.

/**
 * The id in a body whose shape the spec leaves open: the named field when the profile
 * names one, else the one string field named like an id (`id`, `…Id`, `…_id`) other
 * than the ones given (e.g. userId).
 */
export function findId(body: unknown, named?: string, exclude: string[] = ['userId']): { field: string; value: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const o = body as Record<string, unknown>;
  if (named) return typeof o[named] === 'string' ? { field: named, value: o[named] as string } : undefined;
  const keys = Object.keys(o).filter((k) => typeof o[k] === 'string' && o[k] !== '' && /(^id$|Id$|_id$)/.test(k) && !exclude.includes(k));
  const exact = keys.find((k) => k === 'id');
  const pick = exact ?? (keys.length === 1 ? keys[0] : undefined);
  if (pick) return { field: pick, value: o[pick] as string };
  const nested = o.data ?? o.webhook ?? o.subscription;
  return nested && nested !== body ? findId(nested, undefined, exclude) : undefined;
}

/**
 * The position id in an answer to an order whose body the spec does not show (POST /borrow):
 * the field the profile names (ids.borrow), else `positionId` (the spec's name for it on
 * positions) when there, else found as findId finds one.
 */
export function positionIdIn(body: unknown, named?: string): string | undefined {
  if (named) return findId(body, named)?.value;
  return findId(body, 'positionId')?.value ?? findId(body)?.value;
}

/**
 * The ids of the items a list answer holds, where the spec does not show the list (GET /vaults):
 * the payload itself when it is an array, else its one array field of objects (or its first such
 * field); each item's id as findId finds it.
 */
export function listedIds(payload: unknown): string[] {
  const items = Array.isArray(payload)
    ? payload
    : payload && typeof payload === 'object'
      ? Object.values(payload as Record<string, unknown>).find((v): v is unknown[] => Array.isArray(v) && v.some((x) => x && typeof x === 'object' && !Array.isArray(x)))
      : undefined;
  return (items ?? []).map((x) => findId(x)?.value).filter((v): v is string => !!v);
}
