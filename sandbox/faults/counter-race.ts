import type { PositionRow } from '../store/rows.ts';
import { positionValues } from '../engine/store.ts';
import { gapConfig } from './config.ts';
import { engineFault, gap } from './fault.ts';
import { swapped } from './kit.ts';

// A shared, unlocked counter: order ids are taken from a counter that is read, then (after an
// `await`) written back incremented. Two orders in the gap get the same id, and the order
// store upserts by id: both are acknowledged with one positionId, the second overwrites the
// first, and the first's funds stay locked in a position nobody can see.

export const counterRace = engineFault({
  name: 'counter-race',
  description: 'POST /lend and /borrow take their positionId from a counter read before an await and written after it; a taken id is overwritten',
  breaks: 'distinct acknowledged orders (each accepted order is its own position) and conservation',
  config: gapConfig,
  install(config, resolvers) {
    const counter = { next: 0 };
    // Ids of this sandbox's life only: a file database may hold ids of earlier runs.
    const base = BigInt(Date.now()) * 1_000_000n;
    const idFor = (n: number) => `pos_${(base + BigInt(n)).toString(16).padStart(24, '0')}`;
    const wrap = (endpoint: string) => {
      const real = resolvers[endpoint]!;
      return async (engine: Parameters<typeof real>[0], input: Parameters<typeof real>[1]) => {
        const n = counter.next;
        await gap(config.gapMs);
        counter.next = n + 1;
        const upsert = engine.db.prepare(engine.st.insertPos.source.replace(/^\s*INSERT INTO/, 'INSERT OR REPLACE INTO'));
        const insert = {
          source: upsert.source,
          run(row: PositionRow) {
            row.id = idFor(n);
            return upsert.run(...positionValues(row));
          },
        };
        return swapped(engine.st, 'insertPos', insert, () => real(engine, input));
      };
    };
    return { 'lend.create': wrap('lend.create'), 'borrow.create': wrap('borrow.create') };
  },
});
