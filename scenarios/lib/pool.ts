// The key pool as k6 sees it: keys, their partners and the slot order, all from the process
// environment (`lendcheck load --keys FILE` fills them; keys never travel as arguments).
// Without a pool every order goes out under API_KEY, as before.

export interface Pool {
  keys: string[];
  partners: string[];
  /** Key index per slot, each key in proportion to its tier's sustained rate. */
  slots: number[];
}

export function loadPool(fallbackKey: string): Pool {
  const keys = (__ENV.POOL_KEYS || '').split(',').filter(Boolean);
  if (!keys.length) return { keys: [fallbackKey], partners: ['(one key)'], slots: [0] };
  const partners = (__ENV.POOL_PARTNERS || '').split(',');
  if (partners.length !== keys.length) throw new Error(`POOL_PARTNERS: expected ${keys.length} entries / received ${partners.length}`);
  const slots = (__ENV.POOL_SLOTS || keys.map((_, i) => i).join(',')).split(',').map(Number);
  if (slots.some((s) => !(s >= 0 && s < keys.length))) throw new Error('POOL_SLOTS: expected key indexes');
  return { keys, partners, slots };
}

/**
 * The keys of the n-th lend/borrow pair: consecutive slots, and the borrower moves on to the
 * next slot of another partner when there is one, so the pair's lend fills another
 * partner's borrow (cross-partner matching).
 */
export function pairKeys(pool: Pool, n: number): { lend: number; borrow: number } {
  const len = pool.slots.length;
  const lend = pool.slots[(2 * n) % len];
  for (let step = 1; step <= len; step++) {
    const borrow = pool.slots[(2 * n + step) % len];
    if (pool.partners[borrow] !== pool.partners[lend]) return { lend, borrow };
  }
  return { lend, borrow: pool.slots[(2 * n + 1) % len] };
}
