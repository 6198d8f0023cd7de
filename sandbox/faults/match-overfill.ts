import type { Resting } from '../engine/book.ts';
import { resolveMarket } from '../engine/orders.ts';
import { gapConfig } from './config.ts';
import { engineFault, gap } from './fault.ts';

// Matching against a book read before an await: a taker notes the resting orders it can
// cross, awaits, then fills against what it noted. Two takers in the gap both fill the same
// resting order in full: the market fills more than was offered.

export const matchOverfill = engineFault({
  name: 'match-overfill',
  description: 'POST /lend and /borrow match against the opposite book as it was read before an await: concurrent takers overfill one resting order',
  breaks: 'matching never fills more than was offered',
  config: gapConfig,
  install(config, resolvers) {
    const wrap = (endpoint: 'lend.create' | 'borrow.create') => {
      const real = resolvers[endpoint]!;
      const type = endpoint === 'lend.create' ? 'lend' : 'borrow';
      return async (engine: Parameters<typeof real>[0], input: Parameters<typeof real>[1]) => {
        const asset: string = type === 'lend' ? input.body.asset : input.body.borrowAsset;
        let market: string;
        try {
          market = resolveMarket(engine, input.body.maturity, engine.now());
        } catch {
          return real(engine, input);
        }
        if (!engine.marketAssets().includes(asset)) return real(engine, input);
        const side = engine.book(asset, market).side(type === 'lend' ? 'borrow' : 'lend');
        const seen: Array<{ o: Resting; remaining: Resting['remaining'] }> = [];
        for (const o of side.inOrder()) {
          seen.push({ o, remaining: o.remaining });
          if (seen.length >= 50) break;
        }
        await gap(config.gapMs);
        // The stale book: what was read before the gap, whatever filled in it since.
        for (const s of seen) {
          if (engine.row(s.o.positionId)?.status === 'cancelled') continue;
          s.o.remaining = s.remaining;
          side.add(s.o);
        }
        return real(engine, input);
      };
    };
    return { 'lend.create': wrap('lend.create'), 'borrow.create': wrap('borrow.create') };
  },
});
