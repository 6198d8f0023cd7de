import type { z } from 'zod';

// The profile's bound on rates (bounds.rateBelow; the spec gives none). Orders asking a rate
// at or above it are refused naming `rate`, and no answer carries one, so the bound applies to
// every rate field of a request or response body, nested ones included. A check rather than a
// schema per profile: the records of contract/schemas.ts stay the spec's, and the profile's
// endpoint table (contract/endpoints.ts) adds this to them.

/** The fields that hold an order's or a market's rate. `spread`, an APY and series values are other figures. */
export const RATE_FIELDS = new Set(['rate', 'lendRate', 'borrowRate']);

export const rateBoundMessage = (below: number) => (below === 1 ? 'must be a fraction below 1 (0.08 means 8%)' : `must be below ${below}`);

function* over(v: unknown, below: number, path: PropertyKey[] = []): Generator<PropertyKey[]> {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* over(v[i], below, [...path, i]);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (RATE_FIELDS.has(k) && typeof x === 'number' && x >= below) yield [...path, k];
      else if (x && typeof x === 'object') yield* over(x, below, [...path, k]);
    }
  }
}

/** The schema with the bound checked on its rate fields; unchanged when there is no bound. */
export function rateBounded<T extends z.ZodType>(schema: T, below: number | null): T {
  if (below === null) return schema;
  return schema.superRefine((v, ctx) => {
    for (const path of over(v, below)) ctx.addIssue({ code: 'custom', path, message: rateBoundMessage(below) });
  }) as unknown as T;
}
