import { Decimal } from '../contract/decimal.ts';

// Bounded searches over a sorted ladder of candidate values. A ladder of 1, 2 and 5 × 10^k
// keeps each search to log2(len) requests and finds any bound of that form exactly; a
// bound between two rungs is reported as the rung below it (medium confidence).

export function niceLadder(fromExp: number, toExp: number): string[] {
  const out: string[] = [];
  for (let e = fromExp; e <= toExp; e++) for (const m of [1, 2, 5]) out.push(new Decimal(m).times(new Decimal(10).pow(e)).toFixed());
  return out;
}

/** Ratios from `from` to `to` by `step`, as decimal strings. */
export function ratioLadder(from: string, to: string, step: string): string[] {
  const out: string[] = [];
  for (let x = new Decimal(from); x.lte(to); x = x.plus(step)) out.push(x.toFixed());
  return out;
}

/**
 * The first index whose answer is true, for a predicate false then true along the ladder;
 * ladder.length when none is. Only the probed rungs cost a request.
 */
export async function firstTrue(ladder: string[], pred: (v: string) => Promise<boolean>): Promise<number> {
  let lo = 0;
  let hi = ladder.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await pred(ladder[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The largest integer n in [lo, hi] with pred(n) true, pred monotone (true then false); pred(lo) assumed true. */
export async function lastTrueInt(lo: number, hi: number, pred: (n: number) => Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await pred(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
