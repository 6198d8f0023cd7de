import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../../contract/index.ts';
import { authBookSides, knownSides, unknownSide, unreadBook } from './book-levels.ts';

describe('the authenticated book\'s levels, where the profile says', () => {
  it('reads the public form, bare or under data, by default', () => {
    const bare = { lends: [{ rate: 0.1, amount: '1' }], borrows: [] };
    expect(authBookSides(defaultProfile, bare)).toEqual({ sides: { lends: [{ rate: 0.1, amount: '1' }], borrows: [] }, missing: [] });
    expect(authBookSides(defaultProfile, { data: bare, timestamp: 't' }).sides.lends).toHaveLength(1);
  });

  it('reads a renamed, nested side by the profile\'s paths, and leaves an unknown side unread', () => {
    const p = parseProfile({ orderbookLevels: { lends: null, borrows: { path: 'wnyhc.borrows', rate: 'rate', amount: 'amount' } } });
    expect(knownSides(p).map(([s]) => s)).toEqual(['borrows']);
    const r = authBookSides(p, { symbol: null, wnyhc: { borrows: [{ rate: 0.001, amount: '10' }] } });
    expect(r).toEqual({ sides: { borrows: [{ rate: 0.001, amount: '10' }] }, missing: [] });
    expect(unknownSide('lends')).toMatch(/orderbookLevels\.lends unknown/);
  });

  it('names a known side whose path holds no array, and the option that supplies it', () => {
    const r = authBookSides(defaultProfile, { lends_pnf: [], cwakm: { borrows: [] } });
    expect(r.missing).toEqual(['lends at lends (orderbookLevels.lends)', 'borrows at borrows (orderbookLevels.borrows)']);
    expect(unreadBook({ lends_pnf: [] }, r.missing)).toMatch(/set orderbookLevels in the profile/);
  });
});
