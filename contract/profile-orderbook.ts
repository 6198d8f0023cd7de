import { z } from 'zod';
import { doc } from './profile-doc.ts';

// Where the authenticated order book (GET /markets/{asset}/orderbook, part 4: "Response body:
// not shown") keeps its lend and borrow levels. Only the PUBLIC book's shape is stated (part 2:
// `lends` and `borrows` of `{rate, amount}`); a target may name, nest or drop them otherwise in
// the keyed one (issue 51: under mutator seeds 1, 2 and 4 there is no top-level `lends`, and the
// depth check had nothing to count). Part of the profile (contract/profile.ts, beside
// orderbookPath); `profile detect` finds each side by value (detect/market/book-levels.ts).

/** A dotted path of object keys from the body's root (`lends`, `data.lends`, `book.bids`). */
const keyPath = z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'a dotted path of object keys, e.g. lends or data.book.lends');

/** One side: the array's path, and each level's rate and amount inside an item (null: not found there). */
export const bookSide = z.object({
  path: keyPath,
  rate: keyPath.nullable().default('rate'),
  amount: keyPath.nullable().default('amount'),
});

export type BookSide = z.infer<typeof bookSide>;

export const orderbookLevelsOptions = z
  .object({
    lends: doc(bookSide.nullable().default({ path: 'lends', rate: 'rate', amount: 'amount' }), {
      spec: 'Part 4: GET /markets/{asset}/orderbook "Response body: not shown"; part 2 shows `lends` of `{rate: number, amount: string}` for the public book only.',
      reason: 'The public book\'s form ({path: "lends", rate: "rate", amount: "amount"}), as the reference sandbox answers. `path` is a dotted key path from the body\'s root (a {data} wrapper included); `rate` and `amount` are paths inside one level, null where the level does not show it. null: unknown (a detected profile that found no array gaining a resting lend it placed); the checks counting lend levels skip naming it.',
    }),
    borrows: doc(bookSide.nullable().default({ path: 'borrows', rate: 'rate', amount: 'amount' }), {
      spec: 'Part 4: GET /markets/{asset}/orderbook "Response body: not shown"; part 2 shows `borrows` of `{rate: number, amount: string}` for the public book only.',
      reason: 'The public book\'s form ({path: "borrows", rate: "rate", amount: "amount"}), as the reference sandbox answers. null: unknown (a detected profile that found no array gaining a resting borrow it placed); the checks counting borrow levels skip naming it.',
    }),
  })
  .prefault({});

/** The value at a dotted key path of a JSON value, or undefined. */
export function atPath(json: unknown, path: string): unknown {
  let v = json;
  for (const k of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** One level of a side as the profile locates its fields (undefined where it does not show them). */
export interface BookLevel {
  rate: unknown;
  amount: unknown;
}

/** The side's levels in an authenticated-book body, or undefined when no array sits at its path. */
export function sideLevels(json: unknown, side: BookSide): BookLevel[] | undefined {
  const arr = atPath(json, side.path);
  if (!Array.isArray(arr)) return undefined;
  return arr.map((item) => ({ rate: side.rate === null ? undefined : atPath(item, side.rate), amount: side.amount === null ? undefined : atPath(item, side.amount) }));
}
