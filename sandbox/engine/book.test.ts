import { describe, expect, it } from 'vitest';
import { Book } from './book.ts';
import { D } from '../money/money.ts';

describe('order book side', () => {
  it('orders lends by lowest rate, then earliest; borrows by highest rate, then earliest', () => {
    const b = new Book();
    const o = (positionId: string, seq: number, rate: number) => ({ positionId, seq, rate, remaining: new D(1) });
    b.lends.add(o('l1', 1, 0.05));
    b.lends.add(o('l2', 2, 0.04));
    b.lends.add(o('l3', 3, 0.04));
    b.borrows.add(o('b1', 4, 0.05));
    b.borrows.add(o('b2', 5, 0.06));
    b.borrows.add(o('b3', 6, 0.06));
    expect([...b.lends.inOrder()].map((x) => x.positionId)).toEqual(['l2', 'l3', 'l1']);
    expect([...b.borrows.inOrder()].map((x) => x.positionId)).toEqual(['b2', 'b3', 'b1']);
    expect(b.lends.remove({ rate: 0.04, seq: 2 })).toBe(true);
    expect(b.lends.best()?.positionId).toBe('l3');
    expect(b.lends.size).toBe(2);
  });
});
