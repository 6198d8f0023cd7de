import btreeModule from 'sorted-btree';
import type { Dec } from '../money/money.ts';

// One side of a market's order book. Keys order by price then time (seq), so the best
// order is always the tree's first entry: O(log n) insert, remove and best lookup.
// Lends rest at their minimum rate (lowest first); borrows at their maximum (highest first).

export interface Resting {
  positionId: string;
  seq: number;
  rate: number;
  remaining: Dec;
}

type Key = [number, number];

// sorted-btree is CommonJS whose class sits on `exports.default`; Node's ESM loader hands
// the whole exports object to a default import, a CommonJS build hands the class itself.
const BTree = ((btreeModule as unknown as { default?: unknown }).default ?? btreeModule) as typeof btreeModule.default;

export class BookSide {
  private readonly tree: InstanceType<typeof BTree<Key, Resting>>;
  constructor(readonly side: 'lend' | 'borrow') {
    const sign = side === 'lend' ? 1 : -1;
    this.tree = new BTree<Key, Resting>(undefined, (a: Key, b: Key) => (a[0] !== b[0] ? sign * (a[0] - b[0]) : a[1] - b[1]));
  }
  get size(): number {
    return this.tree.size;
  }
  add(o: Resting): void {
    this.tree.set([o.rate, o.seq], o);
  }
  remove(o: Pick<Resting, 'rate' | 'seq'>): boolean {
    return this.tree.delete([o.rate, o.seq]);
  }
  best(): Resting | undefined {
    const k = this.tree.minKey();
    return k ? this.tree.get(k) : undefined;
  }
  /** Orders from best to worst; callers stop early, so this stays cheap. */
  *inOrder(): Generator<Resting> {
    for (const [, v] of this.tree.entries()) yield v;
  }
}

export class Book {
  readonly lends = new BookSide('lend');
  readonly borrows = new BookSide('borrow');
  side(type: 'lend' | 'borrow'): BookSide {
    return type === 'lend' ? this.lends : this.borrows;
  }
}
