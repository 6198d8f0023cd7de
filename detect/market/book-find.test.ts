import { describe, expect, it } from 'vitest';
import { findGainedSide } from './book-find.ts';
import { sideLevels } from '../../contract/profile-orderbook.ts';

describe('findGainedSide: the book side that gained a resting order, by value', () => {
  it('finds the public form', () => {
    const before = { asset: 'USDC', lends: [{ rate: 0.1, amount: '5' }], borrows: [] };
    const after = { asset: 'USDC', lends: [{ rate: 0.1, amount: '5' }, { rate: 0.5, amount: '10' }], borrows: [] };
    expect(findGainedSide(before, after, 0.5, '10')).toEqual({ path: 'lends', rate: 'rate', amount: 'amount' });
  });

  it('finds a renamed side with a renamed amount (mutator seed 1) and an aggregated level', () => {
    const before = { cwakm: { market: 'USDC', borrows: [] }, term: null, lends_pnf: [{ rate: 0.5, orf_amount: '110', rvplay: 862 }] };
    const after = { cwakm: { market: 'USDC', borrows: [] }, term: null, lends_pnf: [{ rate: 0.5, orf_amount: '220.00', rvplay: 862 }] };
    const side = findGainedSide(before, after, 0.5, '110');
    expect(side).toEqual({ path: 'lends_pnf', rate: 'rate', amount: 'orf_amount' });
    expect(sideLevels(after, side!)).toEqual([{ rate: 0.5, amount: '220.00' }]);
  });

  it('finds a nested side (mutator seed 2) whose levels nest their rate', () => {
    const before = { symbol: null, wnyhc: { borrows: [] } };
    const after = { symbol: null, wnyhc: { borrows: [{ x: { rate: 0.001 }, amount: '100' }] } };
    expect(findGainedSide(before, after, 0.001, '100')).toEqual({ path: 'wnyhc.borrows', rate: 'x.rate', amount: 'amount' });
  });

  it('falls back on the amount alone where a level shows no rate, and on the rate alone where it shows no amount', () => {
    expect(findGainedSide({ b: [] }, { b: [{ amount: '7' }] }, 0.2, '7')).toEqual({ path: 'b', rate: null, amount: 'amount' });
    expect(findGainedSide({ b: [] }, { b: [{ rate: 0.2, amount: null }] }, 0.2, '7')).toEqual({ path: 'b', rate: 'rate', amount: null });
  });

  it('takes an array under the public name that gained one level showing no values (mutator seed 4), and only that', () => {
    const [before, after] = [{ borrows: [{ amount: null, x: null }] }, { borrows: [{ amount: null, x: null }, { amount: null, x: null }] }];
    expect(findGainedSide(before, after, 0.001, '100', 'borrows')).toEqual({ path: 'borrows', rate: null, amount: null });
    expect(findGainedSide(before, after, 0.001, '100', 'lends')).toBeUndefined();
    expect(findGainedSide(before, after, 0.001, '100')).toBeUndefined();
    expect(findGainedSide({ borrows: [] }, { borrows: [{}, {}] }, 0.001, '100', 'borrows')).toBeUndefined();
  });

  it('establishes nothing where no array gained the level, or two arrays did alike', () => {
    const same = { lends: [{ rate: 0.5, amount: '10' }] };
    expect(findGainedSide(same, same, 0.5, '10')).toBeUndefined();
    expect(findGainedSide({}, { a: [{ rate: 0.5, amount: '10' }], b: [{ rate: 0.5, amount: '10' }] }, 0.5, '10')).toBeUndefined();
    // An amount that grew by another amount is not the order placed.
    expect(findGainedSide({ l: [{ rate: 0.5, amount: '1' }] }, { l: [{ rate: 0.5, amount: '3' }] }, 0.5, '10')).toBeUndefined();
  });
});
