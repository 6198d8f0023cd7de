import { Decimal } from '../../contract/decimal.ts';
import { atPath, type BookSide } from '../../contract/profile-orderbook.ts';

// Finding a side of the authenticated order book by value (its body is not shown, part 4): after
// a resting order of a known rate and amount is placed, the side is the array whose levels at
// that rate gained that amount, whatever its key or nesting (issue 51: mutator seeds rename,
// nest or drop the public book's `lends`/`borrows`, and the fields inside a level too). Only
// arrays reached through object keys are searched, as a dotted path names them (profile-orderbook.ts).

/** Every dotted key path (through objects only) of a value: arrays, or leaves when `leaves`. */
function paths(v: unknown, leaves: boolean, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(v)) {
    if (!leaves && prefix) out.push([prefix, v]);
    return out;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k.includes('.')) continue;
      paths(x, leaves, prefix ? `${prefix}.${k}` : k, out);
    }
    return out;
  }
  if (leaves && prefix) out.push([prefix, v]);
  return out;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const dec = (v: unknown): Decimal | undefined => (typeof v === 'string' && DECIMAL.test(v) ? new Decimal(v) : typeof v === 'number' && Number.isFinite(v) && v >= 0 ? new Decimal(v) : undefined);
const sameRate = (v: unknown, rate: number) => (typeof v === 'number' ? v === rate : typeof v === 'string' && v.trim() !== '' && Number(v) === rate);

/** The amount at `ap` summed over the items whose `rp` holds `rate` (every item when rp is null); undefined when one is no decimal. */
function sumAt(items: unknown[], rp: string | null, ap: string, rate: number): Decimal | undefined {
  let s = new Decimal(0);
  for (const it of items) {
    if (rp !== null && !sameRate(atPath(it, rp), rate)) continue;
    const a = dec(atPath(it, ap));
    if (!a) return undefined;
    s = s.plus(a);
  }
  return s;
}

const countAt = (items: unknown[], rp: string, rate: number) => items.filter((it) => sameRate(atPath(it, rp), rate)).length;

/**
 * The side that gained a level of `rate` holding `amount` between two answers of the book: its
 * array's path, and the paths of rate and amount inside a level (null where no field of the
 * level shows it). Preference: rate and amount both found; else the amount alone (the total of
 * one array grew by exactly the amount); else the rate alone (one more level at that rate). A
 * level that shows neither (nulled or dropped, mutator seed 4) is no value to find: only an array
 * under the public book's own name for the side (`publicName`, part 2) that gained exactly one
 * level is taken then, its rate and amount null.
 */
export function findGainedSide(before: unknown, after: unknown, rate: number, amount: string, publicName?: string): BookSide | undefined {
  const want = new Decimal(amount);
  const arrays = paths(after, false).filter(([, v]) => (v as unknown[]).some((x) => x && typeof x === 'object' && !Array.isArray(x)));
  const found: Array<BookSide & { score: number }> = [];
  for (const [path, v] of arrays) {
    const now = v as unknown[];
    const was = (Array.isArray(atPath(before, path)) ? atPath(before, path) : []) as unknown[];
    const leaves = new Map<string, unknown[]>();
    for (const it of now) for (const [lp, x] of paths(it, true)) leaves.set(lp, [...(leaves.get(lp) ?? []), x]);
    const ratePaths = [...leaves].filter(([, xs]) => xs.some((x) => sameRate(x, rate))).map(([lp]) => lp);
    const amountPaths = [...leaves].filter(([, xs]) => xs.some((x) => dec(x) !== undefined)).map(([lp]) => lp);
    const gained = (rp: string | null, ap: string) => {
      const [a, b] = [sumAt(now, rp, ap, rate), sumAt(was, rp, ap, rate)];
      return a !== undefined && b !== undefined && a.minus(b).eq(want);
    };
    for (const rp of ratePaths) for (const ap of amountPaths) if (ap !== rp && gained(rp, ap)) found.push({ path, rate: rp, amount: ap, score: 3 });
    for (const ap of amountPaths) if (gained(null, ap)) found.push({ path, rate: null, amount: ap, score: 2 });
    for (const rp of ratePaths) if (countAt(now, rp, rate) > countAt(was, rp, rate)) found.push({ path, rate: rp, amount: null, score: 1 });
    if (publicName !== undefined && path.split('.').pop() === publicName && now.length === was.length + 1) found.push({ path, rate: null, amount: null, score: 0.5 });
  }
  const best = Math.max(0, ...found.map((f) => f.score));
  const top = found.filter((f) => f.score === best);
  // Two different arrays answering alike: which one holds the side is not established.
  if (!top.length || new Set(top.map((f) => f.path)).size > 1) return undefined;
  const { score: _s, ...side } = top[0]!;
  return side;
}
