// Where a target puts the id of what it created is its own choice (the spec shows no create
// answer's id field): the suites, profile detection and `lendcheck listen` all look for it the
// same way, so the rule lives here, below all three.

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
