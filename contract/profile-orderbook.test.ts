import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from './index.ts';
import { atPath, sideLevels } from './profile-orderbook.ts';

describe('profile orderbookLevels: where the authenticated book keeps its levels', () => {
  it('defaults to the public book\'s form, and takes a user\'s paths or null (unknown)', () => {
    expect(defaultProfile.orderbookLevels).toEqual({ lends: { path: 'lends', rate: 'rate', amount: 'amount' }, borrows: { path: 'borrows', rate: 'rate', amount: 'amount' } });
    const p = parseProfile({ orderbookLevels: { lends: { path: 'data.book.asks', amount: 'size' }, borrows: null } });
    expect(p.orderbookLevels).toEqual({ lends: { path: 'data.book.asks', rate: 'rate', amount: 'size' }, borrows: null });
    expect(() => parseProfile({ orderbookLevels: { lends: { path: 'a..b' } } })).toThrow(/orderbookLevels\.lends\.path/);
  });

  it('reads a side\'s levels by its paths, undefined where no array sits there', () => {
    const body = { book: { asks: [{ px: { rate: 0.1 }, size: '5' }, { size: '6' }] } };
    expect(atPath(body, 'book.asks.0')).toBeUndefined();
    expect(sideLevels(body, { path: 'book.asks', rate: 'px.rate', amount: 'size' })).toEqual([{ rate: 0.1, amount: '5' }, { rate: undefined, amount: '6' }]);
    expect(sideLevels(body, { path: 'book.asks', rate: null, amount: 'size' })?.[0]).toEqual({ rate: undefined, amount: '5' });
    expect(sideLevels(body, { path: 'book', rate: 'rate', amount: 'amount' })).toBeUndefined();
  });
});
