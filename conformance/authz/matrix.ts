import { endpoints, type Endpoint, type Ownership, type Profile } from '../../contract/index.ts';

// The authorization matrix as data: one cell per endpoint of the contract's table that names,
// lists or changes an object a partner owns (the table's `owns`, contract/endpoint-type.ts).
// Nothing here lists endpoints by hand: a row added to the table with `owns` is a new cell,
// driven by its object and verb (cells.ts), and matrix.test.ts fails when an authenticated
// row states no ownership at all. Sandbox controls are marked too but are not the interface:
// a partner's target has none, so the matrix runs over the `key` rows.

export interface Cell {
  endpoint: Endpoint;
  owns: Ownership;
  /** "POST /positions/{positionId}/cancel" — how a finding names the endpoint. */
  route: string;
}

/** Creations first (partner B's own u1 exists before it is listed), then lists, reads, and changes last. */
const ORDER: Record<Ownership['verb'], number> = { create: 0, list: 1, read: 2, change: 3 };

export function matrixCells(profile: Profile, table: Endpoint[] = endpoints(profile)): Cell[] {
  return table
    .filter((e): e is Endpoint & { owns: Ownership } => e.access === 'key' && !!e.owns)
    .map((e) => ({ endpoint: e, owns: e.owns, route: `${e.method} ${e.path}` }))
    .sort((a, b) => ORDER[a.owns.verb] - ORDER[b.owns.verb]);
}

/** Path parameters that name a partner's object: a row naming one must state what it owns. */
export const OWNED_PARAMS = ['positionId', 'userId', 'webhookId', 'eventId'];

/** Rows that state nothing about ownership, or name an owned object without owning it (the coverage test's findings). */
export function unmarked(table: Endpoint[]): string[] {
  const out: string[] = [];
  for (const e of table) {
    if (e.access === 'public') continue;
    if (e.owns === undefined) out.push(`${e.id}: states no ownership (owns)`);
    const named = OWNED_PARAMS.find((p) => e.path.includes(`{${p}}`));
    if (named && !e.owns) out.push(`${e.id}: names {${named}} in its path but owns nothing`);
  }
  return out;
}
