import type { Reply } from '../../conformance/http.ts';
import { errorChoiceOf, ok, type Detector } from '../probe.ts';
import { lastTrueInt } from '../search.ts';

// The body-size limit by bounded search: the same harmless PATCH of a pending lend
// (autoRollover false, already so) padded with JSON whitespace to a chosen size. Sizes
// grow ×4 from 1 KiB until one is refused (at most MAX_BODY); then the round sizes between
// (powers of 2, and 1, 2, 5 × 10^k, where limits usually sit) are walked up, the byte
// after the largest one taken is tried, and only a limit that is none of those needs a
// bisection to the byte, within the request budget left.

export const MAX_BODY = 16 * 1024 * 1024;

export const bodyLimitDetector: Detector = {
  name: 'body-size limit',
  options: ['limits.maxBodyBytes', 'errors.payloadTooLarge'],
  async run(p) {
    const id = p.fact<string>('deadLend');
    if (!id) throw new Error('no pending lend to PATCH');
    const core = JSON.stringify({ autoRollover: false });
    const send = (size: number) =>
      p.call('position.patch', { params: { positionId: id }, raw: core.slice(0, -1) + ' '.repeat(Math.max(0, size - core.length)) + '}', headers: { 'content-type': 'application/json' } });
    const evidence: Reply[] = [];
    let taken = 0;
    let refused: Reply | undefined;
    let size = 1024;
    for (; size <= MAX_BODY; size *= 4) {
      const r = await send(size);
      if (ok(r)) taken = size;
      else {
        refused = r;
        break;
      }
    }
    if (!refused) return p.miss('limits.maxBodyBytes', `a body of ${taken} bytes was still taken (searched up to ${MAX_BODY})`);
    const e = errorChoiceOf(refused);
    if (!taken || !e) return p.miss('limits.maxBodyBytes', `the PATCH of ${taken || 1024} bytes answered ${refused.status}`);
    p.set('errors.payloadTooLarge', e, 'high', [refused], `a ${size}-byte body`);
    for (const n of roundSizesBetween(taken, size)) {
      const r = await send(n);
      if (evidence.length < 3) evidence.push(r);
      if (!ok(r)) {
        size = n;
        break;
      }
      taken = n;
    }
    if (taken + 1 < size) {
      const r = await send(taken + 1);
      evidence.push(r);
      if (ok(r)) taken += 1;
      else size = taken + 1;
    }
    // Each step halves the gap; stop early (medium confidence) when the budget runs short.
    const steps = Math.ceil(Math.log2(size - taken));
    const reserve = 2;
    let exact = p.left - reserve >= steps;
    const best = taken + 1 >= size ? taken : await lastTrueInt(taken, size - 1, async (n) => {
      if (p.left <= reserve) {
        exact = false;
        return false;
      }
      const r = await send(n);
      if (evidence.length < 3) evidence.push(r);
      return ok(r);
    });
    p.set('limits.maxBodyBytes', best, exact ? 'high' : 'low', [refused, ...evidence], exact ? `${best} bytes taken, ${best + 1} refused` : `at least ${best} bytes (the request budget ended the search)`);
  },
};

/** Powers of 2 and 1, 2, 5 × 10^k strictly between lo and hi, ascending. */
export function roundSizesBetween(lo: number, hi: number): number[] {
  const out = new Set<number>();
  for (let x = 1; x < hi; x *= 2) if (x > lo) out.add(x);
  for (let e = 1; 10 ** e < hi; e++) for (const m of [1, 2, 5]) if (m * 10 ** e > lo && m * 10 ** e < hi) out.add(m * 10 ** e);
  return [...out].sort((a, b) => a - b);
}
